#!/bin/bash
# `sbxctl events`: a subscriber sees the violations of two sessions that
# run at the same time, each attributed to its own session; --session
# filters; the text form; events arrive while the command still runs.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
need_notify
cd "$WS"

subscribe all --json --count 2
ALL=$SUB

# Two sandboxes at once, each told when to trigger its denial: each one
# writes its session id (SBX_SESSION) into a fifo, then waits on its own.
for s in a b; do mkfifo "$WS/$s.id" "$WS/$s.go"; done
sbx run -q -- sh -c "echo \$SBX_SESSION > a.id; read x < a.go; $P bpf" >/dev/null &
RA=$!
sbx run -q -- sh -c "echo \$SBX_SESSION > b.id; read x < b.go; $P keyctl" >/dev/null &
RB=$!
A=$(cat "$WS/a.id")
B=$(cat "$WS/b.id")
check "two sessions running at once ($A, $B)" [ -n "$A" -a -n "$B" -a "$A" != "$B" ]
subscribe only-a --json --session "$A" --count 1
ONLY=$SUB
# B's denial first, all the way to its exit; then A's.
echo go >"$WS/b.go"
wait $RB
echo go >"$WS/a.go"
wait $RA
wait $ALL
expect_eq "each event attributed to its session" \
	"$(v "$T/all" events session target rule_id | sort)" \
	"$(printf '%s bpf seccomp.bpf\n%s keyctl seccomp.keyctl' "$A" "$B" | sort)"
wait $ONLY
expect_eq "--session: only that session's event" \
	"$(v "$T/only-a" events session target)" "$A bpf"

# Text form, and an event that comes while its command is still running
# (the command waits until the subscriber has exited).
subscribe text --count 1
TXT=$SUB
mkfifo "$WS/c.go"
sbx run -q -- sh -c "$P io_uring; read x < c.go" >/dev/null &
RC=$!
wait $TXT
echo go >"$WS/c.go"
wait $RC
check "text line names session, denial, rule and remedy" \
	grep -qx "session [0-9]*: blocked syscall io_uring_setup (builtin seccomp deny set, rule seccomp.io_uring) — io_uring is refused (its operations would bypass the filter); most tools fall back to ordinary I/O" "$T/text"

sbx events --session 999999 2>"$T/err"
expect_eq "unknown session refused" $? 125
check "... saying so" grep -q "no running session 999999" "$T/err"
stop_daemon
done_test
