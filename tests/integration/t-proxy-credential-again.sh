#!/bin/bash
# A run whose credential's command is in but which then fails as it is
# taken up again (its workspace removed meanwhile) leaves nothing of the
# result behind: the next run of that connection, under the same
# request id, runs the command again rather than being handed the old
# value.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
mkfifo -m 666 "$T/fifo" "$T/ctl"
cred_script once.sh "echo \$\$ >>\"$T/out/starts\"" "exec cat \"$T/fifo\""
start_api
start_cred_daemon "$(command_policy once once.sh)"
mkdir "$WS/sub"
"$PY" "$HERE/credhold.py" "$SOCK" "$WS/sub" again <"$T/ctl" >"$T/again" &
C=$!
exec 5>"$T/ctl"
wait_for "the command started" test -s "$T/out/starts"
rmdir "$WS/sub"
timeout 10 sh -c "echo tok >'$T/fifo'"
wait_for "the run refused as it is taken up again" grep -q "^error id=1 code=6 workspace or cwd" "$T/again"
mkdir "$WS/sub"
# The command's value, if it runs again (it must).
timeout 10 sh -c "echo tok >'$T/fifo'" &
W=$!
echo >&5
wait_for "the second run ended" grep -q "^exit id=1" "$T/again"
expect_eq "... well" "$(tail -1 "$T/again")" "exit id=1 exited=1 code=0 signal=0 timed_out=0"
expect_eq "... its command run again" "$(wc -l <"$T/out/starts")" 2
echo >&5
exec 5>&-
wait "$C"
kill "$W" 2>/dev/null
stop_daemon
done_test
