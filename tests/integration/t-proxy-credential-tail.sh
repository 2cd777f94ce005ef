#!/bin/bash
# A keep-alive response that ends in the start of a credential's real
# value is not stalled (sbxd holds such bytes until more comes): when the
# upstream goes quiet they reach the sandbox as the sentinel's start,
# and the next response on the connection follows. A value echoed in two
# writes with a pause between comes back as the whole sentinel. The
# real value's bytes never reach the sandbox.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL ghp_ 36
start_api
start_cred_daemon '{"network": {
  "allowedDomains": ['"$ALLOW"'],
  "credentials": [{"id": "gh", "env": "GH_TEST_TOKEN", "hosts": ["l7.test:'"$API"'"],
                   "header": "Authorization", "format": "Bearer {}"}]}}'
export GH_TEST_TOKEN=$REAL
U=https://l7.test:$API

# --max-time: a stalled response fails the test instead of blocking it
# (--fail-early: curl's status is the first failed transfer's).
out=$(sbx run -- sh -c 'echo "$GH_TEST_TOKEN"; curl -sS --fail-early --max-time 10 -w "|%{num_connects}\n" "'"$U"'/tail?n=1" "'"$U"'/tail?n=20" "'"$U"'/hello.txt"' 2>"$T/err")
rc=$?
expect_eq "three keep-alive responses, the first two ending in the value's start" "$rc" 0
sent=$(sed -n 1p <<<"$out")
expect_eq "... the sentinel's first byte" "$(sed -n 2p <<<"$out")" "${sent:0:1}|1"
expect_eq "... the sentinel's first 20 bytes, on the same connection" "$(sed -n 3p <<<"$out")" "${sent:0:20}|0"
expect_eq "... then the next response as it is" "$(sed -n 4,5p <<<"$out" | tr '\n' ' ')" "hello |0 "
check "... never the real value's start" bash -c "! grep -q '${REAL:0:20}' <<<'$out'"
check "the server got the real value" grep -qx "auth Bearer $REAL" "$T/api.log"

out=$(sbx run -- sh -c 'echo "$GH_TEST_TOKEN"; curl -sS --fail-early --max-time 10 -w "\n" "'"$U"'/split" "'"$U"'/tail?n=40"' 2>>"$T/err")
expect_eq "a value echoed in two writes, a pause between" "$?" 0
sent=$(sed -n 1p <<<"$out")
expect_eq "... comes back as the whole sentinel" "$(sed -n 2p <<<"$out")" "$sent"
expect_eq "... and whole in one write too" "$(sed -n 3p <<<"$out")" "$sent"
check "... never with the real value's bytes" bash -c "! grep -q -e '${REAL:0:20}' -e '${REAL:20}' <<<'$out'"
stop_daemon
check "the real value is not in sbxd's log" bash -c "! grep -aq -e '$REAL' '$T/sbxd.log'"
done_test
