#!/bin/bash
# Soak: 1,000 runs at concurrency 50 against one daemon. Prints how many
# exit statuses were lost or wrong (must be 0) and the daemon's RSS and
# open-fd count before and after (must not grow). Not part of `make check`.
# --stream runs them in streaming mode (stdin and output as frames, as an
# IDE does), stdin /dev/null: each client's StdinClose races its command's
# exit.
#   tests/bench/soak.sh [--stream] [BUILD] [RUNS] [CONCURRENCY]
set -u
mode=
[ "${1:-}" = --stream ] && { mode=--stream; shift; }
b=$(cd "${1:-build}" && pwd)
runs=${2:-1000}
conc=${3:-50}
t=$(mktemp -d /var/tmp/sbx-soak.XXXXXX)
trap 'kill "$dpid" 2>/dev/null; rm -rf "$t"' EXIT
export XDG_RUNTIME_DIR="$t/run"
mkdir -m 700 "$t/run" "$t/ws"
sock="$t/run/sbxd.sock"
mkfifo "$t/ready"
"$b/sbxd" --socket "$sock" --ready-fd 3 3>"$t/ready" 2>"$t/sbxd.log" &
dpid=$!
read -r _ <"$t/ready"
cd "$t/ws"
mem() { awk '/VmRSS/{print $2}' "/proc/$dpid/status"; }
fds() { ls "/proc/$dpid/fd" | wc -l; }
# Warm up once so lazily allocated state is not counted as growth.
"$b/sbxctl" --no-autostart --socket "$sock" run $mode -- true </dev/null
rss0=$(mem); fd0=$(fds)
start=$(date +%s.%N)
seq 1 "$runs" | xargs -P "$conc" -I{} sh -c '
	i={}; want=$((i % 100))
	"$0" --no-autostart --socket "$1" run $2 -- sh -c "exit $want" </dev/null
	got=$?
	[ "$got" -eq "$want" ] || echo "run $i: got $got want $want"
' "$b/sbxctl" "$sock" "$mode" >"$t/bad" 2>&1
end=$(date +%s.%N)
rss1=$(mem); fd1=$(fds)
lost=$(grep -c '^run ' "$t/bad")
echo "mode: ${mode:-fd passing}"
echo "| runs | concurrency | lost/wrong exit statuses | wall s | daemon RSS KiB before -> after | daemon fds before -> after |"
echo "|---|---|---|---|---|---|"
printf '| %d | %d | %d | %.1f | %d -> %d | %d -> %d |\n' "$runs" "$conc" "$lost" \
	"$(echo "$end - $start" | bc)" "$rss0" "$rss1" "$fd0" "$fd1"
[ "$lost" -eq 0 ] && [ "$fd1" -le "$fd0" ]
