#!/bin/bash
# Stdin by credit: a run that asks for it is given a window of stdin
# (StdinCredit), and a client that fills it for a command that reads
# nothing still gets its signal through at once: the daemon kept reading
# the connection (without credit a client cannot know how much it may
# send before its SendSignal queues behind unread stdin).
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
out=$("$PY" "$HERE/protoclient.py" "$SOCK" "$WS" credit)
check "the daemon gives stdin credit (1 MiB)" grep -qx "credit 1048576" <<<"$out"
check "all the credit sent, unread: the signal still arrives" \
	grep -qx "exit id=6 exited=1 code=7 signal=0 timed_out=0" <<<"$out"
check "... and the command handled it" grep -qx "output int|" <<<"$out"

# sbxctl --stream sends by credit: 8 MiB of stdin arrive whole.
head -c 8388608 /dev/urandom >"$T/big"
sum=$(sbx run --stream -- cat <"$T/big" | sha256sum)
expect_eq "8 MiB of stdin through --stream by credit" "$sum" \
	"$(sha256sum <"$T/big")"
stop_daemon
done_test
