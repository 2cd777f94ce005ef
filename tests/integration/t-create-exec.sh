#!/bin/bash
# A file the supervisor made for the command (linux/emulate.c) can be run
# as soon as the command has closed it: the supervisor's own copy of the
# fd is closed before the command goes on, else exec fails with ETXTBSY
# ("Text file busy") while the supervisor has not yet been scheduled: a
# build that links a binary and runs it at once (cp, cc -o, go build)
# fails at random on a loaded machine. 30 runs of cp and exec, each a
# fresh sandbox.
. "$(dirname "$0")/lib.sh"
cd "$WS"
start_daemon
n=0
for i in $(seq 30); do
	sbx run -q -- sh -c "cp /bin/sleep ./t$i && ./t$i 0" 2>>"$T/busy.log" ||
		n=$((n + 1))
done
expect_eq "every copied binary ran at once (failures)" "$n" 0
check "no ETXTBSY ($(head -1 "$T/busy.log"))" test ! -s "$T/busy.log"
done_test
