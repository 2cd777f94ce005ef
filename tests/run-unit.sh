#!/bin/sh
# Runs each unit-test binary given; fails if any fails. UNIT_RUNNER, when
# set, runs them (make cross-check: "qemu-aarch64 -L SYSROOT").
build=$1; shift
fail=0; n=0
for t in "$@"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! ${UNIT_RUNNER:-} "$t"; then echo "FAIL: $t"; fail=$((fail + 1)); fi
done
echo "unit: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
