#!/bin/bash
# Clients that leave just as their run's credential command is forked:
# the command must go with them (its whole process group killed), not
# live on past its 3 s; and the daemon must still stop, at once, with a
# run waiting for a command too.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
cred_script forever.sh "exec sleep 600"
cred_script noted.sh "echo \$\$ >\"$T/out/noted.pid\"" "exec sleep 600"
start_api
start_cred_daemon "$(command_policy fv forever.sh)"
export SBXD_LOG="$T/sbxd.log"
N=40
out=$("$PY" "$HERE/credhold.py" "$SOCK" "$WS" leave $N)
expect_eq "the clients ran and left" "$out" "left $N"
started=$(grep -c "its run waits for the command of credential fv" "$T/sbxd.log")
killed() { [ "$(grep -c "credential fv: its command killed: no run waits for it" "$T/sbxd.log")" = "$started" ]; }
wait_for "every command started killed as its client left ($started)" killed
# A command that escaped is a child of the daemon still, its sleep.
wait_for "none of the commands left running" bash -c "! pgrep -P $DPID -x sleep >/dev/null" || {
	ps -o pid,pgid,etimes,args --ppid "$DPID" >&2
	pgrep -P "$DPID" -x sleep | xargs -r kill -KILL
}
kill -TERM "$DPID"
if timeout 20 tail --pid="$DPID" -f /dev/null; then
	ok "the daemon stopped"
else
	fail "the daemon did not stop (waiting for a command it missed)"
	pgrep -P "$DPID" -x sleep | xargs -r kill -KILL
fi

# The daemon stopped while a run waits for its command.
rm -f "$T/policy.json" "$T/hosts"
start_cred_daemon "$(command_policy noted noted.sh)"
sbx run -- true 2>/dev/null &
C=$!
wait_for "the command started" test -s "$T/out/noted.pid"
kill -TERM "$DPID"
if timeout 20 tail --pid="$DPID" -f /dev/null; then
	ok "the daemon stopped with a run waiting"
else
	fail "the daemon did not stop with a run waiting"
fi
wait "$DPID"
expect_eq "... exiting 0" "$?" 0
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"; }
wait_for "... the command killed" gone "$(cat "$T/out/noted.pid")"
wait "$C"
check "... the client told" test "$?" -ne 0
done_test
