#!/bin/bash
# A non-root peer cannot push an unsigned org policy: refused, nothing
# stored, nothing changes, and the peer is still served.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
P=$BIN/sbx-probe
org_policy 1 "$T/org.json"
peer_daemon
cd "$WS"
out=$(peer policy push "$T/org.json" 2>&1); rc=$?
expect_eq "unsigned push by a non-root peer refused" "$rc" 125
check "the refusal says why ($out)" \
	grep -q "only root may push an unsigned org policy" <<<"$out"
check "nothing stored" test -z "$(ls -A "$STATE/org" | grep -v "^.reserve$")"
expect_eq "policy unchanged: file readable" \
	"$(peer run -- "$P" read "$T/secret.txt")" ok
check "policy unchanged: explain" \
	grep -vq deniedDomains < <(explain_rule denied.example)
expect_eq "peer still served" "$(peer run -- echo yes)" yes
stop_daemon
done_test
