#!/bin/bash
# Privileged mode: a mount below the home goes back over the home overlay
# at its name, and the user writes that overlay (its upper layer) from
# sandboxes: a link of the user's on the way there, made in a sandbox
# before the mount appeared, must not send the mount elsewhere in a later
# sandbox (here over /mnt) when root attaches it. (Cloning it from the host
# follows no link either; that race has no test.)
[ "$(id -u)" -ne 0 ] || [ -n "${SBX_TEST_UNSHARED:-}" ] ||
	SBX_TEST_UNSHARED=1 exec unshare -m --propagation private "$0" "$@"
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
if sbx status | grep -q 'no home overlay'; then
	skip "this kernel cannot make the home overlay"
fi
run() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q "$@"; }
cd "$WS"
# In a sandbox: the name b in the home overlay, a link to /.
expect_eq "the user's link is made in the overlay" \
	"$(run -- sh -c "ln -s / '$H/b' && echo made")" made
check "not on the host" test ! -e "$H/b"
# On the host: a mount below the home at b/mnt (the test's own mount
# namespace: it goes with the test).
mkdir -p "$H/b/mnt"
mount -t tmpfs -o size=1m tmpfs "$H/b/mnt"
echo "MOUNTED-$$" >"$H/b/mnt/mark"
# A new template for the workspace (its policy changed) attaches the
# mounts below the home.
as sh -c "echo '{\"filesystem\": {\"denyRead\": [\"$T/nothing\"]}}' \
	>'$H/.config/sbx/policy.json'"
expect_eq "the overlay still has the user's link there" \
	"$(run -- readlink "$H/b")" /
out=$(run -- cat /mnt/mark 2>&1)
echo "$out"
check "the mount did not land on the sandbox's /mnt" \
	test "$(grep -c "MOUNTED-$$" <<<"$out")" = 0
out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- echo alive)
expect_eq "the daemon still answers" "$out" alive
umount "$H/b/mnt"
done_test
