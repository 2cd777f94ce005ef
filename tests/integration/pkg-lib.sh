# shellcheck shell=sh disable=SC2034 # variables are for the sourcing test
# Helpers shared by the packaging tests (t-pkg-*.sh), sourced from the repo
# root. Exit codes: 0 pass, 77 skip, anything else fails.

SBX_BUILD=${SBX_BUILD:-build}
pkg_name=$(basename "$0" .sh)

skip() { echo "$pkg_name: SKIP: $*"; exit 77; }
fail() { echo "$pkg_name: FAIL: $*"; exit 1; }
note() { echo "$pkg_name: $*"; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 not installed${2:+ ($2)}"; }

# A private scratch directory, removed on exit. Tests add their own cleanup
# to pkg_cleanup_hook.
pkg_cleanup_hook=:
pkg_tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbx-pkg.XXXXXX") || exit 1
trap 'eval "$pkg_cleanup_hook"; rm -rf "$pkg_tmp"' EXIT
trap 'exit 130' INT TERM

# pkg_bins: sets pkg_bin_dir to a directory holding sbxd and sbxctl, and
# pkg_real_bins to 1 when they are the built ones, 0 for stand-ins (shell
# scripts) that only let the layout be checked before the daemon exists.
pkg_bins()
{
	if [ -x "$SBX_BUILD/sbxd" ] && [ -x "$SBX_BUILD/sbxctl" ]; then
		pkg_bin_dir=$(cd "$SBX_BUILD" && pwd)
		pkg_real_bins=1
		return
	fi
	pkg_bin_dir=$pkg_tmp/stub-bin
	pkg_real_bins=0
	mkdir -p "$pkg_bin_dir"
	for b in sbxd sbxctl; do
		printf '#!/bin/sh\necho "%s: stand-in, not built" >&2\nexit 125\n' \
			"$b" >"$pkg_bin_dir/$b"
		chmod 0755 "$pkg_bin_dir/$b"
	done
	note "$SBX_BUILD/sbxd or sbxctl not built: installing stand-in scripts"
}

# pkg_policies: sets pkg_policy_dir to policies/, or to stand-ins with the
# shipped names while the policy files are not in the tree yet.
pkg_policies()
{
	if [ -f policies/default.json ]; then
		pkg_policy_dir=policies
		return
	fi
	pkg_policy_dir=$pkg_tmp/policies
	mkdir -p "$pkg_policy_dir/examples"
	for p in default strict sbx-policy.schema examples/org; do
		echo '{}' >"$pkg_policy_dir/$p.json"
	done
	note "policies/ not in the tree yet: installing stand-in policy files"
}

# pkg_make ARGS...: the top Makefile, quietly, with the chosen binaries and
# policies.
pkg_make()
{
	make -s --no-print-directory SBX_BIN_DIR="$pkg_bin_dir" \
		POLICY_DIR="$pkg_policy_dir" "$@"
}

# pkg_version: the upstream version make install and make deb use.
pkg_version()
{
	make -s --no-print-directory --eval 'pkg-print-version: ; @echo $(VERSION)' \
		pkg-print-version
}
