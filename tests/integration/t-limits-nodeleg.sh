#!/bin/bash
# A user-mode daemon whose cgroup is not delegated to it (no systemd, or a
# unit without Delegate=yes) still runs sandboxes, and says in status and
# doctor that they have no limits, why, and the fix.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
if [ "$(id -u)" -eq 0 ]; then
	need_served_user
	user_daemon
else
	start_daemon
	st=$(sbx --json status)
	"$PY" -c 'import json,sys; sys.exit(1 if json.loads(sys.argv[1])["cgroups"] else 0)' "$st" ||
		skip "this user's daemon has a delegated cgroup (t-limits-delegated covers it)"
fi
cd "$WS"
st=$(sbx status)
check "status: no limits" grep -qx "limits:     none (no cgroups; see degraded)" <<<"$st"
check "status: why, and the fix" grep -q "^degraded:   no cgroup for memory, pids, cpu (.* is not delegated to sbxd): sandboxes run without those limits; fix: start sbxd from its systemd user unit, which has Delegate=yes" <<<"$st"
mkdir "$WS/scratch"
[ "$(id -u)" -eq 0 ] && chown "$user": "$WS/scratch"
out=$(sbx doctor --scratch "$WS/scratch" 2>&1)
echo "$out"
check "doctor warns: no limits, and why" grep -q "^warn *cgroup: no cgroup for memory, pids, cpu (.* is not delegated to sbxd)" <<<"$out"
check "doctor names the fix" grep -A1 "^warn *cgroup: " <<<"$out" | grep -q "fix: start sbxd from its systemd user unit, which has Delegate=yes"
expect_eq "sandboxes still run" "$(sbx run -q -- echo ran)" ran
stop_daemon
done_test
