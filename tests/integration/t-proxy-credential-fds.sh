#!/bin/bash
# A run in fd-passing mode that waits for its credential's command: the
# daemon holds the client's stdio fds meanwhile, and lets go of every
# copy exactly when it is done with them, whether its client leaves
# while the run waits or the run goes on to its end (the pipe's end
# comes; the daemon's fds are back where they were).
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL gho_ 36
mkfifo -m 666 "$T/fifo"
cred_script block.sh "echo \$\$ >>\"$T/out/starts\"" "exec cat \"$T/fifo\""
start_api
start_cred_daemon "$(command_policy fd block.sh)"
export SBXD_LOG="$T/sbxd.log"
fds() { "$PY" "$HERE/credhold.py" "$SOCK" "$WS" fds "$@"; }
# What the daemon keeps once it has run a sandbox.
timeout 10 sh -c "echo $REAL >'$T/fifo'" &
fds stay >/dev/null
fds0=$(fd_count "$DPID")

expect_eq "a client that leaves while its run waits: its pipe ends" \
	"$(fds leave)" "pipe gave '', then its end"
wait_for "... the command killed" bash -c "! pgrep -P $DPID -x cat >/dev/null"
wait_for "... the daemon's fds back ($fds0)" bash -c "[ \$(ls /proc/$DPID/fd | wc -l) -le $fds0 ]" ||
	ls -l "/proc/$DPID/fd" >&2

timeout 10 sh -c "echo $REAL >'$T/fifo'" &
expect_eq "a run that waited, then ran: its output, then the pipe's end" \
	"$(fds stay)" "pipe gave 'out\\n', then its end"
wait_for "... the daemon's fds back ($fds0)" bash -c "[ \$(ls /proc/$DPID/fd | wc -l) -le $fds0 ]" ||
	ls -l "/proc/$DPID/fd" >&2
stop_daemon
done_test
