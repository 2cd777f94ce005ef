#!/bin/bash
# Org serials only go up: a push with the serial in force or a lower one is
# refused, and so is one below an org dir policy's serial.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
keygen admin
trust admin
for s in 3 5 6 8 9; do
	org_policy $s "$T/org$s.json"
	sign "$T/org$s.json" admin
done
push() { peer policy push "$T/org$1.json" --sig "$T/org$1.json.sig" 2>&1; }
peer_daemon
cd "$WS"
push 5 >/dev/null
expect_eq "serial 5 accepted" "$?" 0
out=$(push 5); rc=$?
expect_eq "the same serial again refused" "$rc" 125
check "says no rollback ($out)" grep -q "not greater than the org serial in force (5)" <<<"$out"
out=$(push 3); rc=$?
expect_eq "a lower serial refused" "$rc" 125
check "policy 5 still in force" grep -q "org-deny-5" < <(explain_rule denied.example)
push 6 >/dev/null
expect_eq "a higher serial accepted" "$?" 0
# An org dir policy's serial counts too.
echo '{ "serial": 8 }' >"$ORG/base.json"
chmod 644 "$ORG/base.json"
out=$(push 8); rc=$?
expect_eq "serial of an org dir file counts" "$rc" 125
push 9 >/dev/null
expect_eq "above it accepted" "$?" 0
check "policy 9 in force" grep -q "org-deny-9" < <(explain_rule denied.example)
stop_daemon
done_test
