#!/bin/bash
# limits.home bounds what a workspace's home layer takes on the host.
# A root daemon (privileged mode here) keeps each workspace's layer on an
# ext4 file system of limits.home bytes in a sparse image of its own,
# loop-mounted: a sandbox writing past it gets ENOSPC, the state file
# system grows by at most the limit, the exit status and a `limit` event
# name limits.home and the layer, and an org push still succeeds. The
# state dir is a small tmpfs the test mounts, so "bounded" is measured.
# A user's daemon (no loop mounts) measures the layer after each run: the
# run that went past the limit is reported, the next runs of the workspace
# get a read-only home (EROFS) until the layer is reset or the limit
# raised.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
. "$HERE/violations-lib.sh"
. "$HERE/limits-lib.sh"
H=$T/home
mkdir -p "$H" "$WS/.sbx"
chmod 755 "$H"
echo '{"limits": {"home": "8M"}}' >"$WS/.sbx/policy.json"
home_mounts() { grep -c " $STATE/home/" /proc/self/mounts; }

if [ "$(id -u)" -ne 0 ]; then
	start_daemon --home "$H"
	sbx status | grep -q 'no home overlay' && skip "no home overlay here"
	expect_eq "status: how limits.home is enforced" \
		"$(sbx status | grep '^home quota:')" \
		"home quota: limits.home checked after each run (no loop mount without root in the host's user namespace): past it the workspace's home is read-only until sbxctl reset"
	cd "$WS"
	subscribe ev --json --count 1
	sbx run -- "$P" fill "$H/big" 12 2>"$T/err"
	expect_eq "the run past the limit ends" $? 0
	check "its exit status names the limit and the rule" grep -q \
		"limit hit: home limit 8 MiB (policy workspace, limits.home)" "$T/err"
	wait_exit "$SUB" 20 || kill "$SUB"
	check "a limit event names limits.home" limit_event "$T/ev" home workspace
	check "... and the layer" grep -q "$STATE/home/" "$T/ev"
	expect_eq "the next run's home is read-only" \
		"$(sbx run -- "$P" write "$H/more" x)" EROFS
	check "and says why" grep -q "home is read-only: its layer is over limits.home" \
		<<<"$(sbx run -- true 2>&1)"
	echo '{"limits": {"home": "64M"}}' >"$WS/.sbx/policy.json"
	sbx run -- true 2>/dev/null # measured under the raised limit
	expect_eq "a raised limit: the next run's home is writable" \
		"$(sbx run -- "$P" write "$H/more" x 2>/dev/null)" ok
	echo '{"limits": {"home": "8M"}}' >"$WS/.sbx/policy.json"
	sbx run -- true 2>/dev/null # over it again
	expect_eq "over it again: read-only" \
		"$(sbx run -- "$P" write "$H/more" x 2>/dev/null)" EROFS
	sbx reset >/dev/null
	# The measure cannot be dodged: a directory the walk cannot read
	# counts as over the limit.
	sbx run -- sh -c 'mkdir "$1/hid"; "$0" fill "$1/hid/big" 12 >/dev/null; chmod 0 "$1/hid"' \
		"$P" "$H" 2>/dev/null
	expect_eq "a layer filled in an unreadable directory: read-only" \
		"$(sbx run -- "$P" write "$H/more" x 2>/dev/null)" EROFS
	sbx reset >/dev/null
	expect_eq "after reset the home is writable again" \
		"$(sbx run -- "$P" write "$H/more" x)" ok
	stop_daemon
	done_test
fi

need_served_user
# Under the default (an eighth of the state file system: 6M here): a
# workspace may only lower it.
echo '{"limits": {"home": "4M"}}' >"$WS/.sbx/policy.json"
mount -t tmpfs -o size=48m,mode=755 sbx-test-state "$STATE" ||
	skip "cannot mount a tmpfs"
signed_org 2
peer_daemon --home "$H"
chown "$PEER_USER": "$H"
cd "$WS"
expect_eq "status: how limits.home is enforced" \
	"$(peer status | grep '^home quota:')" \
	"home quota: an ext4 image of limits.home bytes per workspace (loop-mounted, at most 32 mounted at once)"
before=$(df --output=used -k "$STATE" | tail -1)
expect_eq "2 MiB fit in the home" "$(peer run -- "$P" fill "$H/a" 2)" ok
subscribe ev --json --count 1
expect_eq "a sandbox writing 64 MiB to its home: ENOSPC" \
	"$(peer run -- "$P" fill "$H/big" 64 2>"$T/err")" ENOSPC
check "its exit status names the limit and the rule" grep -q \
	"limit hit: home limit 4 MiB (policy workspace, limits.home)" "$T/err"
wait_exit "$SUB" 20 || kill "$SUB"
check "a limit event names limits.home" limit_event "$T/ev" home workspace
check "... and the layer" grep -q "$STATE/home/" "$T/ev"
after=$(df --output=used -k "$STATE" | tail -1)
check "the state file system grew by at most the limit ($before KiB, then $after KiB)" \
	test "$after" -le $((before + 4096 + 1024))
expect_eq "what fitted is kept for the next run" \
	"$(peer run -- stat -c %s "$H/a")" 2097152
expect_eq "the layer's files are the user's" \
	"$(peer run -- stat -c %U "$H/a")" "$PEER_USER"
expect_eq "the layer is one mount" "$(home_mounts)" 1
check "its image is root's, not the user's" \
	test "$(find "$STATE/home" -name home.img -user 0 -perm 0600 | wc -l)" -eq 1
check "the next runs do not report it again" \
	test -z "$(peer run -- true 2>&1)"
check "status shows the layer's usage against the limit" "$PY" -c '
import json, sys
d = [x for x in json.load(sys.stdin)["disks"] if x["workspace"] == sys.argv[1]]
sys.exit(0 if d[0]["home_limit"] == 4 << 20 and d[0]["home_used"] >= 2 << 20 else 1)' \
	"$WS" <<<"$(peer --json status)"
out=$(peer policy push "$T/org.json" --sig "$T/org.json.sig" 2>&1); rc=$?
expect_eq "a signed org push still succeeds ($out)" "$rc" 0
expect_eq "and is in force for the next run" \
	"$(peer run -- "$P" read "$T/secret.txt")" EACCES
peer reset >/dev/null
expect_eq "reset unmounts the layer" "$(home_mounts)" 0
check "and removes its image" \
	test -z "$(find "$STATE/home" -name home.img)"
expect_eq "the next run gets an empty one" "$(peer run -- "$P" read "$H/a")" ENOENT
stop_daemon
expect_eq "the daemon unmounts the layers at exit" "$(home_mounts)" 0
# A new daemon mounts the kept image again, with the files in it.
peer_daemon --home "$H"
expect_eq "a later daemon's run writes the layer" \
	"$(peer run -- "$P" fill "$H/c" 1)" ok
stop_daemon
peer_daemon --home "$H"
expect_eq "and the next daemon's run sees it" \
	"$(peer run -- stat -c %s "$H/c")" 1048576
kill -KILL "$DPID"; wait "$DPID" 2>/dev/null; DPID=
expect_eq "a daemon killed outright leaves its layer mounted" \
	"$(home_mounts)" 1
peer_daemon --home "$H"
expect_eq "the next one unmounts it at start-up" "$(home_mounts)" 0
expect_eq "and its run mounts it again, files kept" \
	"$(peer run -- stat -c %s "$H/c")" 1048576
stop_daemon
done_test
