#!/bin/bash
# A root daemon loop-mounts one home image per workspace (limits.home):
# it keeps at most `sbxd --home-disks N` of them mounted, so one user with
# many workspaces cannot take every loop device of the host. A workspace
# past the cap gets a clear error naming the cap and the way out, and no
# loop device or mount; the images already mounted keep working; once
# `sbxctl reset` drops one, the refused workspace gets its own.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
need_served_user
P=$BIN/sbx-probe
H=$T/home
mkdir -p "$H"
chmod 755 "$H"
home_mounts() { grep -c " $STATE/home/" /proc/self/mounts; }
loops() { losetup -a 2>/dev/null | grep -c "$STATE/home/"; }
for w in a b c; do
	mkdir -p "$T/$w/.sbx"
	echo '{"limits": {"home": "4M"}}' >"$T/$w/.sbx/policy.json"
done
peer_daemon --home "$H" --home-disks 2
chown -R "$PEER_USER": "$T/a" "$T/b" "$T/c" "$H"
grep -q 'loop-mounted' <<<"$(peer status | grep '^home quota:')" ||
	skip "no loop-mounted home images here"
check "status names the cap" grep -q "at most 2 mounted at once" \
	<<<"$(peer status | grep '^home quota:')"
for w in a b; do
	expect_eq "workspace $w gets its image" \
		"$(cd "$T/$w" && peer run -- "$P" write "$H/f-$w" x)" ok
done
expect_eq "two images mounted" "$(home_mounts)" 2
before=$(loops)
out=$(cd "$T/c" && peer run -- "$P" write "$H/f-c" x 2>&1); rc=$?
check "a third workspace is refused ($rc)" test "$rc" -ne 0
check "with an error naming the cap and the way out ($out)" grep -q \
	"home images of 2 workspaces are mounted, the most sbxd --home-disks allows.*sbxctl reset" \
	<<<"$out"
expect_eq "no third mount" "$(home_mounts)" 2
expect_eq "no loop device taken for it" "$(loops)" "$before"
check "no image made for it" \
	test "$(find "$STATE/home" -name home.img | wc -l)" -eq 2
expect_eq "the mounted ones still work" \
	"$(cd "$T/a" && peer run -- "$P" read "$H/f-a")" ok
(cd "$T/b" && peer reset >/dev/null)
expect_eq "reset drops one" "$(home_mounts)" 1
expect_eq "then the third workspace gets its image" \
	"$(cd "$T/c" && peer run -- "$P" write "$H/f-c" x)" ok
expect_eq "two mounted again" "$(home_mounts)" 2
stop_daemon
done_test
