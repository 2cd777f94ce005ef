#!/bin/bash
# Runs every tests/integration/t-*.sh against the binaries in BUILD, first as
# the invoking user and then, when root, again as an unprivileged user
# (created here if missing). Exit 77 from a test means skipped. SBXD_ARGS
# (say --no-netns) goes to every test daemon, for both users. SBX_SUITE
# names another folder of tests/ whose PREFIX-*.sh run the same way
# (tests/compat/run.sh: compat, c); lines a test prints as "TABLE|a|b|..."
# are gathered into one table after the summary.
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
user=${SBX_TEST_USER:-sbxtest}
only=${SBX_TESTS:-}
suite=${SBX_SUITE:-integration}
prefix=${SBX_SUITE_PREFIX:-t}

# Scratch space (SBX_TEST_TMP) that sandboxes see: not under /tmp or
# /var/tmp, which they have private ones of. As root a sticky directory
# both users write to; else under the home.
if [ -z "${SBX_TEST_TMP:-}" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		SBX_TEST_TMP=$(mktemp -d /var/lib/sbx-test.XXXXXX)
		chmod 1777 "$SBX_TEST_TMP"
	else
		mkdir -p "$HOME/.cache"
		SBX_TEST_TMP=$(mktemp -d "$HOME/.cache/sbx-test.XXXXXX")
	fi
	made_scratch=$SBX_TEST_TMP
fi
export SBX_TEST_TMP
# Binaries go where an unprivileged user can reach them whatever the
# checkout's permissions are.
bin=$(mktemp -d "$SBX_TEST_TMP/sbx-bin.XXXXXX")
trap 'rm -rf "$bin" ${made_scratch:+"$made_scratch"}' EXIT
cp "$build/sbxd" "$build/sbxctl" "$build/sbx-probe" "$bin/"
[ ! -e "$build/sbx-mcp-conform" ] || cp "$build/sbx-mcp-conform" "$bin/"
chmod 755 "$bin" "$bin"/*
cp -r "$top/tests/integration" "$bin/integration"
[ "$suite" = integration ] || cp -r "$top/tests/$suite" "$bin/$suite"
chmod -R a+rX "$bin"

pass=0 fail=0 skipped=0 failed=() table=()
run_one() { # run_one LABEL CMD...
	local label=$1 log rc line; shift
	log=$(mktemp)
	"$@" >"$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		table+=("${line#TABLE|}|$label")
	done < <(grep '^TABLE|' "$log")
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $label" ;;
	77) skipped=$((skipped + 1)); echo "SKIP $label: $(grep -m1 SKIP "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$label"); echo "FAIL $label (rc $rc)"
	   # The failed checks first, then the end of the output.
	   { grep -m20 "FAIL" "$log"; tail -40 "$log"; } | sed 's/^/    /' ;;
	esac
	rm -f "$log"
}

as_user=()
if [ "$(id -u)" -eq 0 ]; then
	id "$user" >/dev/null 2>&1 || useradd -m -s /bin/bash "$user" ||
		{ echo "cannot create test user $user"; exit 1; }
	as_user=(setpriv --reuid="$user" --regid="$user" --init-groups
		 env -i HOME="$(getent passwd "$user" | cut -d: -f6)"
		 PATH=/usr/local/bin:/usr/bin:/bin USER="$user" LANG=C.UTF-8
		 TMPDIR=/tmp SBX_TEST_AS_USER=1 SBXD_ARGS="${SBXD_ARGS:-}"
		 SBX_TEST_TMP="$SBX_TEST_TMP")
fi

# Run from the repo root: the packaging tests use the tree itself.
cd "$top"
for t in "$bin/$suite/$prefix"-*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "$only" ] && ! grep -qw -- "$name" <<<"$only"; then continue; fi
	run_one "$name [$(id -un)]" env SBX_BIN="$bin" SBX_BUILD="$bin" bash "$t"
	if [ ${#as_user[@]} -gt 0 ] && "${as_user[@]}" test -r "$top/Makefile"; then
		run_one "$name [$user]" "${as_user[@]}" SBX_BIN="$bin" \
			SBX_BUILD="$bin" bash "$t"
	fi
done
echo "$suite: $pass passed, $fail failed, $skipped skipped"
if [ ${#table[@]} -gt 0 ]; then
	echo
	printf '%s\n' "${table[@]}" | column -t -s'|' -N "${SBX_TABLE_HEAD:-NAME,RESULT,RUN}"
fi
[ $fail -eq 0 ] || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
