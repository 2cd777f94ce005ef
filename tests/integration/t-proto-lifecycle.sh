#!/bin/bash
# Lifecycle events and the daemon's words: a subscriber that asks for
# session events sees a run started on another connection (sbxctl) start
# (argv, cwd, workspace, client name) and exit (status and summary lines);
# a read-only mirror gets a copy of a session's output and may not send it
# stdin; the exit status's summary lines are what sbxctl prints.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
cd "$WS"
bc() { "$PY" "$HERE/brokerclient.py" "$SOCK" "$WS" "$@"; }

out=$("$PY" "$HERE/protoclient.py" "$SOCK" "$WS" hello)
for f in summary-lines approvals-broker lifecycle-events output-mirror; do
	check "HelloReply lists feature $f" grep -qx "feature $f" <<<"$out"
done

bc lifecycle 1 >"$T/life" 2>&1 &
LIFE=$!
wait_for "the lifecycle subscription" grep -qs '^subscribed' "$T/life"
sbx run -- sh -c 'exit 3'
expect_eq "sbxctl's run exits 3" $? 3
wait "$LIFE"
life=$(cat "$T/life")
check "started: argv, cwd, workspace and client name (got: $(grep '^started' <<<"$life"))" grep -qx \
	"started id=3 pid>0=1 argv=sh -c exit 3 cwd=$WS workspace=$WS client=sbxctl" <<<"$life"
check "exited: the status" grep -qx "exited id=3 code=3" <<<"$life"
check "nothing else came (no violation events asked for)" \
	test "$(grep -vc '^\(subscribed\|started\|exited\|summary\)' <<<"$life")" = 0

out=$(bc mirror)
check "the mirror subscription is acknowledged under its id" grep -qx "mirror subscribed: kind=4 id=7" <<<"$out"
check "the mirror gets both streams of the session" grep -qx "mirror id=7 stdout=out-hi stderr=err-hi" <<<"$out"
check "stdin from the mirror: BAD_ORDER (read-only)" grep -q "^mirror stdin: kind=3 error code=3" <<<"$out"

# The summary: the daemon's lines are sbxctl's output, byte for byte.
CMD="$P bpf >/dev/null; echo x > /etc/sbx-life-$$; exit 2"
sbx run --on-ask=deny -- bash -c "$CMD" >/dev/null 2>"$T/err"
grep '^sbx: ' "$T/err" | grep -v 'rule seccomp.unix-socket)' >"$T/sbxctl"
bc summary bash -c "$CMD" | grep -v 'rule seccomp.unix-socket)' >"$T/daemon"
check "summary lines: the daemon renders a blocked line" grep -q '^sbx: blocked syscall bpf' "$T/daemon"
check "... the same lines sbxctl prints" cmp "$T/sbxctl" "$T/daemon"
# Sandboxes: a subscriber of sandbox events sees one made, then ended with
# the reason (DestroySandbox here).
bc lifecycle 4 >"$T/sbev" 2>&1 &
SBEV=$!
wait_for "the sandbox subscription" grep -qs '^subscribed' "$T/sbev"
sbid=$(sbx sandbox create --idle 600)
sbx sandbox rm "$sbid"
wait_for "the sandbox's end" grep -qs '^sandbox ended' "$T/sbev"
wait "$SBEV"
check "sandbox created: its id and workspace" grep -qx \
	"sandbox created id=3 sandbox=$sbid workspace=$WS" "$T/sbev"
check "sandbox ended: its id, workspace and why" grep -qx \
	"sandbox ended id=3 sandbox=$sbid workspace=$WS reason=destroyed" "$T/sbev"
stop_daemon
done_test
