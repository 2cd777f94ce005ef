#!/bin/bash
# Latency of a command in a long-lived sandbox, side by side in one run:
# bare `true`, `sbxctl run -- true` (a sandbox of its own, warm daemon,
# template held) and `sbxctl sandbox exec ID -- true` (the same sandbox
# each time), both with fd passing and with --stream. Run as root: the
# sandboxes run as $AS_USER (default sbxtest, created if missing) with a
# clean environment. Needs hyperfine and python3. Prints a markdown table;
# p50 is the median.
#   tests/bench/exec.sh [BUILD] ; RUNS=100 WARMUP=10 ...
set -eu
b=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-100}
WARMUP=${WARMUP:-10}
AS_USER=${AS_USER:-sbxtest}
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 1; }
# Not under /tmp: sandboxes have a private one.
root=$(mktemp -d /var/lib/sbx-bench.XXXXXX)
dpid=
trap 'kill $dpid 2>/dev/null; rm -rf "$root"' EXIT
sbxd_args=(--state-dir "$root/run/state")
. "$(dirname "$0")/bench-daemon.sh"
read -r _ <"$root/ready"
ctl="$root/sbxctl --no-autostart --socket $sock"
ws=$root/ws
# The template is built before anything is timed, and the sandbox made.
"${as[@]}" env -C "$ws" $ctl run -- true
id=$("${as[@]}" env -C "$ws" $ctl sandbox create --idle 3600)
"${as[@]}" env -C "$ws" $ctl sandbox exec "$id" -- true
(cd "$ws" && "${as[@]}" hyperfine -N -i --style none --warmup "$WARMUP" \
	--runs "$RUNS" --export-json "$root/out/exec.json" \
	-n "bare true" "true" \
	-n "sbx run true" "$ctl run -- true" \
	-n "sbx sandbox exec true" "$ctl sandbox exec $id -- true" \
	-n "sbx run --stream true" "$ctl run --stream -- true" \
	-n "sbx sandbox exec --stream true" \
	"$ctl sandbox exec $id --stream -- true" >"$root/out/log" 2>&1) ||
	{ tail -20 "$root/out/log"; exit 1; }
echo "## a command in a long-lived sandbox ($(nproc) cores, $(uname -r), sandboxes as ${AS_USER}, $RUNS runs)"
echo
python3 "$here/hf-median.py" "$root/out/exec.json"
