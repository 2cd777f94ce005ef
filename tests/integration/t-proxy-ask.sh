#!/bin/bash
# unknownHosts "ask": the connection is held while sbxctl asks on its
# terminal; allow once, allow for the session, deny, no terminal, the
# --on-ask=deny flag, and the daemon's timeout.
. "$(dirname "$0")/lib.sh"
command -v setsid >/dev/null || skip "setsid not installed"
. "$HERE/ask-lib.sh"
start_ask_daemon 1

out=$(drive expect "$Q" send 'o\r' -- sbx run -- curl -sS "$URL" | tr -d '\r')
check "the question names host, port and protocol" grep -q "connect to 127.0.0.1:$WEB (http)" <<<"$out"
check "allowed once: the request went through" grep -qx hello <<<"$out"
expect_eq "and reached the server" "$(conns web)" 1

out=$(drive expect "$Q" send 'o\r' expect "$Q" send 'n\r' -- \
	sbx run -- sh -c "$(get); $(get)" | tr -d '\r')
check "once is one connection: asked again, then denied" grep -q '^ 200$' <<<"$out"
check "... the second got 403" grep -q '^ 403$' <<<"$out"
check "... with an event naming the answer" grep -q "^sbx: blocked network 127.0.0.1:$WEB (not in allowedDomains, and not approved: the user denied it; user policy $T/policy.json, rule network.unknownHosts \"ask\")" <<<"$out"
expect_eq "the denied one reached nobody" "$(conns web)" 2

out=$(drive expect "$Q" send 's\r' -- \
	sbx run -- sh -c "$(get); $(get); $(get)" | tr -d '\r')
expect_eq "allowed for the session: asked once" "$(grep -c "$Q" <<<"$out")" 1
expect_eq "... and all three went through" "$(grep -c '^ 200$' <<<"$out")" 3

# Several connections at once wait on one question.
out=$(drive wait 'sent 3' wait "$Q" send 'o\r' -- sbx run -- "$PY" \
	"$HERE/proxyprobe.py" parallel 3 "$URL" | tr -d '\r')
expect_eq "concurrent connections, one question" "$(grep -c "$Q" <<<"$out")" 1
expect_eq "... and one answer for all" "$(grep -c '^HTTP/1.1 200' <<<"$out")" 3

n=$(conns web)
out=$(setsid -w sbx run -- sh -c "$(get)" 2>"$T/err")
expect_eq "no terminal: denied at once" "$out" " 403"
check "... saying why" grep -q "not approved: sbxctl has no terminal to ask on" "$T/err"
out=$(drive -- sbx run --on-ask=deny -- sh -c "$(get)" | tr -d '\r')
check "--on-ask=deny: denied without a question" grep -q '^ 403$' <<<"$out"
check "... and says so" grep -q 'not approved: sbxctl run --on-ask=deny' <<<"$out"
expect_eq "... nothing asked" "$(grep -c "$Q" <<<"$out")" 0

out=$(drive expect "$Q" -- sbx run -- sh -c "$(get)" | tr -d '\r')
# (the answer may land on the question's line: nobody pressed Enter)
check "unanswered: the daemon's timeout denies" grep -q ' 403$' <<<"$out"
check "... and says so" grep -q 'no answer to the approval request within 1 s' <<<"$out"
expect_eq "denials reached nobody" "$(conns web)" "$n"
stop_daemon
done_test
