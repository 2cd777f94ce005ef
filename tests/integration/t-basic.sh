#!/bin/bash
# The README's first commands: writes land in the workspace, writes outside
# fail read-only, exit codes and signals come back exactly.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"

out=$(sbx run -- sh -c 'echo hi > out.txt; cat out.txt'); rc=$?
expect_eq "run prints the command's output" "$out" hi
expect_eq "run exits 0" "$rc" 0
expect_eq "file written in the workspace on the host" "$(cat "$WS/out.txt")" hi

target=/etc/sbx-test-$$
err=$(sbx run -- touch "$target" 2>&1); rc=$?
expect_eq "touch outside the workspace exits 1" "$rc" 1
check "touch reports a read-only file system" grep -q "Read-only file system" <<<"$err"
check "nothing created on the host" test ! -e "$target"

sbx run -- sh -c 'exit 7'; expect_eq "exit 7" $? 7
sbx run -- sh -c 'kill -TERM $$'; expect_eq "killed by SIGTERM -> 143" $? 143
sbx run -- sh -c 'kill -KILL $$'; expect_eq "killed by SIGKILL -> 137" $? 137

err=$(sbx run -- no-such-command-sbx 2>&1); rc=$?
expect_eq "command not found -> 127" "$rc" 127
check "not-found message names the command" grep -q "no-such-command-sbx: command not found" <<<"$err"
printf 'x' > "$WS/noexec"; chmod 644 "$WS/noexec"
err=$(sbx run -- ./noexec 2>&1); rc=$?
expect_eq "not executable -> 126" "$rc" 126
check "126 says permission denied" grep -q "Permission denied" <<<"$err"

err=$(sbx run -- 2>&1); rc=$?
expect_eq "no command -> 125" "$rc" 125

# The environment: secrets withheld, the rest passed, TMPDIR private, -e
# applied (t-env has the whole table).
env_out=$(GITHUB_TOKEN=s3cret MY_PASSWORD=x PLAIN=1 sbx run -e EXTRA=2 -- env)
check "GITHUB_TOKEN scrubbed" bash -c '! grep -q GITHUB_TOKEN <<<"$0"' "$env_out"
check "MY_PASSWORD scrubbed" bash -c '! grep -q MY_PASSWORD <<<"$0"' "$env_out"
check "an ordinary variable passes (default policy)" grep -qx "PLAIN=1" <<<"$env_out"
check "LANG passes" grep -q "^LANG=" <<<"$env_out"
check "-e K=V passes" grep -qx EXTRA=2 <<<"$env_out"
check "TMPDIR is /tmp" grep -qx TMPDIR=/tmp <<<"$env_out"

# A job past what one record carries (its strings go in a memfd), and
# one just under it, arrive whole.
big=$(head -c 100000 /dev/zero | tr '\0' x)
out=$(sbx run -e BIG="$big" -- sh -c 'printf %s "$BIG" | wc -c')
expect_eq "100 KB variable arrives whole" "$out" 100000
mid=$(head -c 50000 /dev/zero | tr '\0' y)
out=$(sbx run -- sh -c 'printf %s "$1" | md5sum' sh "$mid")
expect_eq "50 KB argument arrives whole" "$out" "$(printf %s "$mid" | md5sum)"

# Signal dispositions of the daemon do not leak in: SIGPIPE is default.
out=$(sbx run -- sh -c 'yes | head -1' 2>&1)
expect_eq "SIGPIPE default inside (yes | head)" "$out" y

# -C and --workspace.
mkdir -p "$WS/sub" "$T/other"
out=$(sbx run -C "$WS/sub" -- pwd); expect_eq "-C sets the cwd" "$out" "$WS/sub"
sbx run --workspace "$T/other" -C "$T/other" -- sh -c "echo a > $T/other/f"
expect_eq "--workspace is writable" "$(cat "$T/other/f")" a
sbx run --workspace "$T/other" -C "$T/other" -- sh -c "echo a > $WS/g" 2>/dev/null
check "outside --workspace nothing is written" test ! -e "$WS/g"
# The host's /tmp is replaced by a private one: a cwd there is not visible.
hidden=$(mktemp -d /tmp/sbxt-hidden.XXXXXX)
err=$(sbx run --workspace "$T/other" -C "$hidden" -- true 2>&1); rc=$?
rmdir "$hidden"
expect_eq "hidden cwd is an sbx error" "$rc" 125
check "hidden cwd is explained" grep -q "working directory" <<<"$err"
# A cwd outside the workspace elsewhere is visible, read-only.
out=$(sbx run --workspace "$T/other" -C "$WS" -- sh -c 'pwd; echo x > f' 2>&1)
check "cwd outside the workspace is usable read-only" grep -q "Read-only file system" <<<"$out"
check "and nothing was written there" test ! -e "$WS/f"

stop_daemon
done_test
