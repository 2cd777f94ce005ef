#!/bin/bash
# sbxctl shutdown: the daemon stops as on SIGTERM (t-shutdown.sh): a
# running command gets SIGTERM (its trap leaves a marker in the workspace),
# its client is told, the daemon exits 0 and its socket is gone, and
# sbxctl returns once that is done. A sandboxed command cannot ask (it
# cannot reach the socket); with no daemon, nothing is started just to be
# stopped. As root, also a privileged daemon: its served user may stop it,
# another user may not.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"

# A sandboxed command asking is refused and the daemon keeps serving. The
# socket is masked in the sandbox: sbxctl finds no daemon there (where
# Unix sockets are allowed, it says so and has nothing to stop) or may not
# make a socket at all (an error).
unreached() { [ "$1" -ne 0 ] || grep -q "no sbxd answers" <<<"$2"; }
out=$(sbx run -q -- "$BIN/sbxctl" --no-autostart --socket "$SOCK" shutdown 2>&1)
rc=$?
check "shutdown from inside a sandbox reaches no daemon (rc $rc: $out)" \
	unreached "$rc" "$out"
check "daemon alive after a sandbox asked" kill -0 "$DPID"
check "daemon still answers" sbx status >/dev/null

mkfifo "$T/o1"
sbx run -- sh -c 'trap "echo term > got-term; exit 3" TERM; echo ready; sleep 1000 & wait' >"$T/o1" 2>"$T/e1" &
c1=$!
exec 8<"$T/o1"
read -r a <&8
expect_eq "session started" "$a" ready
out=$(sbx shutdown)
rc=$?
expect_eq "sbxctl shutdown exits 0" "$rc" 0
expect_eq "it says so" "$out" "sbxd at $SOCK stopped"
# sbxctl waited for the daemon's end: the daemon is gone or exiting now.
if ! wait_exit "$DPID" 10; then
	fail "sbxd still runs 10 s after sbxctl shutdown"
	kill -KILL "$c1"
	done_test
fi
check "daemon exited by the time shutdown returned" wait_exit "$DPID" 0
wait "$DPID"; rc=$?
DPID=
expect_eq "sbxd exits 0" "$rc" 0
wait "$c1"; expect_eq "the command's trap ran and its status came back" $? 3
expect_eq "the command got SIGTERM (marker in the workspace)" "$(cat "$WS/got-term" 2>/dev/null)" term
check "client told about the shutdown" grep -q "shutting down" "$T/e1"
check "socket removed" test ! -e "$SOCK"

# Nothing answers: nothing to stop, and no daemon is started to stop it.
out=$("$BIN/sbxctl" --socket "$SOCK" shutdown)
expect_eq "shutdown with no daemon exits 0" $? 0
expect_eq "and says so" "$out" "no sbxd answers at $SOCK: nothing to stop"
out=$("$BIN/sbxctl" --socket "$SOCK" shutdown --json)
expect_eq "--json after the verb" "$out" "{\"socket\": \"$SOCK\", \"stopped\": false}"
check "no daemon autostarted by shutdown" test ! -e "$SOCK"

# Landlock-only mode (no namespaces): seccomp still keeps the sandbox off
# the socket, and shutdown stops the daemon the same way.
# (Landlock-only is for daemons that are not root.)
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only
	out=$(sbx run -q -- "$BIN/sbxctl" --no-autostart --socket "$SOCK" shutdown 2>&1)
	rc=$?
	check "landlock-only: shutdown from inside a sandbox reaches no daemon ($out)" \
		unreached "$rc" "$out"
	check "landlock-only: daemon alive after a sandbox asked" kill -0 "$DPID"
	sbx shutdown >/dev/null
	expect_eq "landlock-only: sbxctl shutdown exits 0" $? 0
	wait_exit "$DPID" 10 || kill -KILL "$DPID"
	wait "$DPID"; rc=$?
	DPID=
	expect_eq "landlock-only: sbxd exits 0" "$rc" 0
fi

if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	user=${SBX_TEST_USER:-sbxtest}
	chown "$user": "$WS"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" shutdown 2>&1)
	rc=$?
	expect_eq "privileged: another user cannot ask (125)" "$rc" 125
	check "privileged: daemon alive after another user asked" kill -0 "$DPID"
	out=$(cd "$WS" && setpriv --reuid="$user" --regid="$user" --init-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" shutdown 2>&1)
	rc=$?
	check "privileged: shutdown from inside a sandbox reaches no daemon ($out)" \
		unreached "$rc" "$out"
	check "privileged: daemon alive after a sandbox asked" kill -0 "$DPID"
	out=$(setpriv --reuid="$user" --regid="$user" --init-groups \
		"$BIN/sbxctl" --no-autostart --socket "$SOCK" shutdown)
	expect_eq "privileged: the served user stops it" $? 0
	wait "$DPID"; rc=$?
	DPID=
	expect_eq "privileged: sbxd exits 0" "$rc" 0
	check "privileged: socket removed" test ! -e "$SOCK"
fi
done_test
