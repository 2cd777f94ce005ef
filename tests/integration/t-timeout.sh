#!/bin/bash
# --timeout stops the command with SIGTERM (SIGKILL for the sandbox after
# the grace) and says so.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
err=$(sbx run --timeout 0.3 -- sleep 1000 2>&1); rc=$?
expect_eq "timed-out command: SIGTERM -> 143" "$rc" 143
check "timeout reported" grep -q "timed out" <<<"$err"
stop_daemon
done_test
