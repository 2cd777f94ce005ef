#!/bin/bash
# The approvals broker: a connection subscribed as approver answers the
# approval requests of runs started on other connections (one that never
# answers, or sbxctl asking on its terminal); the first answer wins and the
# others are told who gave it; a late answer and an unknown request id are
# errors that end nothing; "always" writes an allowedDomains rule with an id
# into the user's policy file (a new file renamed over it, valid JSON) and
# the next run needs no approval.
. "$(dirname "$0")/lib.sh"
. "$HERE/ask-lib.sh"
start_ask_daemon 20 "10.1.2.3 intra.test"
not() { ! "$@"; }
bc() { "$PY" "$HERE/brokerclient.py" "$SOCK" "$WS" "$@"; }
CURL=(curl -sS --noproxy "" -o - "$URL")

approver ide once
out=$(bc silent-run harness "${CURL[@]}")
wait "$APPR"
appr=$(cat "$T/appr")
check "the approver got the request" grep -qx "asked 127.0.0.1:$WEB refused=" <<<"$appr"
check "... and is told its answer won" grep -q "^answered req=[0-9]* by=ide mine=1 answer=1 " <<<"$appr"
check "the run's own client got the request too" grep -qx "run asked" <<<"$out"
check "... and is told who answered" grep -q "^run told: answered req=[0-9]* by=ide mine=0 answer=1 " <<<"$out"
check "its late answer is an error about that decision" grep -q "^run error code=8 approval=[1-9]" <<<"$out"
check "... which ends nothing: the run went on" grep -qx "run output=hello" <<<"$out"
check "... to its exit status" grep -qx "run exit code=0" <<<"$out"
expect_eq "allowed once: one connection reached the server" "$(conns web)" 1
check "the approver's second answer to the same request: an error" \
	grep -q "^late answer: id=5 error code=8 approval=[1-9]" <<<"$appr"
check "an unknown request id: an error naming it" \
	grep -qx "unknown id: id=5 error code=8 approval=987654321" <<<"$appr"

# sbxctl asking on its terminal: an approver answers first, and the
# prompt goes with a word on who answered.
approver ide session
out=$("$PY" "$HERE/ptydrive.py" wait 'Allow it?' -- sbx run -- "${CURL[@]}" | tr -d '\r')
wait "$APPR"
check "sbxctl: the prompt is answered by the approver" grep -q "sbx: answered by ide: allowed" <<<"$out"
check "... and the command's request went through" grep -qx hello <<<"$out"
check "... no error from sbxctl" not grep -q "no pending approval" <<<"$out"

# Denied by the approver.
n=$(conns web)
approver ide deny
out=$(bc silent-run harness curl -sS --noproxy "" -o /dev/null -w '%{http_code}\n' "$URL")
wait "$APPR"
check "denied by the approver: 403" grep -qx "run output=403" <<<"$out"
expect_eq "... and the server saw nothing" "$(conns web)" "$n"

# A name whose address (hosts file) the address check refuses: the
# request says so before anyone allows it; allowed, it is refused still.
approver ide once
out=$(bc silent-run harness curl -sS --noproxy "" -o /dev/null -w '%{http_code}\n' "http://intra.test:$WEB/")
wait "$APPR"
check "the request says it will be refused anyway" grep -qx \
	"asked intra.test:$WEB refused=intra.test resolves to 10.1.2.3 (private): refused even if allowed; only a rule naming the address, or an allowedDomains rule for the name with \"allowPrivate\": true, allows it" "$T/appr"
check "... and it is, once allowed" grep -qx "run output=403" <<<"$out"

# Always: the rule goes into the user's policy file.
ino=$(stat -c %i "$T/policy.json")
approver ide always
out=$(bc silent-run harness "${CURL[@]}")
wait "$APPR"
check "always: the run went through" grep -qx "run output=hello" <<<"$out"
check "the answer names the file and the rule id" grep -q \
	"^answered req=[0-9]* by=ide mine=1 answer=5 file=$T/policy.json rule=approved-127.0.0.1-$WEB error=$" "$T/appr"
check "the policy file holds the rule, and what it had" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
l = d["network"]["allowedDomains"]
assert d["network"]["unknownHosts"] == "ask"
assert l[0] == "registry.test", l
assert l[1] == {"domain": "127.0.0.1:" + sys.argv[2], "id": "approved-127.0.0.1-" + sys.argv[2], "reason": "approved for always by ide"}, l
' "$T/policy.json" "$WEB"
check "... written to a new file renamed over it" test "$(stat -c %i "$T/policy.json")" != "$ino"
check "... left no temporary file" test -z "$(ls -A "$T" | grep 'policy.json.sbx')"
check "... owned by the user" test "$(stat -c %u "$T/policy.json")" = "$(id -u)"
out=$(setsid -w sbx run -- "${CURL[@]}" 2>"$T/err")
expect_eq "the next run needs no approval (sbxctl without a terminal would deny)" "$out" hello
stop_daemon
done_test
