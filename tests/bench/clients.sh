#!/bin/bash
# Spawn latency through each client of a warm sbxd, interleaved in one run
# (clients.py): bare `true`, `sbxctl run true` (a sandbox of its own per
# command), `sbxctl mcp` (tools/call run_command true, N times over one
# MCP session: each an exec in the session's long-lived sandbox), and the
# Node library (clients/node, built by `make node`: one connection,
# sbx.run(["true"]) N times; node-lines.mjs) when node is there. A client
# adds its row to ROWS below (NAME|KIND|COMMAND, KIND exec, mcp or lines:
# see clients.py). Run as root: the sandboxes run as $AS_USER (default
# sbxtest, created if missing).
#   tests/bench/clients.sh [BUILD] ; RUNS=200 WARMUP=10
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
AS_USER=${AS_USER:-sbxtest}
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpid=
finish() {
	kill $dpid 2>/dev/null
	wait $dpid 2>/dev/null
	rm -rf "$root"
}
trap finish EXIT
sbxd_args=()
. "$here/bench-daemon.sh"
read -r _ <"$root/ready"
cp "$here/clients.py" "$here/node-lines.mjs" "$root/"
chmod 755 "$root/clients.py"
CTL="$root/sbxctl --no-autostart --socket $sock"
ROWS=(
	"bare true|exec|/bin/true"
	"sbxctl run true|exec|$CTL run -- true"
	"sbxctl mcp run_command true|mcp|$CTL mcp --workspace $root/ws"
)
lib=$(cd "$here/../.." && pwd)/clients/node/dist/src/index.js
if command -v node >/dev/null && [ -f "$lib" ]; then
	ROWS+=("library sbx.run(['true'])|lines|node $root/node-lines.mjs $lib $sock $root/ws")
else
	echo "(no Node library row: node or clients/node/dist missing; make node)"
fi
echo "$(date -u +%F) $(uname -m) $(nproc) CPUs, kernel $(uname -r):" \
	"tests/bench/clients.sh, RUNS=$RUNS WARMUP=$WARMUP"
cd "$root/ws"
"${as[@]}" XDG_RUNTIME_DIR="$root/run" python3 "$root/clients.py" \
	"$RUNS" "$WARMUP" "${ROWS[@]}"
