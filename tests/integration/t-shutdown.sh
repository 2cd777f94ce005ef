#!/bin/bash
# SIGTERM to sbxd: sessions are stopped and their clients told; a command
# that ignores SIGTERM is SIGKILLed; the daemon exits 0.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
mkfifo "$T/o1" "$T/o2"
sbx run -- sh -c 'echo ready; exec sleep 1000' >"$T/o1" 2>"$T/e1" &
c1=$!
sbx run -- sh -c 'trap "" TERM; echo ready; while :; do read x; done' >"$T/o2" 2>"$T/e2" </dev/zero &
c2=$!
exec 8<"$T/o1" 9<"$T/o2"
read -r a <&8; read -r b <&9
expect_eq "both sessions started" "$a$b" readyready
inits=$(sbx --json ps | "$PY" -c 'import json,sys; print(" ".join(str(s["pid"]) for s in json.load(sys.stdin)))')
kill -TERM "$DPID"
wait "$DPID"; rc=$?
DPID=
expect_eq "sbxd exits 0" "$rc" 0
wait "$c1"; expect_eq "plain command ends by SIGTERM (143)" $? 143
wait "$c2"; expect_eq "TERM-ignoring command is SIGKILLed (137)" $? 137
check "client told about the shutdown" grep -q "shutting down" "$T/e1"
for p in $inits; do check "sandbox $p gone" test ! -d "/proc/$p"; done
check "socket removed" test ! -e "$SOCK"
done_test
