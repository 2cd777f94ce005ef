#!/bin/bash
# Credentials by reference: the sandbox's variable holds a sentinel of
# the same shape and length; on the way to the credential's host sbxd
# puts the real value in (the header the policy names, or where the
# sentinel stands); a response echoing it is redacted back; the sentinel
# sent to another (inspected) host is refused and reported by id, and
# that server logs nothing. The real value is never in the sandbox's
# environment, its /proc, sbxd's log or the events.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token REAL ghp_ 36
FILEKEY=k-$(head -c 1024 /dev/urandom | tr -dc 'a-z0-9' | head -c 20)
printf '%s\n' "$FILEKEY" >"$T/secret"
chmod 644 "$T/secret"
start_api other
start_cred_daemon '{"network": {
  "allowedDomains": ['"$ALLOW"'],
  "requestRules": [{"host": "other.test", "allow": ["* /*"]}],
  "credentials": [{"id": "gh", "env": "GH_TEST_TOKEN", "hosts": ["l7.test:'"$API"'"],
                   "header": "Authorization", "format": "Bearer {}"},
                  {"id": "filekey", "file": "'"$T/secret"'", "hosts": ["l7.test:'"$API"'"],
                   "header": "X-Api-Key"}]},
  "filesystem": {"denyRead": ["'"$T/secret"'"]}}'
export GH_TEST_TOKEN=$REAL

s=$(sbx run -- printenv GH_TEST_TOKEN)
check "the sandbox's variable is a sentinel" test "$s" != "$REAL"
expect_eq "... of the same length" "${#s}" "${#REAL}"
expect_eq "... and prefix" "${s:0:4}" ghp_
check "... of the same shape" bash -c "[[ '$s' =~ ^ghp_[A-Za-z0-9]{36}\$ ]]"
expect_eq "... the same in every command of the run" "$(sbx run -- sh -c 'printenv GH_TEST_TOKEN; printenv GH_TEST_TOKEN' | sort -u | wc -l)" 1

out=$(sbx run -- sh -c 'echo "$GH_TEST_TOKEN"; curl -sS "https://l7.test:'"$API"'/headers"')
sent=$(head -1 <<<"$out")
check "injected as the policy's header" grep -qx "auth Bearer $REAL" "$T/api.log"
check "the echoed value came back as the sentinel" grep -q "Authorization: Bearer $sent" <<<"$out"
check "... never the real one" bash -c "! grep -q '$REAL' <<<'$out'"
check "a file's credential went as its header" grep -qx "key $FILEKEY" "$T/api.log"
check "... and came back as a sentinel of its length" bash -c "grep -Eq '^X-Api-Key: k-[a-z0-9]{20}\$' <<<'$out' && ! grep -q '$FILEKEY' <<<'$out'"
check "... a file the sandbox cannot read" bash -c "! sbx run -- cat '$T/secret' 2>/dev/null"
# A compressed echo would hide the value from the redaction: the
# credential's host is asked for an uncompressed answer.
out=$(sbx run -- curl -sS --compressed "https://l7.test:$API/headers")
check "a compressed echo asked for comes back redacted" grep -q "Authorization: Bearer ghp_" <<<"$out"
check "... never with the real value" bash -c "! grep -q '$REAL' <<<'$out'"
out=$(sbx run -- sh -c 'curl -sS -H "Authorization: token $GH_TEST_TOKEN" "https://l7.test:'"$API"'/hello.txt"')
expect_eq "a request carrying the sentinel itself" "$out" hello
check "... reached the host with the real value" grep -qx "auth token $REAL" "$T/api.log"

code=$(sbx run -- sh -c 'curl -sS -o /dev/null -w "%{http_code}" -H "X-Leak: $GH_TEST_TOKEN" "https://other.test:'"$OTHER"'/hello.txt"' 2>"$T/err")
expect_eq "the sentinel to another host: 403" "$code" 403
check "... reported with the credential's id" grep -q "a credential's sentinel sent to a host it is not for: credential gh" "$T/err"
code=$(sbx run -- sh -c 'curl -sS -o /dev/null -w "%{http_code}" "https://other.test:'"$OTHER"'/x?t=$GH_TEST_TOKEN"' 2>>"$T/err")
expect_eq "... in a query string too" "$code" 403
# (It saw the TLS handshakes: the upstream is dialled before the first
# request is read.)
expect_eq "the other server got no request" "$(grep -c -v '^conn' "$T/other.log")" 0
out=$(sbx run -- curl -sS "https://other.test:$OTHER/hello.txt")
expect_eq "... while other requests to it pass" "$out" hello

d=$(sbx describe)
check "describe tells the agent about the placeholder" grep -q "GH_TEST_TOKEN holds a placeholder that sbx replaces with the real credential on the way to l7.test:$API only" <<<"$d"
check "... and the inspected requests" grep -q "decided by method and path; a refused one gets a 403 naming the rule: other.test allow \* /\*" <<<"$d"
sbx run -- sh -c 'cat /proc/[0-9]*/environ 2>/dev/null; env' >"$T/procenv"
check "the sandbox's /proc and environment hold the sentinel" grep -aq "GH_TEST_TOKEN=ghp_" "$T/procenv"
check "... never the real value" bash -c "! grep -aq -e '$REAL' -e '$FILEKEY' '$T/procenv'"
stop_daemon
check "the real values are not in sbxd's log" bash -c "! grep -aq -e '$REAL' -e '$FILEKEY' '$T/sbxd.log'"
check "... nor in the events" bash -c "! grep -aq -e '$REAL' -e '$FILEKEY' '$T/err'"
done_test
