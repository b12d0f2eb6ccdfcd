#!/usr/bin/env bash
# Event capacity (issue 7): how many JFR events per second the daemon's stream thread can parse and
# handle, without the network. Records a thread storm from the lab (jdk.ThreadStart with stack
# traces and jdk.ThreadEnd, the heaviest events the daemon takes), then replays the file through
# jvm-sentinel's handlers the way a remote stream parses it (ordered), in three modes per pass:
# parse only, full handling, and the shed path (counting only). Each events/s figure is an upper
# bound for a live stream, which also downloads chunks.
# Usage: [BENCH_OUT=dir] bench/event-capacity.sh [record-seconds] [passes] [thread-rate]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/daemon/target/jvm-sentinel.jar"
seconds=${1:-20}
passes=${2:-5}
rate=${3:-10000}
[ -f "$jar" ] || { echo "build first: ./mvnw -q -DskipTests package" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results="${BENCH_OUT:-$root/bench/results}"
out="$results/event-capacity-$(date -u +%Y%m%dT%H%M%SZ).txt"
mkdir -p "$results"
java "-XX:StartFlightRecording=settings=$root/bench/storm-cost/threads.jfc,filename=$tmp/storm.jfr,duration=${seconds}s" \
  -cp "$jar" io.jvmsentinel.lab.LabMain thread-per-request --rate "$rate" --duration "$((seconds + 2))s" >/dev/null 2>&1
echo "# event capacity: $(du -h "$tmp/storm.jfr" | cut -f1) recording of thread-per-request --rate $rate for ${seconds}s; $(java -version 2>&1 | head -1); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out"
java -cp "$jar" "$root/bench/storm-cost/ReplayCapacity.java" "$tmp/storm.jfr" "$passes" | tee -a "$out"
awk '/^pass=/ { split($2,m,"="); split($5,e,"="); v[m[2],++n[m[2]]]=e[2]; modes[m[2]]=1 }
  END { for (k in modes) { c=n[k]; for (i=1;i<=c;i++) a[i]=v[k,i];
          for (i=1;i<=c;i++) for (j=i+1;j<=c;j++) if (a[j]+0<a[i]+0) {t=a[i];a[i]=a[j];a[j]=t}
          printf "median %-5s events_per_s=%.0f\n", k, (c%2 ? a[(c+1)/2] : (a[c/2]+a[c/2+1])/2) } }' "$out" | sort | tee -a "$out"
echo "# results in $out"
