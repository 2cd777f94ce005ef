#!/bin/bash
# A client that leaves while its run's job waits for the template (no
# warm sandbox, the template busy) never has its command started, even
# when the daemon cannot act at the moment the sandbox is made.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "counting warm sandboxes needs root"
start_daemon
cd "$WS"
sbx run -- true # the workspace's template
tpl=$(daemon_procs sbx-template)
[ -n "$tpl" ] || skip "no template in this mode"
sessions() { # sessions N: ps lists N
	[ "$(sbx --json ps | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')" = "$1" ]
}
# The sandboxes a template keeps warm (LTEMPLATE_WARM, linux/template.h).
W=3
wait_for "$W warm sandboxes" warm_ready $W
# The template stops: the warm sandboxes go to runs that wait, and the
# next run's job waits for the template.
kill -STOP "$tpl"
mkfifo "$T/hold" "$T/bout"
holders=
for i in $(seq $W); do
	sbx run -- sh -c "read x <$T/hold" &
	holders="$holders $!"
done
wait_for "the warm sandboxes taken" sessions $W
# Its stdout is a fifo only this test reads: EOF there once nothing of
# its sandbox (nor its job) is left.
sbx run -- sh -c 'touch marker' >"$T/bout" &
client=$!
exec 6<"$T/bout"
wait_for "the queued run's session" sessions $((W + 1))
{ kill -KILL "$client"; wait "$client"; } 2>/dev/null
sbx status >/dev/null # the daemon has seen the client go
# The daemon cannot act while the template makes the sandbox.
kill -STOP "$DPID"
kill -CONT "$tpl"
cat <&6 >/dev/null
exec 6<&-
check "the queued run's command never ran" [ ! -e "$WS/marker" ]
kill -CONT "$DPID"
exec 7>"$T/hold"
exec 7>&-
# shellcheck disable=SC2086 # a list of pids
wait $holders
expect_eq "a run afterwards works" "$(sbx run -- echo back)" back
wait_for "no session left" sessions 0
check "still no marker" [ ! -e "$WS/marker" ]
stop_daemon
done_test
