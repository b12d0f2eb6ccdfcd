#!/usr/bin/env bash
# Which Linux capabilities the node agent's work needs (docs/security.md, "The node agent's
# capabilities"). Needs root, capsh and setpriv; runs no daemon: it does by hand what the daemon
# does to a JVM of another user, with the five capabilities the manifests keep, then with each
# one of them taken away:
#   - read the JVM's /proc/<pid>/root/tmp and /proc/<pid>/ns/net,
#   - attach to a JVM that never was attached to (SIGQUIT, then its socket: jcmd VM.version),
#   - create a file in its /tmp, give it to the JVM's user, rename it over one of the JVM's user
#     in a sticky /tmp that the JVM's user owns.
# Usage: sudo bench/node-agent-capabilities.sh   (prints a table; uid 65534 plays the app)
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
app_uid=65534
work=$(mktemp -d)
chmod 755 "$work"
trap 'for p in $(pgrep -u "$app_uid" -f "$work" || true); do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
cat >"$work/Sleep.java" <<'JAVA'
public class Sleep { public static void main(String[] a) throws Exception { Thread.sleep(600_000); } }
JAVA
javac -d "$work" "$work/Sleep.java"
chmod -R a+rX "$work"
install -d -o "$app_uid" -g "$app_uid" -m 700 "$work/home"
install -d -o "$app_uid" -g "$app_uid" -m 1777 "$work/apptmp"

all=$(capsh --print | sed -n 's/^Bounding set =//p' | tr ',' ' ')
keep=(cap_sys_ptrace cap_dac_override cap_kill cap_chown cap_fowner)

# The bounding set without everything but $1..: what a container with drop [ALL] and add [...] has.
drop_except() {
  local out="" c
  for c in $all; do
    case " $* " in *" $c "*) ;; *) out="$out,$c" ;; esac
  done
  echo "${out#,}"
}

fresh_jvm() {
  setpriv --reuid="$app_uid" --regid="$app_uid" --clear-groups \
    bash -c "cd '$work/home' && exec java -cp '$work' Sleep" >/dev/null 2>&1 &
  local pid=$!
  sleep 2
  echo "$pid"
}

probe() {
  local label=$1
  shift
  local pid
  pid=$(fresh_jvm)
  local result
  result=$(capsh --drop="$(drop_except "$@")" -- -c "
    r() { \"\$@\" >/dev/null 2>&1 && printf ok || printf DENIED; printf ' | '; }
    r ls /proc/$pid/root/tmp
    r readlink /proc/$pid/ns/net
    r timeout 20 jcmd $pid VM.version
    f=$work/apptmp/pw; rm -f \$f.new
    r sh -c 'umask 077; : > \$0 && chown $app_uid:$app_uid \$0' \$f.new
    r mv -f \$f.new \$f
  ")
  kill "$pid" 2>/dev/null || true
  echo "| $label | $result"
}

echo "| capabilities | /proc/<pid>/root | ns/net | attach (fresh JVM) | create + chown | rename in the app's sticky /tmp |"
echo "|---|---|---|---|---|---|"
probe "the five" "${keep[@]}"
for c in "${keep[@]}"; do
  rest=()
  for k in "${keep[@]}"; do [ "$k" = "$c" ] || rest+=("$k"); done
  probe "without $c" "${rest[@]}"
done
