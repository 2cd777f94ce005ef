#!/bin/bash
# A daemon killed outright leaves its cgroup subtree behind (its
# sandboxes' cgroups, emptied as they die); the next daemon removes it at
# start, in every hierarchy.
. "$(dirname "$0")/lib.sh"
. "$HERE/limits-lib.sh"
start_daemon
need_cgroups
cd "$WS"
sbx run -q -- true
OLD=()
for c in pids memory; do OLD+=("$(cg "$DPID" subtree "$c")"); done
check "the daemon's subtree exists" test -d "${OLD[0]}"
kill -KILL "$DPID"
wait "$DPID"
DPID=
empty() { ! cat "$1"/s-*/cgroup.procs 2>/dev/null | grep -q .; }
for d in "${OLD[@]}"; do wait_for "the killed daemon's sandboxes are gone" empty "$d"; done
check "its subtree is left behind" test -d "${OLD[0]}"
rm -f "$SOCK"
start_daemon
for d in "${OLD[@]}"; do check "the next daemon removed $d" test ! -e "$d"; done
stop_daemon
done_test
