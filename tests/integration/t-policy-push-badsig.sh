#!/bin/bash
# Signatures that do not verify are refused: a policy changed after
# signing, a key that is not trusted, a file that is no signature.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
keygen admin
keygen stranger
trust admin
org_policy 1 "$T/org.json"
sign "$T/org.json" admin
peer_daemon
cd "$WS"
# one byte changed after signing
sed 's/org policy 1/org policy X/' "$T/org.json" >"$T/tampered.json"
out=$(peer policy push "$T/tampered.json" --sig "$T/org.json.sig" 2>&1); rc=$?
expect_eq "tampered policy refused" "$rc" 125
check "says it does not verify ($out)" grep -q "does not verify" <<<"$out"
# signed by a key that is not in the trusted-keys dir
cp "$T/org.json" "$T/other.json"
sign "$T/other.json" stranger
out=$(peer policy push "$T/other.json" --sig "$T/other.json.sig" 2>&1); rc=$?
expect_eq "untrusted key refused" "$rc" 125
check "says it does not verify ($out)" grep -q "does not verify" <<<"$out"
# not a signature at all
echo hello >"$T/junk.sig"
out=$(peer policy push "$T/org.json" --sig "$T/junk.sig" 2>&1); rc=$?
expect_eq "junk signature refused" "$rc" 125
check "says it is no signature ($out)" grep -q "neither 64 bytes" <<<"$out"
check "nothing stored" test -z "$(ls -A "$STATE/org" | grep -v "^.reserve$")"
check "org policy unchanged" \
	grep -vq deniedDomains < <(explain_rule denied.example)
out=$(peer policy push "$T/org.json" --sig "$T/org.json.sig" 2>&1); rc=$?
expect_eq "the good signature still works" "$rc" 0
stop_daemon
done_test
