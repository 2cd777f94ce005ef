#!/bin/bash
# A credential's command runs beside the daemon's loop, not in it: while
# one blocks (on a fifo this test holds), another client's request is
# answered; two runs that need the same credential share one command and
# both get its line once the fifo is written. A command that outlives
# its 3 s is killed with its whole process group and the run starts
# without the credential, saying so; a client that leaves while its run
# waits takes the command (and the daemon's fds for it) with it.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL gho_ 36
mkfifo -m 666 "$T/fifo"
# block.sh: each start is a line of out/starts; it prints what the test
# writes into the fifo, once the test does.
cred_script block.sh "echo \$\$ >>\"$T/out/starts\"" "exec cat \"$T/fifo\""
# hang.sh: a child in its process group, and neither ever ends.
cred_script hang.sh "sleep 600 &" "echo \$! >\"$T/out/child.pid\"" \
	"echo \$\$ >\"$T/out/hang.pid\"" wait
start_api
cred_policy() { # cred_policy ID SCRIPT
	printf '{"network": {"allowedDomains": [%s],
	  "credentials": [{"id": "%s", "command": ["%s"], "hosts": ["l7.test:%s"],
	                   "format": "Bearer {}"}]},
	  "filesystem": {"denyRead": ["%s/out"]}}' "$ALLOW" "$1" "$T/$2" "$API" "$T"
}
start_cred_daemon "$(cred_policy slow block.sh)"
export SBX_CONNECT_TIMEOUT=30
# gone PID: no such process, or a zombie (whoever reaps it).
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* (.*) Z' "/proc/$1/stat"; }
waiting() { [ "$(grep -c "waits for the command of credential slow" "$T/sbxd.log")" = "$1" ]; }

sbx run -- curl -sS -o /dev/null "https://l7.test:$API/headers" 2>"$T/a.err" &
A=$!
wait_for "the credential's command to start" test -s "$T/out/starts"
sbx run -- curl -sS -o /dev/null "https://l7.test:$API/headers" 2>"$T/b.err" &
B=$!
wait_for "both runs waiting for it" waiting 2
pid=$(head -1 "$T/out/starts")
timeout 10 sbx status >"$T/status" 2>&1
expect_eq "another client's status is answered while the command blocks" "$?" 0
check "... the command still running then (not killed at its timeout)" kill -0 "$pid"
timeout 10 sbx ps >/dev/null
expect_eq "... and so is its ps" "$?" 0
check "... still running" kill -0 "$pid"
timeout 10 sh -c "printf '%s\n' '$REAL' >'$T/fifo'"
wait "$A"; ra=$?
wait "$B"; rb=$?
expect_eq "both runs ended well once the fifo was written" "$ra $rb" "0 0"
expect_eq "... each sent the command's line as the header" "$(grep -cx "auth Bearer $REAL" "$T/api.log")" 2
expect_eq "... from one command they shared" "$(wc -l <"$T/out/starts")" 1
check "... and no credential was skipped" bash -c "! grep -q skipped '$T/a.err' '$T/b.err'"

# A long-lived sandbox's creation waits the same way.
: >"$T/out/starts"
sbx sandbox create --idle 600 >"$T/sb.id" 2>"$T/sb.err" &
S=$!
wait_for "a sandbox's creation waiting for the command" waiting 3
timeout 10 sh -c "printf '%s\n' '$REAL' >'$T/fifo'"
wait "$S"
expect_eq "... created once the fifo was written" "$?" 0
sbx sandbox exec "$(cat "$T/sb.id")" -- curl -sS -o /dev/null "https://l7.test:$API/headers"
expect_eq "... and its commands send the value" "$(grep -cx "auth Bearer $REAL" "$T/api.log")" 3
sbx sandbox rm "$(cat "$T/sb.id")"

# A client killed while its run waits: the command goes, the fds too.
: >"$T/out/starts"
fds0=$(fd_count "$DPID")
sbx run -- true &
C=$!
wait_for "the command to start again" test -s "$T/out/starts"
pid=$(head -1 "$T/out/starts")
wait_for "the run waiting for it" waiting 4
kill -KILL "$C"
wait "$C" 2>/dev/null
wait_for "the command killed once its only client left" gone "$pid"
wait_for "the daemon's fds back to where they were" bash -c "[ \$(ls /proc/$DPID/fd | wc -l) -le $fds0 ]" ||
	ls -l "/proc/$DPID/fd" >&2
check "the client's leaving is logged" grep -q "credential slow: its command killed: no run waits for it" "$T/sbxd.log"
stop_daemon
check "the value is not in sbxd's log" bash -c "! grep -aq '$REAL' '$T/sbxd.log'"

# Past its 3 s the command's whole process group is killed, and the run
# starts without the credential, saying why.
rm -f "$T/policy.json" "$T/hosts"
start_cred_daemon "$(cred_policy stuck hang.sh)"
# Without a credential for it the host is not inspected: -k, as the
# sandbox does not know the test's CA.
sbx run -- curl -ksS -o /dev/null "https://l7.test:$API/headers" 2>"$T/err"
expect_eq "the run went on without the credential" "$?" 0
check "... saying why on its stderr" grep -q "sbx: credential stuck skipped: its command $T/hang.sh did not finish in 3 s: killed" "$T/err"
expect_eq "... and the header not sent" "$(grep -c "^auth" "$T/api.log")" 3
wait_for "the command killed" gone "$(cat "$T/out/hang.pid")"
wait_for "... and its child in its process group" gone "$(cat "$T/out/child.pid")"
stop_daemon
done_test
