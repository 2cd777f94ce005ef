#!/bin/bash
# Hostile frames: each gets an Error and its connection closes, while a
# session on another connection keeps running and finishes normally.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
mkfifo "$T/in" "$T/out"
# A live session: waits for a line on stdin, then echoes it.
sbx run -- sh -c 'echo started; read x; echo "got $x"' <"$T/in" >"$T/out" 2>&1 &
live=$!
exec 7>"$T/in" 8<"$T/out"
read -r line <&8
expect_eq "live session started" "$line" started

raw() { "$PY" "$HERE/rawclient.py" "$SOCK" "$1"; }
expect_eq "oversized frame" "$(raw oversize)" "error 1 closed"
expect_eq "truncated frame" "$(raw truncated)" "error 1 closed"
expect_eq "garbage bytes" "$(raw garbage)" "error 1 closed"
expect_eq "unknown message" "$(raw unknown)" "error 2 closed"
expect_eq "empty envelope" "$(raw empty)" "error 2 closed"
expect_eq "request before hello" "$(raw before-hello)" "error 3 closed"
expect_eq "second hello" "$(raw second-hello)" "error 3 closed"
expect_eq "wrong protocol version" "$(raw bad-version)" "error 4 closed"
expect_eq "a reply sent as a request" "$(raw reply-as-request)" "error 2 closed"
expect_eq "run without its fds (fds and frames no longer line up)" "$(raw run-missing-fds)" "error 1 closed"
check "daemon still alive" kill -0 "$DPID"

echo hello >&7
exec 7>&-
read -r line <&8
wait "$live"; rc=$?
expect_eq "live session exit code" "$rc" 0
expect_eq "live session output" "$line" "got hello"
expect_eq "a new run still works" "$(sbx run -- echo fine)" fine
stop_daemon
done_test
