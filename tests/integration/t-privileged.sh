#!/bin/bash
# Privileged mode: root runs sbxd --user NAME; the command runs as NAME with
# no capabilities, without any user namespace, and NAME is served.
. "$(dirname "$0")/lib.sh"
need_served_user
uid=$(id -u "$user")
chown "$user": "$WS"
chmod 755 "$T"
start_daemon --user "$user"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- sh -c 'id -u; grep CapEff /proc/self/status; readlink /proc/self/ns/user')
expect_eq "command runs as the user" "$(sed -n 1p <<<"$out")" "$uid"
check "no capabilities" grep -q "CapEff:	0000000000000000" <<<"$out"
expect_eq "no new user namespace (host's)" "$(sed -n 3p <<<"$out")" "$(readlink /proc/self/ns/user)"
as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- sh -c 'echo x > mine'
expect_eq "file in workspace owned by the user" "$(stat -c %u "$WS/mine")" "$uid"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- "$BIN/sbx-probe" write /etc/sbx-priv-$$)
expect_eq "root filesystem read-only" "$out" EROFS
# Protected paths that do not exist yet: the supervisor makes files as the
# user (not root), with the command's umask, and refuses protected names.
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- "$BIN/sbx-probe" create .mcp.json)
expect_eq "new protected name refused" "$out" EPERM
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- sh -c 'umask 027; git init -q r && echo x > r/f && git -C r add f && git -C r -c user.email=a@b -c user.name=n commit -qm c && echo ok' 2>/dev/null)
expect_eq "git init, add, commit" "$out" ok
expect_eq "the new repo's config is the user's" "$(stat -c %u "$WS/r/.git/config")" "$uid"
expect_eq "a file made with the command's umask" "$(stat -c %u:%a "$WS/r/f")" "$uid:640"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- "$BIN/sbx-probe" create r/.git/hooks/pre-commit)
expect_eq "no hook in the new repo" "$out" EPERM
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" --json status)
check "status says privileged" grep -q '"run_mode": "privileged"' <<<"$out"
stop_daemon
done_test
