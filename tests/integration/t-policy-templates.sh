#!/bin/bash
# Held templates follow the policy: a policy change that alters the
# filesystem plan gives the next run a new template (the change is enforced
# at once), and the stale one goes instead of piling up. (Ignore-file edits
# patch the template in place: t-ignore-live.)
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
echo top-secret >"$T/secret.txt"
policy() {
	cat >"$T/policy.json" <<JSON
{ "filesystem": { "denyRead": [$1], "allowWrite": ["."] } }
JSON
}
templates() { sbx --json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["templates"])'; }
policy ""
start_daemon --policy "$T/policy.json"
cd "$WS"
expect_eq "readable" "$(sbx run -- "$P" read "$T/secret.txt")" ok
expect_eq "one template" "$(templates)" 1
policy "\"$T/secret.txt\""
expect_eq "policy change enforced by the next run" \
	"$(sbx run -- "$P" read "$T/secret.txt")" EACCES
expect_eq "still one template" "$(templates)" 1
for i in 1 2 3; do
	echo "x$i" >"$T/x$i"
	chmod 644 "$T/x$i"
	policy "\"$T/secret.txt\", \"$T/x$i\""
	expect_eq "change $i enforced" "$(sbx run -- "$P" read "$T/x$i")" EACCES
done
expect_eq "three more changes: still one template" "$(templates)" 1
stop_daemon
done_test
