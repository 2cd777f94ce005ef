#!/bin/bash
# --timeout kills the whole sandbox and says so.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
err=$(sbx run --timeout 0.3 -- sleep 1000 2>&1); rc=$?
expect_eq "timed-out command -> 137" "$rc" 137
check "timeout reported" grep -q "timed out" <<<"$err"
stop_daemon
done_test
