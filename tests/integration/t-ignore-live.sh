#!/bin/bash
# Ignore files stay live: files created on the host after the workspace's
# template was built, and ignore-file edits, are masked from the next run
# on (and in runs already going), with no daemon restart.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
mkdir -p "$WS/a/b"
printf '*.key\n' >"$WS/.cursorignore"
echo plain >"$WS/a/notes.txt"
start_daemon
cd "$WS"
expect_eq "template built, nothing masked yet" "$(sbx run -- cat a/notes.txt)" plain
echo s1 >"$WS/a/b/new.key"
expect_eq "a file created afterwards is masked" "$(sbx run -- "$P" read "$WS/a/b/new.key")" EACCES
mkdir -p "$WS/c/d"
echo s2 >"$WS/c/d/deep.key"
expect_eq "in a directory created afterwards too" "$(sbx run -- "$P" read "$WS/c/d/deep.key")" EACCES
echo 'notes.txt' >>"$WS/.cursorignore"
expect_eq "an ignore-file edit masks existing files" "$(sbx run -- "$P" read "$WS/a/notes.txt")" EACCES
printf '*.tok\n' >"$WS/a/.sbxignore"
echo t >"$WS/a/x.tok"
expect_eq "a new nested ignore file applies" "$(sbx run -- "$P" read "$WS/a/x.tok")" EACCES
# A run that is already going sees masks appear.
mkfifo "$T/go" "$T/out"
sbx run -- sh -c "read x < $T/go; $P read $WS/late.key" >"$T/out" &
exec 8<"$T/out"
echo late >"$WS/late.key"
sbx run -- true # a sync point: the template has handled the event
echo go >"$T/go"
read -r line <&8
expect_eq "a running session sees the new mask" "$line" EACCES
# The template clones its later masks from the first it mounted (here
# a/b/new.key's). Replacing that file on the host (an editor's atomic save:
# rename over it) detaches that mount; masks must go on being made.
echo s3 >"$WS/a/b/tmp.txt"
mv "$WS/a/b/tmp.txt" "$WS/a/b/new.key"
expect_eq "a file replaced by rename is masked again" "$(sbx run -- "$P" read "$WS/a/b/new.key")" EACCES
echo s4 >"$WS/after.key"
expect_eq "and so is one created after that" "$(sbx run -- "$P" read "$WS/after.key")" EACCES
rm -rf "$WS/c"
mkdir -p "$WS/c" && echo s5 >"$WS/c/again.key"
expect_eq "and one in a directory made again" "$(sbx run -- "$P" read "$WS/c/again.key")" EACCES
# Files made while the template is being built: each directory is
# watched before the walk reads it, so one that lands there after its read
# is an event, and masked before the next run.
W2=$T/racews
mkdir -p "$W2"
for i in $(seq 1 3000); do mkdir "$W2/d$i"; done
echo '.env' >"$W2/.sbxignore"
sbx run --workspace "$W2" -C "$W2" -- true &
b=$!
for i in $(seq 1 3000); do echo "SECRET$i" >"$W2/d$i/.env"; done
wait "$b"
leaked=$(sbx run --workspace "$W2" -C "$W2" -- sh -c 'cat d*/.env 2>/dev/null' | wc -l)
expect_eq "no file made during the template's build is readable" "$leaked" 0
stop_daemon
done_test
