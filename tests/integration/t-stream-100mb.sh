#!/bin/bash
# 100 MB through stdin -> stdout, byte-exact, in fd-passing and streaming
# mode; stderr kept apart in streaming mode.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
head -c 100000000 /dev/urandom >"$T/in.bin"
want=$(sha256sum <"$T/in.bin" | cut -d' ' -f1)
got=$(sbx run -- cat <"$T/in.bin" | sha256sum | cut -d' ' -f1)
expect_eq "fd passing: 100 MB byte-exact" "$got" "$want"
got=$(sbx run --stream -- cat <"$T/in.bin" | sha256sum | cut -d' ' -f1)
expect_eq "streaming (file stdin): 100 MB byte-exact" "$got" "$want"
got=$(cat "$T/in.bin" | sbx run --stream -- cat | sha256sum | cut -d' ' -f1)
expect_eq "streaming (pipe stdin): 100 MB byte-exact" "$got" "$want"
sbx run --stream -- sh -c 'echo out; echo err >&2; exit 3' >"$T/o" 2>"$T/e"
expect_eq "streaming exit code" $? 3
expect_eq "streaming stdout" "$(cat "$T/o")" out
expect_eq "streaming stderr" "$(cat "$T/e")" err
a=$(sbx run -- sh -c 'seq 1 20000; seq 1 3 >&2' 2>/dev/null | sha256sum)
b=$(sbx run --stream -- sh -c 'seq 1 20000; seq 1 3 >&2' 2>/dev/null | sha256sum)
expect_eq "both modes give identical stdout" "$a" "$b"
out=$(sbx run --stream -- sh -c 'cat >/dev/null; echo done' </dev/null)
expect_eq "stdin close reaches the command" "$out" done
stop_daemon
done_test
