#!/bin/bash
# A workspace's /tmp and /var/tmp are one tmpfs of limits.tmp bytes (a
# workspace policy lowers it here to 4M): a write past it fails with
# ENOSPC inside, and nothing of it is on the host (the daemon's runtime
# dir does not grow). Its content is kept for the workspace's next run
# while a session of the workspace runs and for the idle time after the
# last one (sbxd --tmp-idle), then dropped: the next run finds /tmp empty.
# ps and status show usage and limit; sbxctl reset drops it too.
# Privileged mode the same.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
mkdir "$WS/.sbx"
echo '{"limits": {"tmp": "4M"}}' >"$WS/.sbx/policy.json"

# run_du: kilobytes of the runtime dir.
run_du() { du -sk "$XDG_RUNTIME_DIR" | cut -f1; }

start_daemon
cd "$WS"
before=$(run_du)
expect_eq "3 MiB fit in /tmp" "$(sbx run -- "$P" fill /tmp/a 3)" ok
expect_eq "2 more MiB in /var/tmp do not: ENOSPC" \
	"$(sbx run -- "$P" fill /var/tmp/b 2)" ENOSPC
expect_eq "nor 8 MiB in /tmp: ENOSPC" "$(sbx run -- "$P" fill /tmp/c 8)" ENOSPC
after=$(run_du)
check "the runtime dir did not grow ($before KiB, then $after KiB)" \
	test "$after" -lt $((before + 512))
check "no file of it on the host" \
	test -z "$(find "$T" -name a -o -name c 2>/dev/null | grep -v "^$WS")"
expect_eq "kept for the next run of the workspace" \
	"$(sbx run -- stat -c %s /tmp/a)" 3145728
out=$(sbx --json status)
expect_eq "status: the workspace's /tmp limit" \
	"$("$PY" -c 'import json,sys; d=[x for x in json.load(sys.stdin)["disks"] if x["workspace"]==sys.argv[1]]; print(d[0]["tmp_limit"])' "$WS" <<<"$out")" 4194304
check "status: its usage (3 MiB at least)" "$PY" -c '
import json, sys
d = [x for x in json.load(sys.stdin)["disks"] if x["workspace"] == sys.argv[1]]
sys.exit(0 if d[0]["tmp_used"] >= 3 << 20 else 1)' "$WS" <<<"$out"
check "status text names it" grep -q "^workspace:  $WS: /tmp [0-9.]*M/4M, home" \
	<<<"$(sbx status)"
# Another workspace has its own, with the default limit.
mkdir "$T/ws2"
expect_eq "another workspace's /tmp is its own" \
	"$(sbx run --workspace "$T/ws2" -C "$T/ws2" -- "$P" read /tmp/a)" ENOENT
expect_eq "and has more room (the default limit)" \
	"$(sbx run --workspace "$T/ws2" -C "$T/ws2" -- "$P" fill /tmp/d 8)" ok
expect_eq "reset drops the workspace's /tmp" \
	"$(sbx reset >/dev/null && sbx run -- "$P" read /tmp/a)" ENOENT
stop_daemon

# The idle time: kept while a session runs, dropped once the last ends.
start_daemon --tmp-idle 0.001
mkfifo "$WS/go"
sbx run -- sh -c 'echo held >/tmp/h && cat "$0"/go' "$WS" &
bg=$!
wait_for "the first session's file" \
	sh -c '[ "$(sbx run -- cat /tmp/h 2>/dev/null)" = held ]'
ps=$(sbx --json ps)
check "ps: the running session's /tmp usage and limit" "$PY" -c '
import json, sys
s = json.load(sys.stdin)
sys.exit(0 if any(x["tmp_limit"] == 4 << 20 and x["tmp_used"] > 0 for x in s) else 1)' <<<"$ps"
check "ps text shows it" grep -q ' [0-9.]*[BKM]/4M ' <<<"$(sbx ps)"
echo >"$WS/go"
wait "$bg"
no_disk() { ! sbx --json status | grep -q "\"workspace\": \"$WS\""; }
wait_for "the workspace's /tmp dropped" no_disk
expect_eq "after the last session and the idle time /tmp is empty" \
	"$(sbx run -- "$P" read /tmp/h)" ENOENT
stop_daemon

# Privileged mode: root makes the tmpfs; the user's sandbox fills it.
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	need_served_user
	chown -R "$user": "$WS"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	sbxu() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
	before=$(du -sk /run/sbx/"$(id -u "$user")" | cut -f1)
	expect_eq "privileged: /tmp writable by the user" \
		"$(sbxu run -- "$P" fill /tmp/a 3)" ok
	expect_eq "privileged: past the limit ENOSPC" \
		"$(sbxu run -- "$P" fill /tmp/b 3)" ENOSPC
	after=$(du -sk /run/sbx/"$(id -u "$user")" | cut -f1)
	check "privileged: root's runtime dir did not grow" \
		test "$after" -lt $((before + 512))
	expect_eq "privileged: the files are the user's" \
		"$(sbxu run -- stat -c %U /tmp/a)" "$user"
	stop_daemon
fi
done_test
