#!/bin/bash
# Session ids are never reused, across a daemon restart too: the second
# daemon's ids come after the first's, and an id of the first daemon is
# NOT_FOUND there, never another session.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }
sid_of() { sed -n 's/^session \([0-9]*\) .*/\1/p'; }

a=$(pc keep started sh -c 'echo started; exec sleep 1000' | sid_of)
b=$(pc keep started sh -c 'echo started; exec sleep 1000' | sid_of)
check "two sessions, two ids" test -n "$a" -a -n "$b" -a "$a" != "$b"
stop_daemon
start_daemon
c=$(pc keep started sh -c 'echo started; exec sleep 1000' | sid_of)
check "after a restart the ids go on past the old ones ($a $b -> $c)" \
	test -n "$c" -a "${c:-0}" -gt "${a:-0}" -a "${c:-0}" -gt "${b:-0}"
expect_eq "an id from before the restart: NOT_FOUND" \
	"$(pc attach "$a" | head -1)" "error id=21 code=8"
stop_daemon
done_test
