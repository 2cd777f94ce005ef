#!/bin/bash
# Privileged mode (a root daemon serving the test user): git config in
# the workspace's repository, made before the run, works for keys that
# run nothing, through the same in-place write as in user mode, leaving
# the config the user's; a key that runs a program is refused, the host
# config unchanged; a clone with .vscode works, and .vscode at the
# workspace's root stays refused.
. "$(dirname "$0")/lib.sh"
need_served_user
export GIT_CONFIG_NOSYSTEM=1
H=$T/home
mkdir -p "$H" "$T/fix"
(cd "$T/fix" && git init -q -b main && mkdir .vscode &&
	echo '{}' >.vscode/settings.json && git add . &&
	git -c user.email=t@t -c user.name=t commit -qm one)
chmod -R a+rX "$T/fix"
(cd "$WS" && git init -q -b main && echo a >a && git add a &&
	git -c user.email=t@t -c user.name=t commit -qm one)
chown -R "$user": "$H" "$WS" "$T/fix"
chmod 755 "$T"
ctl() { as env HOME="$H" GIT_CONFIG_NOSYSTEM=1 "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
out=$(ctl run -q -- git config user.email agent@example.com 2>&1)
expect_eq "git config user.email ($out)" "$?" 0
expect_eq "on the host" "$(git config --file "$WS/.git/config" user.email)" agent@example.com
expect_eq "the config still the user's" "$(stat -c %U "$WS/.git/config")" "$user"
sum=$(sha256sum <"$WS/.git/config")
out=$(ctl run -- git config core.hooksPath /tmp/h 2>&1)
check "core.hooksPath refused ($out)" grep -q "sbx: .*\.git/config (core.hookspath: " <<<"$out"
expect_eq "host config unchanged" "$(sha256sum <"$WS/.git/config")" "$sum"
out=$(ctl run -q -- git clone -q --no-local "$T/fix" cl 2>&1)
expect_eq "clone with .vscode ($out)" "$(cat "$WS/cl/.vscode/settings.json" 2>&1)" "{}"
out=$(ctl run -q -- mkdir .vscode 2>&1)
check "mkdir .vscode at the root refused ($out)" test ! -e "$WS/.vscode"
stop_daemon
done_test
