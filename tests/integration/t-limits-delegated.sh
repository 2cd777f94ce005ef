#!/bin/bash
# User mode with a delegated subtree, as systemd's Delegate=yes gives one:
# root makes a cgroup in each hierarchy, hands it to the test user and
# starts that user's sbxd inside it. The daemon makes its sandboxes'
# cgroups below it (the user's own), with the policy's limits; each is
# emptied after its run (and kept for the next), and the daemon's subtree
# is removed when it stops.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
[ "$(id -u)" -eq 0 ] || skip "making a delegated subtree needs root"
need_served_user
DIRS=()
for c in memory pids cpu cpuacct blkio; do
	d=$(cg $$ dir "$c" 2>/dev/null) || continue
	d=$d/sbxt-deleg-$$
	case " ${DIRS[*]} " in *" $d "*) continue ;; esac
	mkdir "$d" || skip "cannot make $d"
	DIRS+=("$d")
done
rm_deleg() { local d; for d in "${DIRS[@]}"; do rmdir "$d" 2>/dev/null; done; }
trap 'cleanup; rm_deleg' EXIT
for d in "${DIRS[@]}"; do
	if [ -e "$d/cgroup.subtree_control" ]; then
		# v2: the controllers handed down, as systemd does.
		sed 's/\([a-z]*\)/+\1/g' "$(dirname "$d")/cgroup.subtree_control" \
			>"$d/cgroup.subtree_control" 2>/dev/null ||
			skip "cannot hand controllers down to $d"
	fi
	chown -R "$user": "$d"
done
user_daemon "${DIRS[@]}"
need_cgroups
expect_eq "sbxd runs as the user" "$(stat -c %U /proc/$DPID)" "$user"
cd "$WS"
mkdir .sbx
echo '{"limits": {"pids": 77}}' >.sbx/policy.json
chown -R "$user": .sbx
held deleg
P=$HP
D=$(cg "$P" dir pids)
case $D in
"$(cg $$ dir pids)"/sbxt-deleg-$$/*) ok "the sandbox's cgroup is below the delegated one ($D)" ;;
*) fail "the sandbox's cgroup $D is not below the delegated one" ;;
esac
expect_eq "the policy's pids.max" "$(cg "$P" read pids)" 77
expect_eq "the sandbox's cgroup is the user's" "$(stat -c %U "$D")" "$user"
release_and_stop "$D"
done_test
