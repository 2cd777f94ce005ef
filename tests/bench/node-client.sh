#!/bin/bash
# Spawn latency through the Node client (clients/node, built by `make
# node`): one connection, sbx.run(["true"]) N times, side by side in one run
# with `sbxctl run -- true` and a bare `true` (node-spawn.mjs interleaves
# them round by round). Run as root: the daemon and the client run as
# $AS_USER (default sbxtest, created if missing). Prints a markdown table.
#   tests/bench/node-client.sh [BUILD] ; RUNS=200 WARMUP=20
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}
AS_USER=${AS_USER:-sbxtest}
lib=$top/clients/node/dist/src/index.js
[ -f "$lib" ] || { echo "clients/node is not built: make node"; exit 1; }
root=$(mktemp -d /var/tmp/sbx-bench.XXXXXX)
dpid=
trap 'kill $dpid 2>/dev/null; rm -rf "$root"' EXIT
sbxd_args=()
. "$here/bench-daemon.sh"
read -r _ <"$root/ready"
cp "$here/node-spawn.mjs" "$root/"
echo "## spawn latency through clients/node ($(nproc) cores, $(uname -r)," \
	"as ${AS_USER}, node $(node --version), $RUNS runs, $(date -u +%Y-%m-%d))"
echo
"${as[@]}" node "$root/node-spawn.mjs" "$lib" "$sock" "$root/sbxctl" \
	"$root/ws" "$RUNS" "$WARMUP"
