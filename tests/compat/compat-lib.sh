# Shared by the compatibility scenarios (sourced; tests/compat/run.sh runs
# them). A scenario is run twice in the same fresh state at the same
# paths: bare, then under `sbxctl run` against the test's private daemon
# (tests/integration/lib.sh); its output, exit status and the files it
# leaves in the workspace (a list with modes and hashes) are compared. A
# scenario defines:
#   fixture   (optional) made once, outside the workspace ($T/fix)
#   setup     (optional) run on the host in the emptied workspace before
#             each of the two runs
#   body      prints the script both runs execute (bash, stdin /dev/null)
#   CWD       the directory below $WS both run in (also the workspace)
#   RUN_ENV   an array of NAME=VALUE both runs get in their environment
#   IGNORE    an extended regex of workspace paths left out of the file
#             comparison (what differs between two bare runs: timestamps,
#             git's index)
#   expect_sandboxed, expect_files (optional) filters turning the bare
#             run's output or file list into what the sandboxed run must
#             give by design (a withheld variable, git's sample hooks that
#             the sandbox accepts and discards); the table then says "by
#             design" when that is the only difference
#   EXPECT_RC (optional) the sandboxed run's exit status by design, when
#             it is not the bare run's
#   BODY      (optional) the script's file name (body.sh): sbxctl's
#             notes after a failing command look at its command line
#   after_sbx (optional) more checks once both runs are compared (what
#             makes a difference by design acceptable)
# and calls compat_main. The result goes to the runner as one line
# "TABLE|scenario|bare|sandboxed|same?".
. "$(dirname "$0")/../integration/lib.sh"
CWD=${CWD:-}
BODY=${BODY:-body.sh}
IGNORE=${IGNORE:-'^$'}
RUN_ENV=()
SCENARIO=$(basename "$0" .sh)
SCENARIO=${SCENARIO#c-}
# A fixed identity and clock for git, so both runs make the same objects.
export GIT_AUTHOR_NAME=compat GIT_AUTHOR_EMAIL=compat@example.invalid \
	GIT_COMMITTER_NAME=compat GIT_COMMITTER_EMAIL=compat@example.invalid \
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' GIT_CONFIG_NOSYSTEM=1
mkdir -p "$T/fix" "$T/home"
chmod 755 "$T/fix"

# The workspace emptied, as at the start.
ws_reset() {
	chmod -R u+rwX "$WS" 2>/dev/null
	find "$WS" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
}

# Type, mode, path and content hash of everything in the workspace that
# IGNORE does not name.
ws_snapshot() {
	(cd "$WS" && find . -mindepth 1 -printf '%P\t%y\t%m\n' |
		LC_ALL=C sort |
		while IFS=$'\t' read -r p y m; do
			[[ $p =~ $IGNORE ]] && continue
			h=-
			[ "$y" = f ] && h=$(sha256sum <"$p" | cut -c1-16)
			[ "$y" = l ] && h=$(readlink "$p")
			printf '%s %s %s %s\n' "$y" "$m" "$h" "$p"
		done)
}

# run_bare / run_sbx: the body in $WS/$CWD; output (stdout and stderr
# together) to $T/OUT.out, status to $T/OUT.rc. sbxctl's own lines
# ("sbx: ...", after a failing command) go to $T/sbx.notes, not into the
# command's output.
run_bare() {
	(cd "$WS/$CWD" && env ${RUN_ENV[@]+"${RUN_ENV[@]}"} \
		timeout 120 bash "$T/$BODY" </dev/null >"$T/bare.out" 2>&1)
	echo $? >"$T/bare.rc"
}
run_sbx() {
	(cd "$WS/$CWD" && env ${RUN_ENV[@]+"${RUN_ENV[@]}"} \
		timeout 120 sbx run -C "$WS/$CWD" -- bash "$T/$BODY" \
		</dev/null >"$T/sbx.raw" 2>&1)
	echo $? >"$T/sbx.rc"
	grep -v '^sbx: ' "$T/sbx.raw" >"$T/sbx.out"
	grep '^sbx: ' "$T/sbx.raw" >"$T/sbx.notes"
}

compat_main() {
	local same=yes want wantf
	start_daemon
	if declare -F fixture >/dev/null; then fixture; fi
	body >"$T/$BODY"
	chmod 644 "$T/$BODY"
	ws_reset
	if declare -F setup >/dev/null; then setup; fi
	run_bare
	ws_snapshot >"$T/bare.files"
	ws_reset
	if declare -F setup >/dev/null; then setup; fi
	run_sbx
	ws_snapshot >"$T/sbx.files"
	want=$T/bare.out
	if declare -F expect_sandboxed >/dev/null; then
		expect_sandboxed <"$T/bare.out" >"$T/want.out"
		want=$T/want.out
		cmp -s "$T/bare.out" "$T/want.out" && fail "expect_sandboxed changes nothing"
	fi
	wantf=$T/bare.files
	if declare -F expect_files >/dev/null; then
		expect_files <"$T/bare.files" >"$T/want.files"
		wantf=$T/want.files
	fi
	if ! cmp -s "$want" "$T/sbx.out"; then
		same=no
		fail "output differs (- bare, + sandboxed):"
		diff -u "$want" "$T/sbx.out" | tail -n +3 | head -40
	fi
	if [ "${EXPECT_RC:-$(cat "$T/bare.rc")}" != "$(cat "$T/sbx.rc")" ]; then
		same=no
		fail "exit status: bare $(cat "$T/bare.rc"), sandboxed $(cat "$T/sbx.rc")${EXPECT_RC:+ (want $EXPECT_RC)}"
	fi
	if ! cmp -s "$wantf" "$T/sbx.files"; then
		same=no
		fail "files in the workspace differ (- bare, + sandboxed):"
		diff -u "$wantf" "$T/sbx.files" | tail -n +3 | grep '^[-+]' | head -30
	fi
	[ -s "$T/sbx.notes" ] && { echo "sbxctl said:"; head -10 "$T/sbx.notes"; }
	if declare -F after_sbx >/dev/null; then
		local before=$FAILS
		after_sbx
		[ "$FAILS" = "$before" ] || same=no
	fi
	[ "$same" = yes ] && { [ "$want" != "$T/bare.out" ] ||
		! cmp -s "$wantf" "$T/bare.files" ||
		[ "${EXPECT_RC:-$(cat "$T/bare.rc")}" != "$(cat "$T/bare.rc")" ]; } &&
		same="by design"
	[ "$same" = yes ] && ok "$SCENARIO: the same bare and sandboxed"
	echo "TABLE|$SCENARIO|exit $(cat "$T/bare.rc")|exit $(cat "$T/sbx.rc")|$same"
	done_test
}

# compat_skip REASON: the scenario does not apply here (a row in the table
# says why).
compat_skip() {
	echo "TABLE|$SCENARIO|-|-|skipped: $1"
	skip "$1"
}
