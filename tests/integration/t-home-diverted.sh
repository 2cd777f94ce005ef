#!/bin/bash
# Writes the home overlay keeps (docs/security.md, "Writes the home
# overlay keeps"): after a run, sbxctl lists what the run wrote into the
# workspace's home layer instead of the home (files, directories it made,
# removals), caches and histories aside; nothing when there is nothing.
# A scratch home (sbxd --home) stands for the user's.
. "$(dirname "$0")/lib.sh"
H=$T/home
mkdir -p "$H/proj" "$H/other/src" "$H/.cache"
chmod 755 "$H"
echo o >"$H/other/src/o.c"
echo gone >"$H/old.txt"
export HOME=$H
cd "$H/proj"
start_daemon --home "$H"
if sbx status | grep -q 'no home overlay'; then
	stop_daemon
	skip "no home overlay on this machine"
fi
out=$(sbx run -- sh -c 'echo c > ~/.cache/c; mkdir -p ~/.npm/_cacache ~/.cargo/registry/x ~/go/pkg/mod; echo h >> ~/.bash_history; echo p > local.txt' 2>&1)
expect_eq "caches, histories and the workspace: nothing listed" "$out" ""
out=$(sbx run -- sh -c 'echo x > ~/notes.txt; mkdir -p ~/newdir/a; echo y > ~/newdir/a/f; echo z >> ~/other/src/o.c; rm ~/old.txt; mkdir -p ~/.cargo/bin; echo t > ~/.cargo/bin/tool' 2>&1)
expect_eq "exit 0" "$?" 0
check "the list says where they are ($out)" grep -q "^sbx: written to the workspace's home layer, not to the home" <<<"$out"
for p in "~/notes.txt" "~/newdir/" "~/other/src/o.c" "~/old.txt (removed)" "~/.cargo/bin/"; do
	check "listed: $p" grep -qF "$p" <<<"$out"
done
lacks() { ! grep -qF "$1" <<<"$2"; }
check "a new directory as a whole, not its files" lacks "~/newdir/a" "$out"
check "no cache listed" lacks ".cache" "$out"
expect_eq "the real home unchanged" "$(cat "$H/other/src/o.c"; test -e "$H/notes.txt" || echo absent)" "o
absent"
out=$(sbx --json run -- true 2>&1 >/dev/null)
check "--json has the (empty) list ($out)" grep -q '"diverted": *\[\]' <<<"$out"
stop_daemon
done_test
