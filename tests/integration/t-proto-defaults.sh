#!/bin/bash
# What a run does when the request leaves it out: a umask not sent is 022
# (the file's mode on the host says), one sent is used, 0 included when
# umask_set says so; a timeout sends SIGTERM, and SIGKILL after the kill
# grace to a command that traps it; a signal can go to every process of
# the sandbox, past the command's process group.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }
mode() { stat -c %a "$WS/$1"; }

pc run - touch u-default >/dev/null
expect_eq "no umask sent: files are 0644" "$(mode u-default)" 644
pc run umask=63 touch u-077 >/dev/null
expect_eq "umask 077 sent: 0600" "$(mode u-077)" 600
pc run umask=0,umask_set=1 touch u-000 >/dev/null
expect_eq "umask 0 sent with umask_set: 0666" "$(mode u-000)" 666

out=$(pc run timeout_ms=300 sh -c 'echo $$ >term.pid; sleep 1000')
check "timeout, SIGTERM obeyed: killed by TERM, timed out" \
	grep -qx "exit id=1 exited=0 code=0 signal=15 timed_out=1" <<<"$out"
start=$(date +%s%N)
out=$(pc run timeout_ms=200,kill_grace_ms=1500 sh -c \
	'trap "echo term" TERM; echo ready; while :; do sleep 0.05; done')
ms=$((($(date +%s%N) - start) / 1000000))
check "timeout: the command saw SIGTERM" grep -q "^output ready|.*term|$" <<<"$out"
check "timeout: SIGKILL after the grace to a command trapping TERM" \
	grep -qx "exit id=1 exited=0 code=0 signal=9 timed_out=1" <<<"$out"
check "the grace was waited ($ms ms >= 1700)" test "$ms" -ge 1700

# SIGNAL_TARGET_SESSION (2): a process in a session of its own gets it.
# (The command's group alone: its shell waits for the other forever.)
out=$(pc signal ready 15 2 sh -c 'trap "echo outer-term" TERM; setsid sh -c "trap \"echo bg-term; exit 0\" TERM; echo ready; while :; do sleep 0.05; done"; echo outer-done')
check "a signal for the whole session reaches a process outside the command's group" \
	grep -q "^output .*bg-term|.*outer-done|$" <<<"$out"
# SIGNAL_TARGET_FOREGROUND (1): on a pty, the job a shell with job control
# put in front gets it, as ^C would (the shell then gives up its command
# line); sent to the command's group, the shell alone gets it and goes on
# waiting for its job.
if command -v bash >/dev/null; then
	out=$(pc signal-tty ready 2 1 bash --norc -ic 'echo ready; sleep 1000')
	check "a signal for the foreground group reaches the shell's foreground job" \
		grep -q "^exit id=2 .* timed_out=0$" <<<"$out"
fi
stop_daemon
done_test
