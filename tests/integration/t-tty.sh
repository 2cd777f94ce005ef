#!/bin/bash
# -t: the command gets a pty of its own (fd passing and streaming), sees the
# window size, takes Ctrl-C like a local command, and the terminal is
# restored afterwards.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
drive() { "$PY" "$HERE/ptydrive.py" "$@"; }

out=$(drive -- sbx run -t -- tty | tr -d '\r')
check "tty inside prints a pty ($out)" grep -Eqx '/dev/pts/[0-9]+' <<<"$out"
out=$(drive -- sbx run -t --stream -- tty | tr -d '\r')
check "streaming tty prints a pty ($out)" grep -Eqx '/dev/pts/[0-9]+' <<<"$out"
out=$(drive --rows 33 --cols 101 -- sbx run -t -- stty size | tr -d '\r')
expect_eq "window size passed (fd passing)" "$out" "33 101"
out=$(drive --rows 33 --cols 101 -- sbx run -t --stream -- stty size | tr -d '\r')
expect_eq "window size passed (streaming)" "$out" "33 101"
out=$(sbx run -- tty 2>&1)
expect_eq "without -t there is no terminal" "$out" "not a tty"

# An interactive shell, typed at.
out=$(drive expect 'READY> ' send 'echo $((6*7))\r' expect 42 send 'exit 3\r' \
	-- sbx run -t -e 'PS1=READY> ' -- bash --norc --noprofile -i)
rc=$?
expect_eq "interactive bash exit code" "$rc" 3
check "interactive bash computed 42" grep -q 42 <<<"$out"

# Ctrl-C reaches the command through the pty's line discipline.
drive expect go send '\x03' -- sbx run -t -- sh -c 'echo go; exec sleep 1000' >/dev/null
expect_eq "Ctrl-C -> 130" $? 130
drive expect go send '\x1c' -- sbx run -t -- sh -c 'echo go; exec sleep 1000' >/dev/null
expect_eq "Ctrl-\\ -> 131" $? 131

# Window changes follow (SIGWINCH inside).
for mode in "" --stream; do
	out=$(drive expect go resize 40 120 -- sbx run -t $mode -- bash --norc -c \
		'trap "stty size; exit 0" WINCH; echo go; while :; do sleep 0.05; done' | tr -d '\r')
	check "resize reaches the command ($mode)" grep -qx "40 120" <<<"$out"
done

# Raw mode is undone when sbxctl exits.
out=$(drive -- sh -c "stty -g; sbx run -t -- true; stty -g" | tr -d '\r')
expect_eq "terminal modes restored" "$(sed -n 1p <<<"$out")" "$(sed -n 2p <<<"$out")"
stop_daemon
done_test
