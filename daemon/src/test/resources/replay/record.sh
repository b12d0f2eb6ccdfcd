#!/usr/bin/env bash
# Records a replay fixture: runs a lab scenario as a target with remote JMX, watches it with the
# daemon for SECONDS with detection.recordDirectory set, then writes NAME.signals.jsonl.gz and
# NAME.onsets beside this script.
#   record.sh NAME SECONDS "JVM FLAGS" SCENARIO [LAB ARGS...]
# e.g. record.sh tls-30rps-jdk17 60 "" tls-listener-storm --rate 30 --delay 10s
# JAVA (default: java on PATH) runs the lab; DAEMON_JAVA (default: JAVA) runs the daemon, which
# needs JDK 17+; POLL_INTERVAL (default 2s) is the target's pollInterval; CALL_TIMEOUT (default 5s)
# the daemon's connection.callTimeout; JFR=false watches the target over JMX only (jfr.enabled).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../../.." && pwd)"
name=$1 seconds=$2 flags=$3 scenario=$4
shift 4
java=${JAVA:-java}
daemon_java=${DAEMON_JAVA:-$java}
poll=${POLL_INTERVAL:-2s}
call_timeout=${CALL_TIMEOUT:-5s}
jfr=${JFR:-true}
jar="$root/daemon/target/jvm-sentinel.jar"
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# shellcheck disable=SC2086
"$java" $flags -Dcom.sun.management.jmxremote.port="$port" -Dcom.sun.management.jmxremote.rmi.port="$port" \
  -Dcom.sun.management.jmxremote.host=127.0.0.1 -Djava.rmi.server.hostname=127.0.0.1 \
  -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
  -cp "$jar" io.jvmsentinel.lab.LabMain "$scenario" "$@" > "$work/lab.log" 2>&1 &
lab=$!
trap 'kill $lab $daemon 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "LAB ready" "$work/lab.log" && break; sleep 0.3; done
cat > "$work/sentinel.yaml" <<YAML
http:
  listen: 127.0.0.1:0
connection:
  callTimeout: $call_timeout
jfr:
  enabled: $jfr
detection:
  recordDirectory: $work/rec
  snapshots:
    directory: ""
targets:
  - name: lab
    jmx: 127.0.0.1:$port
    pollInterval: $poll
YAML
"$daemon_java" -jar "$jar" run --config "$work/sentinel.yaml" > "$work/daemon.log" 2>&1 &
daemon=$!
sleep "$seconds"
kill "$daemon" "$lab" 2>/dev/null || true
wait "$daemon" "$lab" 2>/dev/null || true
grep -o 'LAB onset .*' "$work/lab.log" > "$here/$name.onsets"
gzip -c "$work/rec/lab.signals.jsonl" > "$here/$name.signals.jsonl.gz"
grep -E "ALERT" "$work/daemon.log" | sed 's/^/  /' || true
echo "recorded $here/$name.signals.jsonl.gz ($(wc -l < "$work/rec/lab.signals.jsonl") samples); logs in $work"
