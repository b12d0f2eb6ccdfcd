#!/usr/bin/env bash
# Slow clients against the daemon's endpoint (issue 18): CLIENTS connections that each send one byte
# a second and never finish their request, half of them one-shot (hold until the server cuts them),
# half reconnecting as soon as they are cut, each from its own loopback address (127.0.1.x, a
# client of its own for the per-client limit). Meanwhile GET /health and /ready every 0.5 s from
# 127.0.0.1 (latency, 5 s timeout) and the daemon's RSS, threads and descriptors every 10 s.
# One daemon with the container image's JVM flags watching one lab target.
# Writes bench/results/slow-clients-<ts>-<plain|tls>.csv (probes), -rss.csv and .md (summary).
# Usage: bench/slow-clients.sh [minutes=10] [plain|tls]
# Env: CLIENTS (50), JAR (daemon/target/jvm-sentinel.jar), DAEMON_JAVA_OPTS (the image's flags and
#      -Xmx150m: what MaxRAMPercentage=60 gives under the sidecar's 256 MiB limit), LABEL.
# Needs the jar: ./mvnw -q -pl daemon -am package -DskipTests
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar=${JAR:-"$root/daemon/target/jvm-sentinel.jar"}
minutes=${1:-10}
mode=${2:-plain}
clients=${CLIENTS:-50}
opts=${DAEMON_JAVA_OPTS:-"-XX:+UseSerialGC -Xmx150m -XX:TieredStopAtLevel=1"}
label=${LABEL:-}
java17=${JAVA17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java="$java17/bin/java"
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
jmx=$(free_port)
http=$(free_port)
tmp=$(mktemp -d)
ts=$(date -u +%Y%m%dT%H%M%SZ)
out="$root/bench/results/slow-clients-$ts-$mode${label:+-$label}"
scheme=http
tls_yaml=""
if [[ $mode == tls ]]; then
  scheme=https
  "$java17/bin/keytool" -genkeypair -keystore "$tmp/http.p12" -storetype PKCS12 -storepass bench-pw \
    -alias http -keyalg EC -dname CN=localhost -ext SAN=dns:localhost,ip:127.0.0.1 -validity 2 >/dev/null 2>&1
  echo bench-pw >"$tmp/http.pw"
  tls_yaml="  tls: {keyStore: $tmp/http.p12, keyStorePasswordFile: $tmp/http.pw}"
fi
cat >"$tmp/sentinel.yaml" <<YAML
http:
  listen: 0.0.0.0:$http
$tls_yaml
targets:
  - name: app
    jmx: 127.0.0.1:$jmx
YAML

"$java" -Xmx64m -Dcom.sun.management.jmxremote.port="$jmx" -Dcom.sun.management.jmxremote.rmi.port="$jmx" \
  -Dcom.sun.management.jmxremote.host=127.0.0.1 -Djava.rmi.server.hostname=127.0.0.1 \
  -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false \
  -cp "$jar" io.jvmsentinel.lab.LabMain thread-per-request --rate 10 >"$tmp/lab.log" 2>&1 &
lab=$!
# shellcheck disable=SC2086
JAVA_TOOL_OPTIONS="-Djava.io.tmpdir=$tmp" "$java" $opts -jar "$jar" run --config "$tmp/sentinel.yaml" >"$tmp/daemon.log" 2>&1 &
daemon=$!
trap 'kill $lab $daemon $driver 2>/dev/null || true; wait 2>/dev/null; rm -rf "$tmp"' EXIT
driver=""
for _ in $(seq 100); do
  curl -sk -m 1 -o /dev/null "$scheme://127.0.0.1:$http/health" && break
  sleep 0.3
done

rss() { awk '/VmRSS/ {print $2}' /proc/"$daemon"/status; }
echo "t_s,rss_kb,threads,fds" >"$out-rss.csv"
python3 - "$mode" "$http" "$clients" "$((minutes * 60))" "$out.csv" <<'PY' &
import socket, ssl, sys, threading, time
mode, port, clients, seconds, csv = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
end = time.time() + seconds
cuts = [0] * clients
def connect(source):
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    if mode == "tls":
        s = ctx.wrap_socket(s, server_hostname="localhost")  # the handshake completes, then a trickle
    return s
def slow(i, reconnect):
    source = "127.0.1.%d" % (i + 1)
    request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100000
    while time.time() < end:
        try:
            s = connect(source)
            for b in request:
                if time.time() >= end: return
                s.send(bytes([b])); time.sleep(1)
        except OSError:
            cuts[i] += 1
        if not reconnect:
            return
        time.sleep(0.05)
for i in range(clients):
    threading.Thread(target=slow, args=(i, i % 2 == 1), daemon=True).start()
with open(csv, "w") as f:
    f.write("t_s,path,status,latency_ms\n")
    start = time.time()
    while time.time() < end:
        for path in ("/health", "/ready"):
            t0 = time.time(); status = "timeout"
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                if mode == "tls": s = ctx.wrap_socket(s, server_hostname="localhost")
                s.settimeout(5)
                s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
                status = s.recv(12).decode(errors="replace")[9:12]; s.close()
            except OSError as e:
                status = type(e).__name__
            f.write("%.1f,%s,%s,%.1f\n" % (t0 - start, path, status, (time.time() - t0) * 1000)); f.flush()
        time.sleep(0.5)
print("slow connections cut by the server:", sum(cuts))
PY
driver=$!
start=$(date +%s)
while kill -0 "$driver" 2>/dev/null; do
  printf '%d,%s,%d,%d\n' "$(($(date +%s) - start))" "$(rss)" "$(ls /proc/"$daemon"/task | wc -l)" \
    "$(ls /proc/"$daemon"/fd | wc -l)" >>"$out-rss.csv"
  sleep 10
done
wait "$driver" || true

python3 - "$out" "$mode" "$clients" "$minutes" "$opts" <<'PY' >"$out.md"
import csv, statistics, sys
out, mode, clients, minutes, opts = sys.argv[1:]
rows = list(csv.DictReader(open(out + ".csv")))
rss = list(csv.DictReader(open(out + "-rss.csv")))
print("# slow clients: %s, %s clients (half reconnecting), %s min, daemon %s\n" % (mode, clients, minutes, opts))
print("| probe | n | median ms | p99 ms | max ms | over 100 ms | not 200/503 |")
print("|---|---|---|---|---|---|---|")
for path in ("/health", "/ready"):
    r = [x for x in rows if x["path"] == path]
    ms = sorted(float(x["latency_ms"]) for x in r)
    bad = sum(1 for x in r if x["status"] not in ("200", "503"))
    print("| %s | %d | %.1f | %.1f | %.1f | %d | %d |" % (path, len(ms), statistics.median(ms),
          ms[min(len(ms) - 1, int(len(ms) * 0.99))], ms[-1], sum(1 for m in ms if m > 100), bad))
kb = [int(x["rss_kb"]) for x in rss]
q = max(1, len(kb) // 4)
print("\nRSS MB: start %.0f, max %.0f, end %.0f; median of the first quarter %.0f, of the last quarter %.0f; threads %s..%s"
      % (kb[0] / 1024, max(kb) / 1024, kb[-1] / 1024, statistics.median(kb[:q]) / 1024,
         statistics.median(kb[-q:]) / 1024, min(int(x["threads"]) for x in rss), max(int(x["threads"]) for x in rss)))
PY
cat "$out.md"
