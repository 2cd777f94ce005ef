#!/bin/bash
# The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk,
# installed in tests/mcp-interop by tests/deps.sh) drives sbxctl mcp against
# a real daemon: initialize, listTools, callTool run_command, start, read
# and stop. On the host: the file the command wrote is in the workspace.
. "$(dirname "$0")/lib.sh"
# run-integration.sh runs from the repository's top.
DIR=$(pwd)/tests/mcp-interop
command -v node >/dev/null || skip "node not installed"
[ -d "$DIR/node_modules/@modelcontextprotocol/sdk" ] ||
	skip "the MCP SDK is not installed (tests/deps.sh runs npm ci in $DIR)"
[ -r "$DIR/interop.mjs" ] || skip "$DIR is not readable by $(id -un)"
start_daemon
cd "$WS"
SBXCTL="$BIN/sbxctl" WS="$WS" node --test "$DIR/interop.mjs" >"$T/node.log" 2>&1
rc=$?
cat "$T/node.log" >&2
expect_eq "the SDK's client passed" "$rc" 0
expect_eq "what its run_command wrote is in the workspace" \
	"$(cat "$WS/interop.txt" 2>/dev/null)" interop
stop_daemon
done_test
