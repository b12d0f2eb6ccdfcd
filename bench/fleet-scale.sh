#!/usr/bin/env bash
# Issue 16's scale benchmark: one daemon in fleet mode (discovery.local, JFR on every target)
# watching 1, then 10, then 50 real lab JVMs (lab idle, -Xmx48m -XX:+UseSerialGC, no remote JMX:
# the daemon attaches). At each size: daemon RSS (per target too), threads and CPU over a 60 s
# steady window beside the labs' total CPU and the load average; JFR lag per target at every 15 s
# scrape; /metrics p50/p99 over 200 back-to-back scrapes and the body size; then a thread storm in
# one of the targets and the time from its onset to ThreadStorm firing. The driver is the `fleet`
# section of bench/run (io.jvmsentinel.bench.FleetScaleSection).
#
#   bench/fleet-scale.sh [--fleet-sizes 1,10,50] [--quick] [--daemon-flag FLAG]... [--build]
#
# Results: bench/results/fleet-scale-<UTC time>[-quick].json and .txt (--out DIR elsewhere).
# The driver, the daemon and every lab JVM carry this run's label on their command lines; on exit
# (normal, error or signal) the script stops each process that carries it, so none outlives the
# run even if the driver was killed. About 10 minutes for 1,10,50 on 2 cores; 50 lab JVMs need about 4 GB of RAM.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
label="fleet-bench-$$-$(date -u +%s)"

# The PIDs of this run's processes: those whose command line carries the label (never a broad
# name: other engineers' lab JVMs run on the same host).
run_pids() {
  local dir cmd
  for dir in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' <"$dir/cmdline" 2>/dev/null) || continue
    [[ "$cmd" == *"$label"* ]] && echo "${dir#/proc/}"
  done
  return 0
}

cleanup() {
  local pids
  pids=$(run_pids)
  [[ -z "$pids" ]] && return
  echo "fleet-scale: stopping $(wc -w <<<"$pids") leftover process(es) of this run" >&2
  # shellcheck disable=SC2086
  kill $pids 2>/dev/null || true
  sleep 3
  pids=$(run_pids)
  # shellcheck disable=SC2086
  [[ -n "$pids" ]] && kill -9 $pids 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# In the background and waited for, so a signal reaches the trap at once (bash defers traps while
# a foreground child runs). The daemon gets the label as a system property.
"$root/bench/run" --only fleet --name fleet-scale --fleet-label "$label" \
  --daemon-flag "-Djvm.sentinel.bench.run=$label" "$@" &
wait $!
