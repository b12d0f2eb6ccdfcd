#!/bin/bash
# Docker HEALTHCHECK for the jvm-sentinel image: GET /health on the daemon's own port, with no
# curl or wget (the runtime image has neither) and no second JVM (too slow and too big for a check
# that runs every 30 s): bash's /dev/tcp does the TCP part. Exit 0 on "HTTP/1.x 200", else 1.
#
# Kubernetes ignores HEALTHCHECK; there the liveness and readiness probes are the real checks.
listen="${JVM_SENTINEL_LISTEN:-0.0.0.0:9404}"
port="${listen##*:}"
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'GET /health HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
IFS= read -r -t 5 status <&3 || exit 1
case "$status" in
  "HTTP/1."[01]" 200"*) exit 0 ;;
  *) exit 1 ;;
esac
