#!/usr/bin/env bash
# JFR feeds (issue: the chunk feed's cost): what the daemon's JFR costs a target read in chunks over
# JMX (JDK 11, jfr.chunkPeriod 1/2/5 s) beside a remote stream (JDK 17), side by side in one run.
# Modes (MODES), interleaved in every round, order rotated per round:
#   11-none, 17-none        the lab alone
#   11-jmx, 17-jmx          the daemon with jfr.enabled: false (JMX polling only)
#   11-chunks-Ns            JDK 11 target, jfr.feed: chunks, jfr.chunkPeriod: Ns (default 1s 2s 5s)
#   17-stream               JDK 17 target, jfr.feed: stream (remote streaming)
#   17-chunks-2s            JDK 17 target, jfr.feed: chunks, 2 s: the two feeds on the same JVM
# Workloads (WORKLOADS, default "healthy storm"): healthy (steady CPU work), storm
# (thread-per-request --rate RATE, default 150), bench (bench --threads 1: CPU-bound, prints ops/s).
# Each run starts a fresh lab (pinned to CPU 0, -Xlog:safepoint to a file) and, except for none, a
# daemon (pinned to CPU 1, the container image's flags) once the lab is ready; the window opens
# START_AT s after the lab is ready (at least WARM s after the daemon's JFR started) and lasts
# MEASURE s. Figures per window (see bench/jfr-feeds/measure.py): target CPU s/min, the lab's
# ops/s (bench), JFR safepoints (JFRCheckpoint = a chunk rotation) per minute and their pauses,
# all safepoint pauses, event lag (mean over the window from jvm_sentinel_jfr_lag_seconds; and
# jvm_sentinel_jfr_lag_current_seconds sampled each second: /metrics is scraped once a second in
# every daemon mode), chunks per minute and their size from the target's repository, bytes the
# daemon received from the target's JMX port, daemon CPU and RSS.
# Compare modes within one run and read medians: the machine is shared.
# JAR picks the daemon (and lab) jar, for before/after runs.
# Usage: [JAR=jar] [MODES="..."] [WORKLOADS="..."] [MEASURE=s] [START_AT=s] [WARM=s] [RATE=n] [BENCH_OUT=dir]
#        [JDK11=java] [JDK17=java] [DAEMON_JAVA=java] [DAEMON_JAVA_OPTS="..."]
#        bench/jfr-feeds.sh [--quick] [rounds]
# A full run (3 rounds, 2 workloads, 9 modes) takes about 25 minutes; --quick is 1 round of the
# storm only, shorter windows (about 4 minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar=${JAR:-$root/daemon/target/jvm-sentinel.jar}
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
rounds=${1:-3}
measure=${MEASURE:-12}
start_at=${START_AT:-12}
warm=${WARM:-4}
rate=${RATE:-150}
workloads_default="healthy storm"
if [ "$quick" = 1 ]; then
  rounds=1; measure=${MEASURE:-8}; start_at=${START_AT:-10}; workloads_default="storm"
fi
read -r -a workloads <<<"${WORKLOADS:-$workloads_default}"
read -r -a modes <<<"${MODES:-11-none 11-jmx 11-chunks-1s 11-chunks-2s 11-chunks-5s 17-none 17-jmx 17-stream 17-chunks-2s}"
jdk11=${JDK11:-$root/.ci/jdks/jdk11/java-runtime/bin/java}
jdk17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
daemon_java=${DAEMON_JAVA:-$jdk17}
read -r -a daemon_opts <<<"${DAEMON_JAVA_OPTS:--XX:+UseSerialGC -XX:MaxRAMPercentage=60 -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -XX:MaxRAM=256m}"
[ -f "$jar" ] || { echo "build first: ./mvnw -q -B -pl lab,collectors,daemon -am -DskipTests package" >&2; exit 1; }
for j in "$jdk11" "$jdk17" "$daemon_java"; do [ -x "$j" ] || { echo "no java at $j" >&2; exit 1; }; done
tmp=$(mktemp -d)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
results="${BENCH_OUT:-$root/bench/results}"
name="jfr-feeds-$stamp$([ "$quick" = 1 ] && echo -quick || true)"
out="$results/$name.txt"
csv="$results/$name.csv"
pauses="$results/$name-pauses.csv"
mkdir -p "$results"
measure_py="$root/bench/jfr-feeds/measure.py"
pids=()
labs=()
cleanup() {
  for p in ${pids[@]+"${pids[@]}"}; do kill -9 "$p" 2>/dev/null || true; done
  # A lab killed with SIGKILL leaves its JFR repository behind.
  for p in ${labs[@]+"${labs[@]}"}; do rm -rf /tmp/2*_"$p"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
wait_for() { # file pattern seconds: 0 once the pattern is in the file
  local deadline=$((SECONDS + $3))
  until grep -qE "$2" "$1" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

run() {
  local workload=$1 mode=$2 round=$3
  local jdk=${mode%%-*} kind=${mode#*-} java dir lab daemon="" jmx http
  java=$jdk17; [ "$jdk" = 11 ] && java=$jdk11
  dir="$tmp/$workload-$mode-$round"; mkdir -p "$dir"
  jmx=$(port); http=$(port)
  local lab_args=(healthy)
  [ "$workload" = storm ] && lab_args=(thread-per-request --rate "$rate")
  [ "$workload" = bench ] && lab_args=(bench --threads 1)
  taskset -c 0 "$java" -Xlog:safepoint:file="$dir/safepoint.log":uptime \
    -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
    -Djava.rmi.server.hostname=127.0.0.1 -cp "$jar" io.jvmsentinel.lab.LabMain "${lab_args[@]}" \
    >"$dir/lab.log" 2>&1 &
  lab=$!; pids+=("$lab"); labs+=("$lab")
  wait_for "$dir/lab.log" "LAB ready" 60 || { echo "lab $mode did not start" >&2; tail "$dir/lab.log" >&2; exit 1; }
  local ready=$SECONDS attach_s=""
  if [ "$kind" != none ]; then
    local jfr="enabled: false"
    case $kind in
      stream) jfr="feed: stream" ;;
      chunks-*) jfr="feed: chunks\n  chunkPeriod: ${kind#chunks-}" ;;
    esac
    printf "http:\n  listen: 127.0.0.1:%s\ndetection:\n  snapshots:\n    directory: \"\"\njfr:\n  $jfr\ntargets:\n  - name: lab\n    jmx: 127.0.0.1:%s\n" \
      "$http" "$jmx" >"$dir/sentinel.yaml"
    taskset -c 1 "$daemon_java" "${daemon_opts[@]}" -jar "$jar" run --config "$dir/sentinel.yaml" >"$dir/daemon.log" 2>&1 &
    daemon=$!; pids+=("$daemon")
    local started="JFR (stream|chunk reads).* started"
    [ "$kind" = jmx ] && started="connected to"
    if wait_for "$dir/daemon.log" "$started" 60; then
      attach_s=$((SECONDS - ready))
    else
      echo "# $workload $mode round $round: the daemon did not start JFR within 60 s" | tee -a "$out"
      attach_s=-1
    fi
  fi
  local open=$((ready + start_at))
  [ -n "$attach_s" ] && [ "$attach_s" -ge 0 ] && [ $((ready + attach_s + warm)) -gt $open ] && open=$((ready + attach_s + warm))
  [ $SECONDS -lt $open ] && sleep $((open - SECONDS))
  local line
  line=$(taskset -c 1 python3 "$measure_py" window "$csv" "$pauses" "$measure" workload="$workload" mode="$mode" \
    round="$round" attach_s="$attach_s" lab_pid="$lab" lab_log="$dir/lab.log" safepoint_log="$dir/safepoint.log" \
    ${daemon:+daemon_pid=$daemon http_port=$http jmx_port=$jmx})
  printf '%-8s %-13s round=%d %s\n' "$workload" "$mode" "$round" "$line" | tee -a "$out"
  [ -n "$daemon" ] && grep -E "WARN|ERROR" "$dir/daemon.log" | grep -v "ALERT\|alert-delivery" | sed "s/^/# $mode daemon: /" | cut -c1-300 >>"$out" || true
  kill -9 "$lab" ${daemon:+"$daemon"} 2>/dev/null || true
  wait "$lab" ${daemon:+"$daemon"} 2>/dev/null || true
  rm -rf /tmp/2*_"$lab"
}

{
  echo "# JFR feeds: workloads ${workloads[*]} (storm: thread-per-request --rate $rate), $rounds rounds, window ${measure}s opening ${start_at}s after the lab is ready (>= ${warm}s after JFR started)"
  echo "# targets: $("$jdk11" -version 2>&1 | head -1) / $("$jdk17" -version 2>&1 | head -1); daemon: $("$daemon_java" -version 2>&1 | head -1) ${daemon_opts[*]}"
  echo "# $(nproc) CPUs, target on CPU 0, daemon on CPU 1; load at start $(cut -d' ' -f1-3 /proc/loadavg); $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
} | tee "$out"
for ((r = 1; r <= rounds; r++)); do
  for workload in "${workloads[@]}"; do
    for ((i = 0; i < ${#modes[@]}; i++)); do
      run "$workload" "${modes[$(((i + r) % ${#modes[@]}))]}" "$r"
    done
  done
done
echo "# load at end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
# Medians per workload and mode; ratios to the same JDK's lab alone (none) and JMX-only daemon
# (jmx); cpu_s_per_min_over_jmx is the median of the per-round differences to jmx (what JFR adds);
# kb_per_read_over_jmx the bytes a read brings beyond JMX polling; jfr_sp_ms_p50/p99/max pool the
# JFR safepoints of all rounds.
python3 "$measure_py" summary "$csv" "$pauses" | tee -a "$out"
echo "# results in $out, rounds in $csv, safepoint pauses in $pauses"
