#!/bin/bash
# 50 concurrent runs on one daemon, each with its own exit code and output.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pids=()
for i in $(seq 1 50); do
	sbx run -- sh -c "echo out-$i; exit $((i % 100))" >"$T/out.$i" 2>&1 &
	pids[$i]=$!
done
bad=0
for i in $(seq 1 50); do
	wait "${pids[$i]}"; rc=$?
	[ "$rc" -eq $((i % 100)) ] || { echo "run $i: rc $rc"; bad=$((bad + 1)); }
	[ "$(cat "$T/out.$i")" = "out-$i" ] || { echo "run $i: output $(cat "$T/out.$i")"; bad=$((bad + 1)); }
done
expect_eq "50 concurrent runs: exit codes and outputs right" "$bad" 0
expect_eq "no session left" "$(sbx --json ps | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')" 0
stop_daemon
done_test
