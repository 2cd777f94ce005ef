#!/bin/bash
# A held template follows the directories it was built on: when the
# workspace, a writable tree or the home is replaced on the host (rm -rf
# and made again, moved aside and cloned anew, a re-pointed link), the
# next run gets a sandbox of the new directory, with its files masked and
# its writes landing in it; a session already running keeps its old view.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
H=$T/home
mkdir -p "$H" "$T/extra"
chmod 755 "$H"
echo home-v1 >"$H/f"
cat >"$T/policy.json" <<JSON
{"filesystem": {"allowWrite": [".", "$T/extra"]}}
JSON
fill() { # fill DIR: an ignore file and a secret
	mkdir -p "$1"
	echo .env >"$1/.sbxignore"
	echo SECRET >"$1/.env"
}
# run_in DIR CMD...: a run with DIR as workspace and cwd
run_in() { local d=$1; shift; sbx run --workspace "$d" -C "$d" -- "$@"; }
fill "$WS"
export HOME=$H
start_daemon --policy "$T/policy.json" --home "$H"
cd /
expect_eq "built: .env masked" "$(run_in "$WS" "$P" read .env)" EACCES

# 1. rm -rf and made again.
rm -rf "$WS"
fill "$WS"
expect_eq "rm -rf + mkdir: the new .env is masked" \
	"$(run_in "$WS" "$P" read .env)" EACCES
expect_eq "rm -rf + mkdir: writes work" "$(run_in "$WS" "$P" write x)" ok
check "rm -rf + mkdir: x is in the new directory on the host" test -f "$WS/x"
expect_eq "and on the run after" "$(run_in "$WS" sh -c 'cat .env 2>/dev/null; touch y && echo ok')" ok
check "y is in the new directory on the host" test -f "$WS/y"

# 2. Moved aside and cloned anew (git clone makes the directory).
if command -v git >/dev/null; then
	mkdir "$T/origin"
	(cd "$T/origin" && git init -q && echo .env >.sbxignore &&
	 git add .sbxignore && git -c user.name=t -c user.email=t@t commit -qm i)
	run_in "$WS" true
	mv "$WS" "$WS.old"
	git clone -q "$T/origin" "$WS"
	echo SECRET >"$WS/.env"
	expect_eq "mv + git clone: the new .env is masked" \
		"$(run_in "$WS" "$P" read .env)" EACCES
	expect_eq "mv + git clone: writes work" "$(run_in "$WS" "$P" write z)" ok
	check "z is in the clone on the host" test -f "$WS/z"
	check "and not in the old directory" test ! -e "$WS.old/z"
	rm -rf "$WS.old"
fi

# 3. A workspace named through a link that is re-pointed.
fill "$T/a"
fill "$T/b"
ln -s a "$T/link"
expect_eq "link: masked" "$(run_in "$T/link" "$P" read .env)" EACCES
ln -sfn b "$T/link"
expect_eq "re-pointed link: the new target's .env is masked" \
	"$(run_in "$T/link" "$P" read .env)" EACCES
expect_eq "re-pointed link: writes work" "$(run_in "$T/link" "$P" write w)" ok
check "w is in the new target on the host" test -f "$T/b/w"

# 4. A writable tree outside the workspace replaced.
expect_eq "extra tree writable" "$(run_in "$WS" "$P" write "$T/extra/e1")" ok
rm -rf "$T/extra"
mkdir "$T/extra"
expect_eq "replaced writable tree: writes work" \
	"$(run_in "$WS" "$P" write "$T/extra/e2")" ok
check "e2 is in the new tree on the host" test -f "$T/extra/e2"

# 5. The home replaced.
if ! sbx status | grep -q 'no home overlay'; then
	expect_eq "home seen" "$(run_in "$WS" cat "$H/f")" home-v1
	mv "$H" "$H.old"
	mkdir "$H"
	chmod 755 "$H"
	echo home-v2 >"$H/f"
	expect_eq "replaced home: the new one is seen" \
		"$(run_in "$WS" cat "$H/f")" home-v2
	# Through the overlay of the new home, not its bare read-only name.
	expect_eq "replaced home: writable (overlay)" \
		"$(run_in "$WS" "$P" write "$H/hw")" ok
	check "the host's new home is untouched" test ! -e "$H/hw"
fi

# 6. Replaced while a session runs: it keeps its view, the next run gets
# the new directory.
mkfifo "$T/go" "$T/out"
run_in "$WS" sh -c "echo up; read x <$T/go; $P write old-run" >"$T/out" &
exec 8<"$T/out"
read -r line <&8
expect_eq "a session runs" "$line" up
mv "$WS" "$WS.old"
fill "$WS"
expect_eq "during a session: the new .env is masked" \
	"$(run_in "$WS" "$P" read .env)" EACCES
expect_eq "during a session: the next run writes" "$(run_in "$WS" "$P" write new-run)" ok
check "new-run is in the new directory" test -f "$WS/new-run"
echo go >"$T/go"
read -r line <&8
expect_eq "the running session wrote" "$line" ok
check "into its old directory" test -f "$WS.old/old-run"
check "not into the new one" test ! -e "$WS/old-run"
expect_eq "daemon still answers" "$(run_in "$WS" echo alive)" alive
stop_daemon
done_test
