#!/bin/bash
# The push store: after pushes only the policy in force and the one before
# it remain (with signatures), no temp file is left, a restart puts the
# stored policy back in force, and a stored file that no longer verifies
# is refused at start, visibly, with the previous one in force.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
keygen admin
trust admin
for s in 1 2 3; do
	org_policy $s "$T/org$s.json"
	sign "$T/org$s.json" admin
done
peer_daemon
for s in 1 2 3; do
	peer policy push "$T/org$s.json" --sig "$T/org$s.json.sig" >/dev/null ||
		fail "push $s"
done
expect_eq "the store holds the last two, with signatures" \
	"$(cd "$STATE/org" && ls -A | tr '\n' ' ')" \
	".reserve pushed-0000000000000002.json pushed-0000000000000002.json.sig pushed-0000000000000003.json pushed-0000000000000003.json.sig "
cmp -s "$T/org3.json" "$STATE/org/pushed-0000000000000003.json"
expect_eq "stored byte for byte" "$?" 0
stop_daemon
peer_daemon
check "restart: serial 3 back in force" \
	grep -q "org-deny-3" < <(explain_rule denied.example)
check "no problem reported" bash -c '! sbx status | grep -q "^policy:"'
stop_daemon
# Tamper with the stored policy: its signature no longer verifies.
sed -i 's/org policy 3/org policy 7/' "$STATE/org/pushed-0000000000000003.json"
peer_daemon
out=$(sbx status)
check "status reports the refused file ($out)" \
	grep -q "pushed-0000000000000003.json: refused: the signature does not verify" <<<"$out"
check "status says which serial stays" grep -q "serial 2 stays in force" <<<"$out"
check "the previous policy is in force" \
	grep -q "org-deny-2" < <(explain_rule denied.example)
stop_daemon
done_test
