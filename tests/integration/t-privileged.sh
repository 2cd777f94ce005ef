#!/bin/bash
# Privileged mode: root runs sbxd --user NAME; the command runs as NAME with
# no capabilities, without any user namespace, and NAME is served.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "privileged mode needs root"
user=${SBX_TEST_USER:-sbxtest}
id "$user" >/dev/null 2>&1 || skip "no user $user"
uid=$(id -u "$user")
chown "$user": "$WS"
chmod 755 "$T"
start_daemon --user "$user"
chmod 755 "$XDG_RUNTIME_DIR"
as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
cd "$WS"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- sh -c 'id -u; grep CapEff /proc/self/status; readlink /proc/self/ns/user')
expect_eq "command runs as the user" "$(sed -n 1p <<<"$out")" "$uid"
check "no capabilities" grep -q "CapEff:	0000000000000000" <<<"$out"
expect_eq "no new user namespace (host's)" "$(sed -n 3p <<<"$out")" "$(readlink /proc/self/ns/user)"
as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- sh -c 'echo x > mine'
expect_eq "file in workspace owned by the user" "$(stat -c %u "$WS/mine")" "$uid"
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -- "$BIN/sbx-probe" write /etc/sbx-priv-$$)
expect_eq "root filesystem read-only" "$out" EROFS
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" --json status)
check "status says privileged" grep -q '"run_mode": "privileged"' <<<"$out"
stop_daemon
done_test
