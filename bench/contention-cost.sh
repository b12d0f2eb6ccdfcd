#!/usr/bin/env bash
# Target cost of the lock contention events at the daemon's thresholds (ContentionKind:
# jdk.JavaMonitorEnter and jdk.ThreadPark from 10 ms, jdk.JavaMonitorWait from 20 ms, stacks on
# enters and parks): requests/s of 16 threads, contended (one shared monitor, held 1 ms every 3rd
# request) and uncontended (a monitor per thread), without and with a recording of those events.
#   bench/contention-cost.sh [SECONDS] [REPS]    results to bench/results/contention-cost.txt
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds=${1:-4} reps=${2:-3}
work=$(mktemp -d)
javac -d "$work" "$root/bench/contention-cost/ContentionCost.java"
jfc="$root/collectors/src/test/resources/jfr/locks/locks.jfc"
out="$root/bench/results/contention-cost.txt"
{
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
