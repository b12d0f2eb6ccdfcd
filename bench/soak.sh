#!/usr/bin/env bash
# Soak: an hour of faults compressed into a repeatable run, outside CI. One daemon (the packaged
# jar, alert state file on) watches one lab target that is killed and restarted every CYCLE
# seconds, alternating a quiet phase and a thread storm (ThreadStorm fires and resolves). Once in
# the run the target hangs (SIGSTOP) for HANG seconds (at half time); once, at a fifth, the webhook
# receiver goes down for OUTAGE seconds and comes back (queued alerts must arrive, in order). Every SAMPLE seconds the
# daemon's heap (jstat, after-GC old gen and total used), resident set size, threads, descriptors, TCP connections,
# JFR chunk directory size and /metrics latency go to bench/results/soak-<ts>.csv; a summary
# compares the first and the last quarter.
# Usage: bench/soak.sh [minutes=60] [cycle-seconds=60] [sample-seconds=10]
# SOAK_STORM and SOAK_QUIET replace the two lab scenarios (with their arguments), e.g.
# SOAK_STORM=mixed SOAK_QUIET=healthy bench/soak.sh 60 240: every incident of the demo in turn.
# Needs the jar: ./mvnw -q -pl daemon -am package -DskipTests
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar=${JAR:-"$root/daemon/target/jvm-sentinel.jar"}
minutes=${1:-60}
cycle=${2:-60}
every=${3:-10}
hang=${HANG:-60}
outage=${OUTAGE:-120}
# The daemon runs on the JDK the image ships (25); the lab target on the same.
java_home=${SOAK_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$java_home/bin/java"
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
jmx=$(free_port)
http=$(free_port)
hook=$(free_port)
tmp=$(mktemp -d)
ts=$(date -u +%Y%m%dT%H%M%SZ)
csv="$root/bench/results/soak-$ts.csv"
summary="$root/bench/results/soak-$ts.md"
mkdir -p "$tmp/state" "$tmp/daemon-tmp"

cat >"$tmp/sentinel.yaml" <<EOF
http:
  listen: 127.0.0.1:$http
connection:
  connectTimeout: 2s
  callTimeout: 2s
  reconnectInitialDelay: 300ms
  reconnectMaxDelay: 2s
alerts:
  queueSize: 100
  retryInitialDelay: 1s
  retryMaxDelay: 10s
  stateFile: $tmp/state/alerts.json
  sinks:
    webhook:
      url: http://127.0.0.1:$hook/hook
detection:
  rules:
    # Storms recur every other cycle here; with the default factor (5) the target's own baseline
    # soon makes them "normal" and they stop firing. 1: every storm pages and resolves.
    ThreadStorm: {baselineFactor: 1}
targets:
  - name: app
    jmx: 127.0.0.1:$jmx
    pollInterval: 2s
EOF

# The webhook receiver: appends each notification's status, rule and dedup key to a file.
receiver() {
  python3 - "$hook" "$tmp/received.txt" >/dev/null 2>&1 <<'PY' &
import http.server, json, sys
port, out = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers['Content-Length'])))
        with open(out, 'a') as f:
            f.write('%s %s %s %s\n' % (body.get('at'), body.get('status'), body.get('rule'), body.get('dedupKey')))
        self.send_response(204); self.end_headers()
    def log_message(self, *a): pass
http.server.HTTPServer(('127.0.0.1', port), H).serve_forever()
PY
  echo $!
}

read -r -a storm_lab <<<"${SOAK_STORM:-thread-per-request --rate 300}"
read -r -a quiet_lab <<<"${SOAK_QUIET:-thread-per-request --rate 10}"
lab=""
start_lab() { # scenario and arguments
  "$java" -Xmx64m -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
    -Dcom.sun.management.jmxremote.host=127.0.0.1 -Djava.rmi.server.hostname=127.0.0.1 \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
    -cp "$jar" io.jvmsentinel.lab.LabMain "$@" >>"$tmp/lab.log" 2>&1 &
  lab=$!
}

touch "$tmp/received.txt" "$tmp/events.txt"
receiver_pid=$(receiver)
start_lab "${quiet_lab[@]}"
JAVA_TOOL_OPTIONS="-Djava.io.tmpdir=$tmp/daemon-tmp" "$java" -Xmx128m -jar "$jar" run --config "$tmp/sentinel.yaml" >"$tmp/daemon.log" 2>&1 &
daemon=$!
trap 'kill -CONT $lab 2>/dev/null; kill -9 $lab $daemon $receiver_pid 2>/dev/null || true; cp "$tmp/daemon.log" "$root/bench/results/soak-$ts-daemon.log" 2>/dev/null; rm -rf "$tmp"' EXIT

heap_kb() { # old gen used and total used, KB, from jstat -gc
  "$java_home/bin/jstat" -gc "$daemon" 2>/dev/null | awk 'NR==2 {printf "%d,%d", $8, $3+$4+$6+$8}' || echo "-,-"
}
rss_kb() { # resident set size of the whole daemon process, KB
  awk '/^VmRSS:/ {print $2}' /proc/"$daemon"/status 2>/dev/null || echo 0
}
tcp_count() {
  local inodes
  inodes=$(ls -l /proc/"$daemon"/fd 2>/dev/null | grep -o 'socket:\[[0-9]*\]' | tr -dc '0-9\n' | sort -u)
  awk -v list="$inodes" 'BEGIN {n = split(list, a, "\n"); for (i = 1; i <= n; i++) s[a[i]] = 1}
    FNR > 1 && $4 != "0A" && $4 != "06" && ($10 in s) {c++} END {print c + 0}' /proc/"$daemon"/net/tcp /proc/"$daemon"/net/tcp6
}
sample() {
  local t=$1 phase=$2 latency up
  # curl prints the time even when it fails: then the sample says timeout alone.
  latency=$(curl -s -o /dev/null -m 5 -w '%{time_total}' "http://127.0.0.1:$http/metrics") || latency=timeout
  up=$(curl -s -m 5 "http://127.0.0.1:$http/metrics" | awk '/^jvm_sentinel_target_up/ {print $2}' || true)
  printf '%d,%s,%s,%d,%d,%d,%d,%d,%s,%s,%d\n' "$t" "$phase" "$(heap_kb)" "$(rss_kb)" \
    "$(ls /proc/"$daemon"/task | wc -l)" "$(ls /proc/"$daemon"/fd | wc -l)" "$(tcp_count)" \
    "$(du -sk "$tmp/daemon-tmp" | awk '{print $1}')" "$latency" "${up:--}" \
    "$(wc -l <"$tmp/received.txt" 2>/dev/null || echo 0)" >>"$csv"
}

echo "t_s,phase,old_gen_kb,heap_used_kb,rss_kb,threads,fds,tcp,tmp_kb,scrape_s,target_up,notifications" >"$csv"
total=$((minutes * 60))
hang_at=$((total / 2))
outage_at=$((total / 5))
sink_down=0
hung=0
start=$(date +%s)
next_restart=$cycle
next_sample=0
n=0
phase=quiet
while :; do
  t=$(($(date +%s) - start))
  ((t >= total)) && break
  if ((t >= next_sample)); then
    sample "$t" "$phase"
    next_sample=$((next_sample + every))
  fi
  if ((hung == 0 && t >= hang_at)); then
    kill -STOP "$lab"; hung=1; phase=hung; echo "t=$t SIGSTOP target for ${hang}s" >>"$tmp/events.txt"
  elif ((hung == 1 && t >= hang_at + hang)); then
    kill -CONT "$lab"; hung=2; phase=quiet; echo "t=$t SIGCONT" >>"$tmp/events.txt"
    next_restart=$((t + cycle))
  fi
  if ((sink_down == 0 && t >= outage_at)); then
    kill "$receiver_pid"; sink_down=1; echo "t=$t webhook receiver down for ${outage}s" >>"$tmp/events.txt"
  elif ((sink_down == 1 && t >= outage_at + outage)); then
    receiver_pid=$(receiver); sink_down=2; echo "t=$t webhook receiver up" >>"$tmp/events.txt"
  fi
  if ((hung != 1 && t >= next_restart)); then
    kill -9 "$lab" 2>/dev/null || true
    wait "$lab" 2>/dev/null || true
    n=$((n + 1))
    # Alternate: a thread storm (ThreadStorm fires, then resolves in the quiet phase that follows).
    if ((n % 2 == 1)); then phase=storm; start_lab "${storm_lab[@]}"; else phase=quiet; start_lab "${quiet_lab[@]}"; fi
    echo "t=$t restart $n ($phase)" >>"$tmp/events.txt"
    next_restart=$((t + cycle))
  fi
  sleep 1
done
sample "$total" end

received_firing=$(grep -c ' firing ' "$tmp/received.txt" || true)
received_resolved=$(grep -c ' resolved ' "$tmp/received.txt" || true)
python3 - "$csv" "$summary" "$minutes" "$cycle" "$n" "$received_firing" "$received_resolved" "$tmp/events.txt" "$tmp/received.txt" "$tmp/daemon.log" "${storm_lab[*]}" "${quiet_lab[*]}" <<'PY'
import csv, sys
path, out, minutes, cycle, restarts, fired, resolved, events, received, log, storm, quiet = sys.argv[1:]
rows = [r for r in csv.DictReader(open(path)) if r['phase'] != 'end' or True]
def num(r, k):
    try: return float(r[k])
    except ValueError: return None
q = max(1, len(rows) // 4)
first, last = rows[:q], rows[-q:]
def stat(k, part):
    v = [num(r, k) for r in part if num(r, k) is not None]
    return (min(v), max(v), sum(v) / len(v)) if v else (None, None, None)
lines = [f"# Soak {path.split('/')[-1]}", "",
         f"{minutes} min, target killed and restarted every {cycle} s ({restarts} restarts, storm and quiet alternating: {storm} / {quiet}),",
         "one SIGSTOP hang and one webhook outage; sampled every few seconds.", "",
         "| measure | first quarter min / max / mean | last quarter min / max / mean |", "|---|---|---|"]
for k in ['old_gen_kb', 'heap_used_kb', 'rss_kb', 'threads', 'fds', 'tcp', 'tmp_kb', 'scrape_s']:
    a, b = stat(k, first), stat(k, last)
    fmt = lambda s: ' / '.join('-' if x is None else (f'{x:.3f}' if k == 'scrape_s' else f'{x:.0f}') for x in s)
    lines.append(f"| {k} | {fmt(a)} | {fmt(b)} |")
lat = [num(r, 'scrape_s') for r in rows if num(r, 'scrape_s') is not None]
lines += ["", f"slowest /metrics: {max(lat):.3f} s over {len(lat)} samples" if lat else "no scrape samples",
          f"notifications received by the webhook: {fired} firing, {resolved} resolved", "",
          "## Events", "", "```", open(events).read().strip(), "```", "",
          "## Notifications received (at, status, rule, dedup key)", "", "```", open(received).read().strip(), "```"]
errors = [l.strip() for l in open(log) if ' ERROR ' in l or 'Exception in thread' in l]
lines += ["", f"daemon log: {len(errors)} ERROR lines" + (":" if errors else "")] + [f"    {e}" for e in errors[:20]]
open(out, 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
echo "# results in $csv and $summary"
