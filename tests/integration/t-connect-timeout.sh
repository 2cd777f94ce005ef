#!/bin/bash
# A stopped daemon: sbxctl gives up after its connect deadline with one
# line naming the socket and the daemon's pid (exit 125), and a run whose
# client left while the daemon was stopped is never started.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
sbx run -- true # the workspace's template, made once

kill -STOP "$DPID"
# given DESC RC ERRFILE MS: exit 125 within the deadline (1 s, and some
# slack for a loaded machine), one line naming the socket and the pid.
given() {
	expect_eq "$1: exit status" "$2" 125
	check "$1: within the deadline (${4} ms)" [ "$4" -lt 4000 ]
	expect_eq "$1: one line" "$(wc -l <"$3")" 1
	check "$1: names the socket and the daemon's pid" \
		grep -qF "$SOCK (pid $DPID)" "$3"
}
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
SBX_CONNECT_TIMEOUT=1 timeout -s KILL 20 sbx status >/dev/null 2>"$T/err1"
rc=$?
given "status, SBX_CONNECT_TIMEOUT=1" "$rc" "$T/err1" $(($(ms) - t0))
t0=$(ms)
# The run's request is sent with its Hello: when sbxctl gives up, the
# stopped daemon has it queued, and its client gone.
timeout -s KILL 20 "$BIN/sbxctl" --no-autostart --socket "$SOCK" \
	--connect-timeout 1 run -- sh -c 'touch marker1' 2>"$T/err2"
rc=$?
given "run, --connect-timeout 1" "$rc" "$T/err2" $(($(ms) - t0))
# A raw client sends Hello and a run, then is killed, its reply unread.
( "$PY" "$HERE/lateinput.py" "$SOCK" "$WS" run-exit ) 2>/dev/null
kill -CONT "$DPID"
# Sync point: a run on a fresh connection is served after both.
expect_eq "a run after SIGCONT works" "$(sbx run -- echo back)" back
expect_eq "no session left" "$(sbx --json ps)" "[]"
check "the run of the client that timed out never started" \
	[ ! -e "$WS/marker1" ]
check "the run of the killed client never started" [ ! -e "$WS/marker" ]
check "the daemon started neither" \
	bash -c "! grep -E 'session [0-9]+: (sh|touch) \(pid' '$T/sbxd.log'"
expect_eq "status answers" "$(sbx status >/dev/null; echo $?)" 0
stop_daemon
done_test
