#!/bin/bash
# cgroup v2. Wherever sbxd uses the unified hierarchy (on a hybrid host
# for CPU time alone): it moves itself into a leaf of its own, each
# sandbox is cloned into its cgroup there (CLONE_INTO_CGROUP), CPU time is
# read from it, and nothing of it is left after the run and the daemon.
# Where memory and pids are on v2 too: each sandbox's cgroup has
# memory.max, memory.high an eighth below, no swap, memory.oom.group (an
# OOM kills the whole sandbox), pids.max and cpu.weight.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
start_daemon
need_cgroups
st=$("$PY" -c 'import json,sys; print(json.loads(sys.argv[1])["cgroups"])' "$(sbx --json status)")
case $st in
"cgroup v2"*) ;;
*) skip "sbxd does not use cgroup v2 here: $st" ;;
esac
cd "$WS"
mkdir .sbx
echo '{"limits": {"memory": "256M", "pids": 123, "cpu": 30}}' >.sbx/policy.json
LEAF=$(cg "$DPID" dir v2)
expect_eq "sbxd is in a leaf of its own" "$(basename "$LEAF")" "sbxd-$DPID"
mkfifo go up
sbx run -q -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo up > up; read x < go; : v2' &
C=$!
read -r _ <up
P=$(session_pid v2)
D=$(cg "$P" dir v2)
expect_eq "the sandbox's init is in its v2 cgroup" "$D" "$(dirname "$LEAF")/sbx-$DPID/$(basename "$D")"
case $st in
"cgroup v2 (memory, pids"*)
	expect_eq "memory.max" "$(cat "$D/memory.max")" $((256 << 20))
	expect_eq "memory.high, an eighth below" "$(cat "$D/memory.high")" $((224 << 20))
	[ -e "$D/memory.swap.max" ] && expect_eq "no swap" "$(cat "$D/memory.swap.max")" 0
	expect_eq "an OOM kills the whole sandbox" "$(cat "$D/memory.oom.group")" 1
	expect_eq "pids.max" "$(cat "$D/pids.max")" 123
	grep -qw cpu "$(dirname "$D")/cgroup.subtree_control" &&
		expect_eq "cpu.weight" "$(cat "$D/cpu.weight")" 30
	;;
*) echo "memory and pids are on cgroup v1 here ($st): their v2 files are not checked" ;;
esac
check "ps: CPU time from the cgroup" "$PY" -c 'import json,sys
s = [s for s in json.loads(sys.argv[1]) if s["pid"] == int(sys.argv[2])][0]
assert s["cpu_us"] > 0, s' "$(sbx --json ps)" "$P"
echo go >go
wait "$C"; expect_eq "the run exits 0" $? 0
wait_for "its cgroup is emptied" cg_emptied "$D"
stop_daemon
check "the sandboxes' parent is removed" test ! -e "$(dirname "$D")"
check "the daemon's leaf is removed" test ! -e "$LEAF"
done_test
