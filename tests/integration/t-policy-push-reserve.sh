#!/bin/bash
# When the file system of the state dir is full, an org push still
# succeeds: the push store keeps a reserve (STATE/org/.reserve, allocated
# at start-up) that a push releases before it writes. Sandboxes' home
# layers are bounded (limits.home, t-home-limit), but many workspaces, or
# anything else on that file system, can still fill it: here a host
# process does. The state dir is a small tmpfs the test mounts (root
# only); privileged mode, where org policies bind.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "mounting the small state file system needs root"
. "$HERE/policy-lib.sh"
P=$BIN/sbx-probe
mount -t tmpfs -o size=8m,mode=755 sbx-test-state "$STATE" ||
	skip "cannot mount a tmpfs"
trap 'umount "$STATE" 2>/dev/null; cleanup' EXIT
H=$T/home
mkdir -p "$H"
chmod 755 "$H"
signed_org 2
peer_daemon --home "$H"
chown "$PEER_USER": "$H"
cd "$WS"
check "the reserve is allocated at start-up" \
	test "$(stat -c %b "$STATE/org/.reserve")" -ge 2048
check "a sandbox runs" peer run -- true
check "something else fills the state file system" \
	bash -c "! dd if=/dev/zero of='$STATE/filler' bs=64k 2>/dev/null"
avail=$(df --output=avail -k "$STATE" | tail -1)
check "the state file system is full ($avail KiB left)" test "$avail" -lt 64
out=$(peer policy push "$T/org.json" --sig "$T/org.json.sig" 2>&1); rc=$?
expect_eq "the signed push still succeeds ($out)" "$rc" 0
check "policy stored" test -s "$STATE/org/pushed-0000000000000002.json"
check "signature stored" test -s "$STATE/org/pushed-0000000000000002.json.sig"
expect_eq "and in force for the next run" \
	"$(peer run -- "$P" read "$T/secret.txt")" EACCES
stop_daemon
done_test
