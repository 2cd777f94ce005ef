#!/bin/bash
# sbxd's path arguments given relative to where it was started: the daemon
# changes to / once running, so it makes them absolute first: a relative
# --policy is the file next to where sbxd started (its denyRead applies).
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
echo secret >"$WS/token.txt"
mkdir -p "$T/cfg"
cat >"$T/cfg/policy.json" <<JSON
{ "filesystem": { "denyRead": ["$WS/token.txt"] } }
JSON
cd "$T/cfg"
start_daemon --policy policy.json
cd "$WS"
expect_eq "a relative --policy is read" \
	"$(sbx run -- "$P" read "$WS/token.txt")" EACCES
stop_daemon
# Relative to a directory that is gone by the time the daemon starts:
# refused with the reason, not started on a path that means another file.
mkdir "$T/gone" && cd "$T/gone" && rmdir "$T/gone"
# (timeout: only so a daemon that wrongly starts does not hold the test.)
out=$(timeout 30 "$BIN/sbxd" --socket "$SOCK" --policy policy.json 2>&1)
rc=$?
expect_eq "no working directory: sbxd refuses to start (usage)" "$rc" 2
check "and says why ($out)" grep -q "cannot make it absolute" <<<"$out"
done_test
