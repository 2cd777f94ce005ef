#!/bin/bash
# Privileged mode: the root daemon makes its own subtree; each sandbox's
# cgroup is root's, so the user's command cannot raise its own limits;
# the user's policy sets them; nothing is left after the run and after
# the daemon.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
need_served_user
chown "$user": "$WS"
chmod 755 "$T"
echo '{"limits": {"pids": 99, "memory": "300M"}}' >"$T/user.json"
start_daemon --user "$user" --policy "$T/user.json"
chmod 755 "$XDG_RUNTIME_DIR"
sbx() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
need_cgroups
cd "$WS"
held priv
P=$HP
D=$(cg "$P" dir pids)
expect_eq "the user's pids limit" "$(cg "$P" read pids)" 99
expect_eq "the user's memory limit" "$(cg "$P" read memory)" $((300 << 20))
expect_eq "the sandbox's cgroup is root's" "$(stat -c %U "$D")" root
expect_eq "the command runs as the user" "$(stat -c %U "/proc/$P")" "$user"
check "the user cannot raise its limit" bash -c \
	"! setpriv --reuid=$user --regid=$user --init-groups sh -c 'echo max > $D/pids.max' 2>/dev/null"
expect_eq "... it is unchanged" "$(cat "$D/pids.max")" 99
release_and_stop "$D"
done_test
