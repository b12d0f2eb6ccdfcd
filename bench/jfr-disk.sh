#!/usr/bin/env bash
# Measures the JFR disk use the daemon causes on both sides over a long run:
#   - the target's JFR repository (<tmp>/<date>_<pid>) and the size of the daemon's recording
#     (jvm_sentinel_jfr_target_recording_size_bytes),
#   - the daemon's local chunk directory (<tmp>/jvm-sentinel-jfr/<daemon pid>),
# first with the daemon attached, then after the daemon is killed with SIGKILL (the orphaned
# recording must stay bounded by jfr.maxAge / jfr.maxSizeMb).
# Usage: bench/jfr-disk.sh [attached-seconds] [orphaned-seconds] [thread-rate]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/daemon/target/jvm-sentinel.jar"
attached=${1:-300}
orphaned=${2:-300}
rate=${3:-2000}
jmx=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
http=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
tmp=$(mktemp -d)
out="$root/bench/results/jfr-disk-$(date -u +%Y%m%dT%H%M%SZ).txt"
java -Djava.io.tmpdir="$tmp" -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
  -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
  -Djava.rmi.server.hostname=127.0.0.1 -cp "$jar" io.jvmsentinel.lab.LabMain thread-per-request --rate "$rate" >/dev/null 2>&1 &
lab=$!
sleep 3
java -Djava.io.tmpdir="$tmp" -jar "$jar" run --target "127.0.0.1:$jmx" --listen "127.0.0.1:$http" >"$tmp/daemon.log" 2>&1 &
daemon=$!
trap 'kill -9 $lab $daemon 2>/dev/null || true; rm -rf "$tmp"' EXIT
kb() { du -sk "$@" 2>/dev/null | awk '{s+=$1} END {print s+0}' || true; }
sample() {
  local phase=$1 t=$2
  local repo local_dir recording
  repo=$(kb "$tmp"/20*_"$lab")
  local_dir=$(kb "$tmp"/jvm-sentinel-jfr)
  recording=$(curl -s -m 2 "http://127.0.0.1:$http/metrics" | awk '/^jvm_sentinel_jfr_target_recording_size_bytes/ {print int($2/1024)}' || true)
  printf '%-9s t=%4ds target_repository_kb=%-7s daemon_local_kb=%-7s recording_kb=%s\n' "$phase" "$t" "$repo" "$local_dir" "${recording:--}" | tee -a "$out"
}
echo "# JFR disk use: thread-per-request --rate $rate on $(java -version 2>&1 | head -1); jfr.maxAge 5m, jfr.maxSizeMb 32 (defaults)" | tee "$out"
for ((t = 0; t < attached; t += 30)); do sample attached "$t"; sleep 30; done
kill -9 "$daemon"
echo "# daemon killed with SIGKILL at t=${attached}s" | tee -a "$out"
for ((t = 0; t <= orphaned; t += 30)); do sample orphaned "$((attached + t))"; sleep 30; done
echo "# results in $out"
