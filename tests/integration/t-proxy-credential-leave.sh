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
wait_for "... their commands killed as they left" grep -q "credential fv: its command killed: no run waits for it" "$T/sbxd.log"
# A command whose kill missed is a child of the daemon still, its sleep
# (killed here: it would outlive the test); the daemon, which reaps it
# when it stops, would wait for it.
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

# Privileged mode: the served user's clients leave as root forks their
# commands (as the user); none is left, and the daemon stops.
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	need_served_user
	H=$T/home
	mkdir -p "$H" && chown "$user": "$H" "$WS"
	rm -f "$T/policy.json" "$T/hosts"
	printf '%s\n' "$(command_policy fv forever.sh)" >"$T/policy.json"
	start_daemon --user "$user" --home "$H" --policy "$T/policy.json" \
		--hosts-file /dev/null --upstream-ca "$T/corp.pem"
	chmod 755 "$XDG_RUNTIME_DIR"
	out=$(as env SBXD_LOG="$SBXD_LOG" "$PY" "$HERE/credhold.py" "$SOCK" "$WS" leave $N)
	expect_eq "privileged: the served user's clients ran and left" "$out" "left $N"
	wait_for "... no command left running" bash -c "! pgrep -P $DPID -x sleep >/dev/null" || {
		ps -o pid,pgid,user,etimes,args --ppid "$DPID" >&2
		pgrep -P "$DPID" -x sleep | xargs -r kill -KILL
	}
	stop_daemon
fi
done_test
