#!/bin/bash
# Each sandbox's cgroup holds the limits its policy resolves to, read on
# the host: the machine's defaults; the org's cap over a larger user
# value; a workspace lowering them (and not raising them); one run's
# --policy lowering them further, then the next run back (warm sandboxes
# made with other limits are rewritten); `policy explain`, describe and
# ps say the same. A run's cgroup is emptied after it, the daemon's subtree
# after the daemon.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
[ "$(id -u)" -eq 0 ] || skip "org policies must be root's"
ORG=$T/org
mkdir -m 755 "$ORG"
echo '{"limits": {"memory": "512M", "pids": 500}}' >"$ORG/limits.json"
echo '{"limits": {"memory": "1G", "pids": 300, "cpu": 80}}' >"$T/user.json"
start_daemon --org-dir "$ORG" --policy "$T/user.json"
need_cgroups
cd "$WS"

held org-user
expect_eq "memory: the org's cap, not the user's 1G" "$(cg "$HP" read memory)" $((512 << 20))
expect_eq "pids: the user's, below the org's" "$(cg "$HP" read pids)" 300
cpu=$(cg "$HP" read cpu)
check "cpu: the user's weight 80 ($cpu)" [ "$cpu" = "weight 80" -o "$cpu" = "shares 819" ]
D1=$(cg "$HP" dir pids)
release
wait_for "the run's cgroup is emptied" cg_emptied "$D1"

mkdir .sbx
echo '{"limits": {"memory": "2G", "pids": 100, "cpu": 20}}' >.sbx/policy.json
held workspace
expect_eq "a workspace cannot raise memory" "$(cg "$HP" read memory)" $((512 << 20))
expect_eq "a workspace lowers pids" "$(cg "$HP" read pids)" 100
cpu=$(cg "$HP" read cpu)
check "a workspace lowers the cpu weight ($cpu)" [ "$cpu" = "weight 20" -o "$cpu" = "shares 204" ]
check "ps shows them" grep -q "limits: memory 512 MiB, pids 100, cpu weight 20" <<<"$(sbx ps)"
release

echo '{"limits": {"memory": "128M", "pids": 50}}' >"$T/req.json"
held request --policy "$T/req.json"
expect_eq "--policy lowers memory for one run" "$(cg "$HP" read memory)" $((128 << 20))
expect_eq "--policy lowers pids for one run" "$(cg "$HP" read pids)" 50
release
held after
expect_eq "the next run has the workspace's memory again" "$(cg "$HP" read memory)" $((512 << 20))
expect_eq "... and its pids" "$(cg "$HP" read pids)" 100
release

out=$(sbx policy explain limits.memory)
check "explain: the value and the org file" grep -qx "limits.memory: 512 MiB per sandbox" <<<"$(head -1 <<<"$out")"
check "explain names the org file" grep -q "from: org $ORG/limits.json:1:" <<<"$out"
check "explain a workspace's limit" grep -q "from: workspace $WS/.sbx/policy.json" <<<"$(sbx policy explain limits.pids)"
check "describe tells the agent" grep -q "at most 100 processes and threads, 512 MiB of memory" <<<"$(sbx describe)"

# Leaks: only the warm sandboxes' cgroups are left, and none at all once
# the daemon is gone.
SUBTREE=$(cg "$DPID" subtree pids)
MSUB=$(cg "$DPID" subtree memory)
check "the daemon's subtree exists" test -d "$SUBTREE"
stop_daemon
check "the daemon's subtree is removed (pids)" test ! -e "$SUBTREE"
check "the daemon's subtree is removed (memory)" test ! -e "$MSUB"
done_test
