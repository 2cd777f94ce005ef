#!/bin/bash
# The Node client (clients/node) against real daemons: `node --test` runs
# its tests, each file starting a private sbxd (clients/node/test/daemon.ts,
# as start_daemon does here): 50 MB through cat byte for byte, stdin paced
# by credit, a pty session (tty, stty size and resize, ^C), attach after
# the first connection closed, approvals answered by a run's handler and by
# the broker, lifecycle events, typed errors, describe and policy queries,
# long-lived sandboxes, autostart. `make node` builds them (make check does,
# before this).
. "$(dirname "$0")/lib.sh"
. "$HERE/node-lib.sh"
# The tests' scratch directories go under this test's, removed with it.
SBX_TEST_TMP=$T SBX_BIN=$BIN node --test --test-concurrency=2 \
	"$nd"/dist/test/*.test.js >"$T/node.log" 2>&1
node_result $?
done_test
