#!/usr/bin/env bash
# What JFR costs a thread-storming JVM before, during and after a recording with no events: one
# lab process (thread-per-request --rate RATE, pinned to CPU 0), its CPU measured over SECONDS
# before any recording, with an empty recording running (jcmd JFR.start), and after JFR.stop.
# Explains why closing the stream in a storm (jfr.stormPauseAboveRate) cannot bring a JDK 17
# target back to its unmonitored cost: JFR keeps per-thread work once it has been started.
# Usage: [BENCH_OUT=dir] bench/jfr-residual.sh [java-home] [repeats] [seconds] [rate]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/daemon/target/jvm-sentinel.jar"
home=${1:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
repeats=${2:-3}
seconds=${3:-10}
rate=${4:-10000}
[ -f "$jar" ] || { echo "build first: ./mvnw -q -DskipTests package" >&2; exit 1; }
results="${BENCH_OUT:-$root/bench/results}"
mkdir -p "$results"
out="$results/jfr-residual-$(date -u +%Y%m%dT%H%M%SZ).txt"
cores() { # cores used by pid $1 over $2 seconds
  local a b
  a=$(awk '{print $14+$15}' "/proc/$1/stat"); sleep "$2"; b=$(awk '{print $14+$15}' "/proc/$1/stat")
  awk -v a="$a" -v b="$b" -v s="$2" 'BEGIN {printf "%.3f", (b-a)/100/s}'
}
echo "# jfr residual: thread-per-request --rate $rate, ${seconds}s per phase; $("$home/bin/java" -version 2>&1 | head -1); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out"
for ((r = 1; r <= repeats; r++)); do
  taskset -c 0 "$home/bin/java" -cp "$jar" io.jvmsentinel.lab.LabMain thread-per-request \
    --rate "$rate" --delay 1s >/dev/null 2>&1 &
  lab=$!
  trap 'kill -9 $lab 2>/dev/null || true' EXIT
  sleep 8
  before=$(cores "$lab" "$seconds")
  taskset -c 1 "$home/bin/jcmd" "$lab" JFR.start name=residual \
    "settings=$root/bench/storm-cost/empty.jfc" >/dev/null
  sleep 3
  during=$(cores "$lab" "$seconds")
  taskset -c 1 "$home/bin/jcmd" "$lab" JFR.stop name=residual >/dev/null
  sleep 3
  after=$(cores "$lab" "$seconds")
  kill -9 "$lab" 2>/dev/null || true
  wait "$lab" 2>/dev/null || true
  echo "round=$r before_cores=$before empty_recording_cores=$during after_stop_cores=$after" | tee -a "$out"
done
awk -F'[ =]' '/^round=/ { b[NR]=$4; d[NR]=$6; a[NR]=$8; n++ ; sb+=$4; sd+=$6; sa+=$8 }
  END { printf "mean before_cores=%.3f empty_recording_cores=%.3f (%+.0f%%) after_stop_cores=%.3f (%+.0f%%)\n",
    sb/n, sd/n, (sd/sb-1)*100, sa/n, (sa/sb-1)*100 }' "$out" | tee -a "$out"
echo "# results in $out"
