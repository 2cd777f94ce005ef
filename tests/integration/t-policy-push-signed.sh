#!/bin/bash
# A non-root peer may push an org policy signed by a trusted key: stored
# with its signature and in force for the peer's next run.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
P=$BIN/sbx-probe
keygen admin
trust admin
check "private key is private" test "$(stat -c %a "$T/admin.key")" = 600
org_policy 2 "$T/org.json"
sign "$T/org.json" admin
check "signature written next to the policy" test -s "$T/org.json.sig"
peer_daemon
cd "$WS"
expect_eq "before: readable" "$(peer run -- "$P" read "$T/secret.txt")" ok
out=$(peer policy push "$T/org.json" --sig "$T/org.json.sig" 2>&1); rc=$?
expect_eq "signed push by a non-root peer accepted" "$rc" 0
check "reply names the key ($out)" grep -q "signed by trusted key" <<<"$out"
check "policy stored" test -f "$STATE/org/pushed-0000000000000002.json"
check "signature stored" test -f "$STATE/org/pushed-0000000000000002.json.sig"
expect_eq "the peer's next run is under it" \
	"$(peer run -- "$P" read "$T/secret.txt")" EACCES
check "explain names the rule" \
	grep -q 'deniedDomains "denied.example" (id org-deny-2)' \
	< <(explain_rule denied.example)
out=$(peer --json policy push "$T/org.json" --sig "$T/org.json.sig" 2>&1)
check "the same push again is a rollback ($out)" grep -q "no rollback" <<<"$out"
stop_daemon
done_test
