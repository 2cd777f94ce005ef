# Shared by t-node-client and t-node-client-priv (sourced after lib.sh):
# where the built Node client is, and node --test's result as checks.
command -v node >/dev/null || skip "node not installed (tests/deps.sh installs it)"
# run-integration.sh runs tests from the repository's top.
nd=$PWD/clients/node
if [ ! -f "$nd/dist/test/stream.test.js" ]; then
	fail "clients/node is not built (make node)"
	done_test
fi

# node_result RC: node --test's lines in $T/node.log, a failure for each
# test that failed (and for none run at all).
node_result() {
	grep -E '^(not )?ok ' "$T/node.log"
	grep -q '^ok ' "$T/node.log" || fail "node --test ran nothing"
	if [ "$1" -ne 0 ]; then
		fail "node --test: $(grep -c '^not ok' "$T/node.log") failed"
		grep -A25 '^not ok' "$T/node.log"
	fi
}
