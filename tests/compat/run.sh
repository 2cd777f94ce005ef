#!/bin/sh
# The compatibility suite: every tests/compat/c-*.sh scenario, bare and
# then sandboxed, compared (tests/compat/compat-lib.sh), as the invoking
# user and again as the test user when root, by the integration runner.
# Prints a table: scenario, bare, sandboxed, same?
#   tests/compat/run.sh [BUILD] ; COMPAT="git-clone tmux" for a subset
top=$(cd "$(dirname "$0")/../.." && pwd)
only=
for c in ${COMPAT:-}; do only="$only c-${c#c-}"; done
SBX_SUITE=compat SBX_SUITE_PREFIX=c SBX_TESTS="$only" \
	SBX_TABLE_HEAD="SCENARIO,BARE,SANDBOXED,SAME?,RUN" \
	exec "$top/tests/run-integration.sh" "${1:-build}"
