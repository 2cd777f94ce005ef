#!/bin/bash
# Streaming mode: input for a run that has ended (stdin data, StdinClose, a
# signal, a resize arriving after the exit status) is dropped, not an
# error, and an exit status once received is final in sbxctl; input for a
# run that never existed is still refused.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
sbx run -- true # the workspace's template, made once

late() { "$PY" "$HERE/lateinput.py" "$SOCK" "$WS" "$1" | tr '\n' ' '; }
expect_eq "StdinClose right after the exit status: no error" \
	"$(late at-exit)" "exit=0 open "
expect_eq "stdin, StdinClose, signal, resize after the session is gone: no error" \
	"$(late after-end)" "exit=0 open "
expect_eq "StdinClose without a run: refused" \
	"$(late no-run)" "error 3 stdin_close without a running session closed "

# sbxctl, its StdinClose reaching the daemon after the session is gone
# and the exit status read only then (holdexit.py forces that order).
# $1: holdexit's option. Prints sbxctl's exit status.
race() {
	local relay
	rm -f "$T/relay.sock" "$T/in" "$T/relay.out"
	mkfifo "$T/in" "$T/relay.out"
	"$PY" "$HERE/holdexit.py" "$SOCK" "$T/relay.sock" "$@" >"$T/relay.out" &
	relay=$!
	exec 8<"$T/relay.out"
	read -r line <&8
	[ "$line" = listening ] || echo "relay: $line" >&2
	# Our end of its stdin is read-write, so opening it does not block;
	# sbxctl must not inherit it, or its stdin never ends.
	exec 7<>"$T/in"
	"$BIN/sbxctl" --no-autostart --socket "$T/relay.sock" run --stream -- \
		true <"$T/in" 7>&- 8<&- 2>"$T/race.err" &
	client=$!
	read -r line <&8
	[ "$line" = held ] || echo "relay: $line" >&2
	exec 7>&- # stdin ends: sbxctl sends StdinClose
	wait "$client"
	echo $?
	wait "$relay"
	exec 8<&-
}
expect_eq "sbxctl run --stream: a late StdinClose leaves the exit status" \
	"$(race)" 0
expect_eq "sbxctl run --stream: an Error after the exit status does not replace it" \
	"$(race --inject-error)" 0
sbx status >/dev/null || fail "daemon answers"
stop_daemon
done_test
