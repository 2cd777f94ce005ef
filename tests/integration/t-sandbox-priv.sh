#!/bin/bash
# Privileged mode (a root sbxd serving the test user): a long-lived
# sandbox is its creator's. The served user creates one and runs in it as
# itself (the host sees its processes owned by the user); root, the
# daemon's other permitted peer, may not run in it nor destroy it.
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
mkdir -p "$H"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
ctl() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
id=$(ctl sandbox create)
case $id in ''|*[!0-9]*) fail "create printed an id: '$id'"; done_test ;; esac
ctl sandbox exec "$id" -- sh -c 'sleep 1000 >/dev/null 2>&1 & echo $! >/tmp/pid'
expect_eq "the user's exec exits 0" "$?" 0
started() {
	ctl --json sandbox ls | "$PY" -c '
import json, sys
sys.exit(0 if any(b["id"] == int(sys.argv[1]) and b["pid"] > 0
                  for b in json.load(sys.stdin)) else 1)' "$id"
}
wait_for "the sandbox to start" started
init=$(ctl --json sandbox ls | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["pid"])')
bg=
for p in $(ns_pids "$init"); do
	[ "$(cat /proc/$p/comm 2>/dev/null)" = sleep ] && bg=$p
done
expect_eq "its background process is the user's (host view)" \
	"$(stat -c %U "/proc/$bg" 2>/dev/null)" "$user"
if "$BIN/sbxctl" --no-autostart --socket "$SOCK" sandbox exec "$id" -- true \
	2>"$T/err"; then
	fail "root's exec into the user's sandbox refused"
else
	check "root's exec into the user's sandbox refused (PERMISSION)" \
		grep -q "another user" "$T/err"
fi
if "$BIN/sbxctl" --no-autostart --socket "$SOCK" sandbox rm "$id" \
	2>"$T/err"; then
	fail "root's rm of the user's sandbox refused"
else
	ok "root's rm of the user's sandbox refused"
fi
check "the sandbox still runs" kill -0 "$init"
ctl sandbox rm "$id"
check "the user's rm ends it" wait_exit "$init"
check "its background process is gone" sh -c "! kill -0 $bg 2>/dev/null"
done_test
