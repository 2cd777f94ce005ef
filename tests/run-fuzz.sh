#!/bin/sh
# Smoke-runs every fuzz target for a few seconds on its seed corpus
# (tests/fuzz/corpus/NAME/ when present). A crash fails the check.
dir=$1; secs=${2:-10}
fail=0
for t in "$dir"/fuzz-*; do
	[ -x "$t" ] || continue
	name=$(basename "$t" | sed 's/^fuzz-//')
	work=$(mktemp -d)
	seeds=tests/fuzz/corpus/$name
	[ -d "$seeds" ] || seeds=
	if ! "$t" -max_total_time="$secs" -max_len=65536 -print_final_stats=0 \
		"$work" $seeds >"$work.log" 2>&1; then
		echo "FAIL: fuzz $name"; tail -40 "$work.log"; fail=1
	else
		echo "fuzz $name: $(grep -o 'Done [0-9]* runs' "$work.log" | head -1)"
	fi
	rm -rf "$work" "$work.log"
done
exit $fail
