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
command -v node >/dev/null || skip "node not installed (tests/deps.sh installs it)"
# run-integration.sh runs tests from the repository's top.
nd=$PWD/clients/node
if [ ! -f "$nd/dist/test/stream.test.js" ]; then
	fail "clients/node is not built (make node)"
	done_test
fi
# The tests' scratch directories go under this test's, removed with it.
SBX_TEST_TMP=$T SBX_BIN=$BIN node --test --test-concurrency=2 \
	"$nd"/dist/test/*.test.js >"$T/node.log" 2>&1
rc=$?
grep -E '^(not )?ok ' "$T/node.log"
grep -q '^ok ' "$T/node.log" || fail "node --test ran nothing"
if [ $rc -ne 0 ]; then
	fail "node --test: $(grep -c '^not ok' "$T/node.log") failed"
	grep -A25 '^not ok' "$T/node.log"
fi
done_test
