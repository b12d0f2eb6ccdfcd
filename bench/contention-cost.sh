#!/usr/bin/env bash
# Target cost of the lock contention events at the daemon's thresholds (ContentionKind:
# jdk.JavaMonitorEnter and jdk.ThreadPark from 10 ms, jdk.JavaMonitorWait from 20 ms, stacks on
# enters and parks): requests/s of 16 threads, contended (one shared monitor, held 1 ms every 3rd
# request) and uncontended (a monitor per thread), without and with a recording of those events.
# Then the daemon's lock-holder dump (LockHolderPoller: dumpAllThreads(true,false) while 2+ threads
# are BLOCKED, at most every 5 s) on the contended target with 200 more parked threads: requests/s
# without dumps, with a dump every 5 s (the daemon's cap) and every 100 ms (50x, so a per-dump cost
# shows above the noise), and how long each dump took.
# The target's pause per dump is read from its safepoint log ("ThreadDump" safepoints, median of
# their Total): the dump's wall time on a loaded machine is mostly waiting for a CPU.
#   bench/contention-cost.sh [SECONDS] [REPS] [DUMP_SECONDS]   (SECTIONS="events dumps" by default)
#   results to bench/results/contention-cost.txt and bench/results/lock-holder-dump-cost.txt
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds=${1:-4} reps=${2:-3} dump_seconds=${3:-10}
work=$(mktemp -d)
javac -d "$work" "$root/bench/contention-cost/ContentionCost.java"
jfc="$root/collectors/src/test/resources/jfr/locks/locks.jfc"
out="$root/bench/results/contention-cost.txt"
sections=${SECTIONS:-events dumps}
[[ " $sections " == *" events "* ]] && {
  echo "# $(date -u +%FT%TZ) $(java -version 2>&1 | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# rep mode requests/s without recording, with the contention events recorded"
  for rep in $(seq "$reps"); do
    for mode in contended uncontended; do
      off=$(java -cp "$work" ContentionCost "$mode" "$seconds")
      on=$(java "-XX:StartFlightRecording:settings=$jfc,filename=$work/r.jfr" -Xlog:jfr=off \
        -cp "$work" ContentionCost "$mode" "$seconds" 2>/dev/null | tail -1)
      echo "$rep $mode off=$off on=$on"
    done
  done
} | tee "$out"

dumps="$root/bench/results/lock-holder-dump-cost.txt"
dump_section() {
  echo "# $(date -u +%FT%TZ) $(java -version 2>&1 | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# rep requests/s (contended, 200 parked threads, ${dump_seconds}s): no dumps, a dump every 5 s, every 100 ms; dump times"
  for rep in $(seq "$reps"); do
    none=$(java -cp "$work" ContentionCost contended "$dump_seconds" 0 200)
    every5s=$(java -cp "$work" ContentionCost contended "$dump_seconds" 5000 200 | paste -sd' ')
    every100ms=$(java "-Xlog:safepoint=info:file=$work/safepoints.log" -cp "$work" \
      ContentionCost contended "$dump_seconds" 100 200 | paste -sd' ')
    pause=$(grep '"ThreadDump"' "$work/safepoints.log" | sed 's/.*Total: \([0-9]*\) ns.*/\1/' |
      sort -n | awk '{v[NR]=$1} END {printf "%.2f", NR ? v[int((NR+1)/2)]/1e6 : 0}')
    echo "$rep none=$none every5s=$every5s every100ms=$every100ms safepoint_median_ms=$pause"
  done
}
[[ " $sections " == *" dumps "* ]] && dump_section | tee "$dumps"
true
