#!/bin/bash
# A fork bomb in one sandbox is contained by its pids limit: another
# sandbox running at the same time and the host keep forking; the bomb's
# run reports the limit and the rule that set it (exit status, ps, a
# violation event), and its cgroup is emptied once it ended.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
. "$HERE/violations-lib.sh"
start_daemon
need_cgroups
cd "$WS"
mkdir .sbx
echo '{"limits": {"pids": 64}}' >.sbx/policy.json
subscribe ev --json --count 1
mkfifo b.go
# B: waits until the bomb has filled its cgroup, then forks 40 times.
sbx run -q -- sh -c 'read x < b.go; n=0; for i in $(seq 40); do /bin/true && n=$((n+1)); done; echo "b forked $n"' >"$T/b.out" &
RB=$!
# A: the classic bomb, every process forking two more, for ever; started
# by one fork, so the shell that holds the run open forks no more.
sbx run -- sh -c '(bomb() { bomb & bomb & }; bomb) & exec sleep 1000' \
	>"$T/a.out" 2>"$T/a.err" &
RA=$!
# Functions, so wait_for asks again each time (a "$(...)" argument would
# be expanded once, before the wait).
bomb_listed() { test -n "$(session_pid 'bomb()')"; }
forks_refused() { [ "$(cg "$A" read pids-hit)" -gt 0 ]; }
wait_for "the bomb's session" bomb_listed
A=$(session_pid 'bomb()')
AID=$(session_id 'bomb()')
ADIR=$(cg "$A" dir pids)
expect_eq "the bomb's cgroup has the policy's pids.max" "$(cg "$A" read pids)" 64
wait_for "forks refused in the bomb's cgroup" forks_refused
check "the bomb holds at most 64 tasks" [ "$(cat "$ADIR/pids.current")" -le 64 ]
# The host still forks (a user with a process limit is not starved).
n=0; for i in $(seq 40); do /bin/true && n=$((n + 1)); done
expect_eq "the host forks while the bomb runs" "$n" 40
echo go >"$WS/b.go"
wait "$RB"; expect_eq "the other sandbox exits 0" $? 0
expect_eq "the other sandbox forks while the bomb runs" "$(cat "$T/b.out")" "b forked 40"
out=$(sbx ps)
check "ps names the limit hit" grep -q "hit: process limit 64 (policy workspace, limits.pids)" <<<"$out"
check "ps shows the run's limits" grep -q "limits: memory .*, pids 64, cpu weight" <<<"$out"
sbx kill "$AID" KILL
wait "$RA"; expect_eq "the bomb's run ends by SIGKILL" $? 137
check "its exit status names the limit and the rule" grep -q \
	"process limit 64 (policy workspace, limits.pids)" "$T/a.err"
wait "$SUB"
check "a violation event names the limit" limit_event "$T/ev" pids workspace
wait_for "the bomb's cgroup is emptied" cg_emptied "$ADIR"
check "the daemon still serves runs" sbx run -q -- true
stop_daemon
done_test
