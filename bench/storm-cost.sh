#!/usr/bin/env bash
# Storm cost (issue 7): what watching a thread storm costs the target, side by side in one run.
# Modes, interleaved in every round (order rotated per round); MODES (default
# "none stacks sampled default") picks them:
#   none       the lab alone
#   stacks     the daemon with jdk.ThreadStart stack traces on every start and no storm pause (the
#              first design; jfr.stackSamplingAboveRate: 0, jfr.stormPauseAboveRate: 0)
#   sampled    stacks only in 1 s windows every 10 s while the start rate is above 200/s, the rate
#              from counting every start; no storm pause (jfr.stormPauseAboveRate: 0)
#   default    the daemon with default settings: as sampled, and above 2,000 starts/s the JFR
#              stream closes once it has captured 15 s of the storm (measure after WARM >= 20 s to
#              see a long storm's steady state)
#   jmx-only   the daemon with jfr.enabled: false (what its JMX polling costs)
#   jfr-floor  no daemon; the lab runs a local JFR recording with no event enabled (what a running
#              recording costs a storm before any event is written)
# Each run starts a fresh lab (thread-per-request --rate RATE, storm after 10 s) and, except for
# none, a daemon attached before the storm; after WARM seconds of storm it measures the target's
# thread starts/s (TotalStartedThreadCount) and CPU over MEASURE seconds, plus the daemon's CPU,
# RSS, JFR lag and events dropped. Target pinned to CPU 0, daemon to CPU 1 (the machine is shared:
# compare modes within one run, read medians).
# The daemon runs on DAEMON_JAVA (default: java on the PATH) with the container image's flags
# (DAEMON_JAVA_OPTS; deploy/Dockerfile, heap capped as in a 256Mi sidecar).
# WARM (default 5) is the seconds of storm before the measurement starts; POLL_INTERVAL (default
# 10s, the daemon's default) the target's JMX poll interval.
# Usage: [MODES="..."] [WARM=s] [BENCH_OUT=dir] bench/storm-cost.sh [rounds] [rate] [measure-seconds]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/daemon/target/jvm-sentinel.jar"
rounds=${1:-5}
rate=${2:-10000}
measure=${3:-20}
warm=${WARM:-5}
daemon_java=${DAEMON_JAVA:-java}
read -r -a daemon_opts <<<"${DAEMON_JAVA_OPTS:--XX:+UseSerialGC -XX:MaxRAMPercentage=60 -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -XX:MaxRAM=256m}"
[ -f "$jar" ] || { echo "build first: ./mvnw -q -DskipTests package" >&2; exit 1; }
tmp=$(mktemp -d)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results="${BENCH_OUT:-$root/bench/results}"
out="$results/storm-cost-$stamp.txt"
mkdir -p "$results"
read -r -a modes <<<"${MODES:-none stacks sampled default}"
javac -d "$tmp/cls" "$root/bench/storm-cost/JmxRead.java"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
metric() { { curl -s -m 10 "http://127.0.0.1:$1/metrics" || true; } | awk -v m="$2" '$1 ~ "^"m {s+=$2} END {printf "%.1f", s+0}'; }

run() {
  local mode=$1 round=$2 jmx http lab daemon=""
  jmx=$(port); http=$(port)
  local jfr=()
  [ "$mode" = jfr-floor ] && jfr=("-XX:StartFlightRecording=settings=$root/bench/storm-cost/empty.jfc,disk=false")
  taskset -c 0 java ${jfr[@]+"${jfr[@]}"} -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
    -Djava.rmi.server.hostname=127.0.0.1 -cp "$jar" io.jvmsentinel.lab.LabMain thread-per-request \
    --rate "$rate" --delay 10s >"$tmp/lab.log" 2>&1 &
  lab=$!; pids+=("$lab")
  sleep 2
  if [ "$mode" != none ] && [ "$mode" != jfr-floor ]; then
    local jfr_settings="enabled: true"
    [ "$mode" = stacks ] && jfr_settings="stackSamplingAboveRate: 0\n  stormPauseAboveRate: 0"
    [ "$mode" = sampled ] && jfr_settings="stormPauseAboveRate: 0"
    [ "$mode" = jmx-only ] && jfr_settings="enabled: false"
    printf "http:\n  listen: 127.0.0.1:%s\njfr:\n  $jfr_settings\ntargets:\n  - name: lab\n    jmx: 127.0.0.1:%s\n    pollInterval: %s\n" \
      "$http" "$jmx" "${POLL_INTERVAL:-10s}" >"$tmp/sentinel.yaml"
    taskset -c 1 "$daemon_java" "${daemon_opts[@]}" -jar "$jar" run --config "$tmp/sentinel.yaml" >"$tmp/daemon-$mode-$round.log" 2>&1 &
    daemon=$!; pids+=("$daemon")
  fi
  # The storm begins 10 s after the lab started; let it settle for $warm s.
  sleep $((8 + warm))
  coproc reader { taskset -c 1 java -cp "$tmp/cls" JmxRead "127.0.0.1:$jmx"; }
  local s1 s2 d1=0 d2=0
  echo >&"${reader[1]}"; read -r -u "${reader[0]}" s1
  [ -n "$daemon" ] && d1=$(cpu_ticks "$daemon")
  sleep "$measure"
  echo >&"${reader[1]}"; read -r -u "${reader[0]}" s2
  [ -n "$daemon" ] && d2=$(cpu_ticks "$daemon")
  local reader_pid=$reader_PID
  exec {reader[1]}>&-
  wait "$reader_pid" 2>/dev/null || true
  local starts cpu drop lag samp paused rss="-"
  starts=$(awk -v a="$s1" -v b="$s2" -v m="$measure" 'BEGIN {split(a,x," "); split(b,y," "); printf "%.0f", (y[1]-x[1])/m}')
  cpu=$(awk -v a="$s1" -v b="$s2" -v m="$measure" 'BEGIN {split(a,x," "); split(b,y," "); printf "%.2f", (y[2]-x[2])/1e9/m}')
  drop="-"; lag="-"; samp="-"; paused="-"; local dcpu="-"
  if [ -n "$daemon" ]; then
    dcpu=$(awk -v a="$d1" -v b="$d2" -v m="$measure" 'BEGIN {printf "%.2f", (b-a)/100/m}')
    drop=$(metric "$http" 'jvm_sentinel_jfr_events_dropped_total')
    lag=$(metric "$http" 'jvm_sentinel_jfr_lag_current_seconds')
    samp=$(metric "$http" 'jvm_sentinel_jfr_stack_sampling')
    paused=$(metric "$http" 'jvm_sentinel_jfr_storm_paused')
    rss=$(( $(rss_kb "$daemon") / 1024 ))
  fi
  local per_k
  per_k=$(awk -v c="$cpu" -v s="$starts" 'BEGIN {printf "%.1f", (s > 0 ? c * 1e6 / s : 0)}')
  printf '%-9s round=%d starts_per_s=%-6s target_cpu_cores=%-5s cpu_ms_per_1k_starts=%-6s daemon_cpu_cores=%-5s daemon_rss_mb=%-4s lag_s=%-5s dropped=%-8s stack_sampling=%-3s storm_paused=%s\n' \
    "$mode" "$round" "$starts" "$cpu" "$per_k" "$dcpu" "$rss" "$lag" "$drop" "$samp" "$paused" | tee -a "$out"
  kill -9 "$lab" ${daemon:+"$daemon"} 2>/dev/null || true
  wait "$lab" ${daemon:+"$daemon"} 2>/dev/null || true
}

echo "# storm cost: thread-per-request --rate $rate, $rounds rounds, ${measure}s measured after ${warm}s of storm; $(java -version 2>&1 | head -1); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out"
for ((r = 1; r <= rounds; r++)); do
  for ((i = 0; i < ${#modes[@]}; i++)); do
    run "${modes[$(((i + r) % ${#modes[@]}))]}" "$r"
  done
done
# Medians per mode; ratios to no monitor of the target's throughput and of its CPU per thread
# start (the storm is rate-limited: a target that keeps up pays in CPU, one that cannot in starts).
awk '
  { mode=$1; for (i=2;i<=NF;i++) { split($i,kv,"="); v[mode,kv[1],++n[mode,kv[1]]]=kv[2] } modes[mode]=1 }
  function median(mode,key,   k,a,c,j,t) { c=n[mode,key]; for (k=1;k<=c;k++) a[k]=v[mode,key,k];
    for (k=1;k<=c;k++) for (j=k+1;j<=c;j++) if (a[j]+0<a[k]+0) {t=a[k];a[k]=a[j];a[j]=t}
    return c%2 ? a[(c+1)/2] : (a[c/2]+a[c/2+1])/2 }
  END {
    base=median("none","starts_per_s"); base_cpu=median("none","cpu_ms_per_1k_starts")
    for (m in modes) printf "median %-9s starts_per_s=%.0f ratio_to_none=%.3f target_cpu_cores=%.2f cpu_ms_per_1k_starts=%.1f cpu_per_start_ratio=%.3f daemon_cpu_cores=%s daemon_rss_mb=%s dropped=%s\n",
      m, median(m,"starts_per_s"), median(m,"starts_per_s")/base, median(m,"target_cpu_cores"),
      median(m,"cpu_ms_per_1k_starts"), median(m,"cpu_ms_per_1k_starts")/base_cpu,
      (n[m,"daemon_cpu_cores"] && v[m,"daemon_cpu_cores",1]!="-" ? median(m,"daemon_cpu_cores") : "-"),
      (n[m,"daemon_rss_mb"] && v[m,"daemon_rss_mb",1]!="-" ? median(m,"daemon_rss_mb") : "-"),
      (n[m,"dropped"] && v[m,"dropped",1]!="-" ? median(m,"dropped") : "-")
  }' <(grep -v '^#' "$out") | sort | tee -a "$out"
echo "# results in $out"
