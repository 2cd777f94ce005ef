# Shared by the protected-path tests (sourced after lib.sh, with P set to
# the probe).

# probe ARGS...: what the probe reports from a fresh sandboxed run.
probe() { sbx run -q -- "$P" "$@" 2>/dev/null; }

# absent DESC PATH...: none of the workspace paths exists on the host.
absent() {
	local p
	for p in "${@:2}"; do
		[ -e "$WS/$p" ] || [ -L "$WS/$p" ] && { fail "$1: $p exists on the host"; return; }
	done
	ok "$1"
}

# has_protect_new: the daemon refuses protected paths that do not exist
# yet (a supervisor; sbxctl status says when the kernel cannot).
has_protect_new() {
	"$PY" -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["protect_new"] else 1)' < <(sbx --json status)
}

# init_repo: the workspace is a git repository with one commit.
init_repo() {
	git init -q "$WS" && git -C "$WS" config user.email t@t &&
		git -C "$WS" config user.name t
	echo data >"$WS/file.txt"
	git -C "$WS" add file.txt && git -C "$WS" commit -qm init
}

# start_protected: the daemon, from the workspace; a skip where it cannot
# refuse protected paths that do not exist yet.
start_protected() {
	cd "$WS" || exit 1
	start_daemon
	has_protect_new ||
		skip "kernel cannot refuse new protected paths (see sbxctl status)"
}
