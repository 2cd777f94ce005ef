#!/bin/bash
# A credential with "body": true has its sentinel replaced by the real
# value in request bodies towards its hosts too (same length: the
# Content-Length holds), also where a sentinel straddles the reads sbxd
# makes; a credential without it leaves the sentinel in a body as it is;
# the sentinel in a body towards another host is refused and that server
# gets no request. The real value never comes back into the sandbox.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL ghp_ 36
make_token PLAIN k- 30
start_api other
start_cred_daemon '{"network": {
  "allowedDomains": ['"$ALLOW"'],
  "requestRules": [{"host": "other.test", "allow": ["* /*"]}],
  "credentials": [{"id": "gh", "env": "GH_TEST_TOKEN", "hosts": ["l7.test:'"$API"'"],
                   "header": "Authorization", "format": "Bearer {}", "body": true},
                  {"id": "plain", "env": "PLAIN_TEST_KEY", "hosts": ["l7.test:'"$API"'"],
                   "header": "X-Api-Key"}]}}'
export GH_TEST_TOKEN=$REAL PLAIN_TEST_KEY=$PLAIN
# Each run has sentinels of its own: a run prints them and then sends.
# (The body ends in a byte no value begins with, as below.)
out=$(sbx run -- sh -c 'echo "$GH_TEST_TOKEN $PLAIN_TEST_KEY"; curl -sS --data "token=$GH_TEST_TOKEN&key=$PLAIN_TEST_KEY&end=1" "https://l7.test:'"$API"'/echo"')
read -r s p <<<"$(head -1 <<<"$out")"
check "the sandbox holds sentinels" test "$s" != "$REAL" -a "$p" != "$PLAIN" -a ${#s} = 40 -a ${#p} = 32
check "a form body reached the host with the real value" grep -qx "body token=$REAL&key=$p&end=1" "$T/api.log"
check "... a credential without body left its sentinel as it was" bash -c "! grep '^body' '$T/api.log' | grep -q '$PLAIN'"
expect_eq "the echo came back with the sentinel" "$(tail -1 <<<"$out")" "token=$s&key=$p&end=1"

# 200 sentinels 1000 bytes apart: some straddle TLS records, so the
# reads sbxd makes; Content-Length and then chunked. (The bodies end in
# a byte no value begins with: the echo's redaction holds back a tail
# that could begin one until more comes, and a response is not framed.)
s=$(sbx run -- sh -c 'echo "$GH_TEST_TOKEN"; i=0; while [ $i -lt 200 ]; do printf "%960s%s" "" "$GH_TEST_TOKEN"; i=$((i+1)); done >big; echo >>big
	curl -sS -o /dev/null --data-binary @big "https://l7.test:'"$API"'/echo"
	curl -sS -o /dev/null -H "Transfer-Encoding: chunked" --data-binary @big "https://l7.test:'"$API"'/echo"')
expect_eq "a 200 kB body" "$(stat -c %s "$WS/big")" 200001
check "... made of the run's sentinels" grep -q -- "$s" "$WS/big"
grep '^body' "$T/api.log" | tail -2 >"$T/bodies"
expect_eq "... every sentinel became the value" "$(head -1 "$T/bodies" | grep -o "$REAL" | wc -l)" 200
check "... none left" bash -c "! grep -q '$s' '$T/bodies'"
expect_eq "... chunked too" "$(tail -1 "$T/bodies" | grep -o "$REAL" | wc -l)" 200

code=$(sbx run -- sh -c 'curl -sS -o /dev/null -w "%{http_code}" --data "t=$GH_TEST_TOKEN" "https://other.test:'"$OTHER"'/echo"' 2>"$T/err")
expect_eq "the sentinel in a body to another host: 403" "$code" 403
check "... reported with the credential's id" grep -q "a credential's sentinel sent to a host it is not for: credential gh" "$T/err"
expect_eq "... and that server got no request" "$(grep -c -v '^conn' "$T/other.log")" 0
sbx run -- sh -c 'cat /proc/[0-9]*/environ 2>/dev/null; env' >"$T/procenv"
check "the real value is never in the sandbox" bash -c "! grep -aq -e '$REAL' -e '$PLAIN' '$T/procenv'"
stop_daemon
check "... nor in sbxd's log or the events" bash -c "! grep -aq -e '$REAL' -e '$PLAIN' '$T/sbxd.log' '$T/err'"
done_test
