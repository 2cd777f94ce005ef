#!/bin/bash
# A sandbox that allocates past its memory limit is OOM-killed as a
# whole (not only the allocating process); the daemon and another
# sandbox running at the same time live on; the run's exit status, the
# violation event and ps say which limit and which rule.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
. "$HERE/violations-lib.sh"
limits_daemon '{"limits": {"memory": "64M"}}'
subscribe ev --json --count 1
mkfifo b.go b.up
# B: up and measured while A runs; it ends once A is gone.
sbx run -q -- sh -c 'echo up > b.up; read x < b.go; echo b alive' >"$T/b.out" &
RB=$!
read -r _ <"$WS/b.up"
B=$(session_pid 'b alive')
check "the daemon is outside every sandbox's cgroup" \
	bash -c "! grep -q '/s-[0-9]*\$' /proc/$DPID/cgroup"
# A: a child allocates 512 MiB and touches it; the shell that started it
# would sleep on for ever if only the child were killed.
sbx run -- sh -c 'python3 -c "x = b\"x\" * (512 << 20)"; exec sleep 1000' \
	>"$T/a.out" 2>"$T/a.err" &
RA=$!
if wait_exit "$RA" 30; then
	ok "the memory hog's sandbox is killed as a whole"
else
	fail "the memory hog's sandbox lives on after its OOM kill"
	kill -KILL "$RA" # its client: the daemon ends the sandbox
fi
wait "$RA"; expect_eq "its run ends by SIGKILL" $? 137
check "its exit status names the limit and the rule" grep -q \
	"killed: memory limit 64 MiB (policy workspace, limits.memory)" "$T/a.err"
wait "$SUB"
check "a violation event names the limit" limit_event "$T/ev" memory workspace
check "the daemon lives" kill -0 "$DPID"
check "ps measures the other sandbox" "$PY" -c 'import json,sys
s = [s for s in json.loads(sys.argv[1]) if s["pid"] == int(sys.argv[2])][0]
assert s["mem_peak_bytes"] > 0 and "cpu_us" in s and s["limit_hit"] == "", s' "$(sbx --json ps)" "$B"
expect_eq "its memory limit, on the host" "$(cg "$B" read memory)" $((64 << 20))
echo go >"$WS/b.go"
wait "$RB"; expect_eq "the other sandbox exits 0" $? 0
expect_eq "... having run to its end" "$(cat "$T/b.out")" "b alive"
check "the daemon serves the next run" sbx run -q -- true
stop_daemon
done_test
