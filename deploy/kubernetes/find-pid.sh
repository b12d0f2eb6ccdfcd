#!/bin/sh
# find-pid.sh: start jvm-sentinel against a JVM in another container of the same pod, by pid.
#
# Usage: find-pid.sh COMMAND [ARG...]
#
# Waits for exactly one process whose command line contains $JVM_SENTINEL_PID_MATCH (a plain
# substring, e.g. "-jar /app/orders.jar" or "io.jvmsentinel.lab.LabMain"), or reads the pid from
# $JVM_SENTINEL_PID_FILE (written by the app's own start script: `echo $$ > FILE; exec java ...`),
# then runs COMMAND with "{pid}" in its arguments replaced by that pid, e.g.
#
#   find-pid.sh java -jar /app/jvm-sentinel.jar run --pid {pid}
#
# Why a wrapper: with shareProcessNamespace the app is not PID 1 (the pause container is), and its
# pid changes whenever the app container restarts. The daemon keeps retrying the pid it was given,
# so this script watches the target and exits (code 3) when it is gone or replaced; the kubelet then
# restarts the sidecar, which finds the new pid. It also forwards SIGTERM/SIGINT to the daemon.
#
# Settings (environment):
#   JVM_SENTINEL_PID_MATCH    substring of the target's command line (one of this and _FILE)
#   JVM_SENTINEL_PID_FILE     file holding the target's pid
#   JVM_SENTINEL_PID_WAIT     seconds to wait for the target to appear (default 300)
#   JVM_SENTINEL_PID_POLL     seconds between checks that the target still runs (default 5)
#
# POSIX sh and /proc only: the runtime image has no procps (pgrep), and none is needed.
set -u

log() { echo "find-pid: $*" >&2; }

match="${JVM_SENTINEL_PID_MATCH:-}"
pid_file="${JVM_SENTINEL_PID_FILE:-}"
wait_s="${JVM_SENTINEL_PID_WAIT:-300}"
poll_s="${JVM_SENTINEL_PID_POLL:-5}"

if [ $# -eq 0 ]; then
  log "usage: find-pid.sh COMMAND [ARG...]   ({pid} in an ARG is replaced by the target's pid)"
  exit 2
fi
if [ -z "$match" ] && [ -z "$pid_file" ]; then
  log "set JVM_SENTINEL_PID_MATCH (a substring of the target's command line) or JVM_SENTINEL_PID_FILE"
  exit 2
fi

# Field 22 of /proc/PID/stat: the start time in clock ticks since boot. A pid plus its start time
# identifies one process even if the pid is reused later. The command name (field 2) may hold
# spaces and parentheses, so cut everything up to the last ") " first.
start_time() {
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  rest=${stat##*) }
  # shellcheck disable=SC2086 # split on purpose
  set -- $rest
  shift 19
  echo "$1"
}

# Prints the pids whose command line contains $match, one a line, skipping this shell.
matching_pids() {
  for dir in /proc/[0-9]*; do
    p=${dir#/proc/}
    [ "$p" = "$$" ] && continue
    # The braces make the shell's own "cannot open" (a process that just ended) quiet too.
    cmd=$({ tr '\0' ' ' <"$dir/cmdline"; } 2>/dev/null) || continue
    case "$cmd" in
      *"$match"*) echo "$p" ;;
    esac
  done
}

find_target() {
  if [ -n "$pid_file" ]; then
    [ -r "$pid_file" ] || return 1
    p=$(tr -dc '0-9' <"$pid_file")
    [ -n "$p" ] && [ -d "/proc/$p" ] || return 1
    echo "$p"
    return 0
  fi
  found=$(matching_pids)
  count=$(printf '%s' "$found" | grep -c .)
  if [ "$count" -gt 1 ]; then
    log "more than one process matches '$match':" $found "; make JVM_SENTINEL_PID_MATCH more specific"
    return 2
  fi
  [ "$count" -eq 1 ] || return 1
  echo "$found"
}

waited=0
while :; do
  target=$(find_target)
  rc=$?
  [ "$rc" -eq 0 ] && break
  [ "$rc" -eq 2 ] && exit 2
  if [ "$waited" -ge "$wait_s" ]; then
    log "no target after ${wait_s}s (JVM_SENTINEL_PID_MATCH='$match' JVM_SENTINEL_PID_FILE='$pid_file');" \
      "is shareProcessNamespace: true set on the pod?"
    exit 2
  fi
  sleep 1
  waited=$((waited + 1))
done
started=$(start_time "$target")
log "target pid $target"

# Replace "{pid}" in the arguments (also inside one, as in --pid={pid}), keeping every argument
# (spaces included) as it is otherwise.
n=$#
while [ "$n" -gt 0 ]; do
  arg=$1
  shift
  while :; do
    case "$arg" in
      *"{pid}"*) arg="${arg%%"{pid}"*}${target}${arg#*"{pid}"}" ;;
      *) break ;;
    esac
  done
  set -- "$@" "$arg"
  n=$((n - 1))
done

"$@" &
child=$!
stop() {
  kill -TERM "$child" 2>/dev/null
  wait "$child"
  exit $?
}
trap stop TERM INT

while kill -0 "$child" 2>/dev/null; do
  now=$(start_time "$target") || now=""
  if [ "$now" != "$started" ]; then
    log "target pid $target is gone (restarted?); stopping so the container restarts and finds the new pid"
    kill -TERM "$child" 2>/dev/null
    wait "$child"
    exit 3
  fi
  # sleep in the background so a SIGTERM is handled at once, not after the sleep
  sleep "$poll_s" &
  wait $!
done
wait "$child"
