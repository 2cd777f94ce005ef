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
# A signature with white space around it (accepted by the decoder) is
# stored as sbxctl policy sign writes it, so reading it back cannot fail.
org_policy 3 "$T/org3.json"
sign "$T/org3.json" admin
{ printf '%*s' 200 ''; cat "$T/org3.json.sig"; printf '%*s\n' 200 ''; } \
	>"$T/padded.sig"
out=$(peer policy push "$T/org3.json" --sig "$T/padded.sig" 2>&1); rc=$?
expect_eq "a padded signature is accepted ($out)" "$rc" 0
check "... and stored in canonical form" \
	cmp "$STATE/org/pushed-0000000000000003.json.sig" "$T/org3.json.sig"
check "... serial 3 in force" grep -q '(id org-deny-3)' \
	< <(explain_rule denied.example)
stop_daemon
done_test
