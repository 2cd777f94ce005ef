#!/bin/bash
# Editing the user policy needs no restart: a bad edit shows in status at
# once (file:line:col, before any run), the last good policy stays in
# force, and a good edit is in force for the next run.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
echo top-secret >"$T/secret.txt"
echo other >"$T/other.txt"
good() {
	cat >"$T/policy.json" <<JSON
{ "filesystem": { "denyRead": ["$1"], "allowWrite": ["."] } }
JSON
}
good "$T/secret.txt"
start_daemon --policy "$T/policy.json"
cd "$WS"
expect_eq "denied" "$(sbx run -- "$P" read "$T/secret.txt")" EACCES
check "no problem yet" bash -c '! sbx status | grep -q "^policy:"'
# A bad edit, written the way editors do (a new file renamed over).
printf '{\n  "filesystem": {\n    "denyRead": [ 3 ]\n  }\n}\n' >"$T/policy.new"
mv "$T/policy.new" "$T/policy.json"
out=$(sbx status | grep "^policy:")
check "status shows the bad edit with its position, before any run ($out)" \
	grep -q "policy.json:3:19: error" <<<"$out"
expect_eq "the last good policy still masks" \
	"$(sbx run -- "$P" read "$T/secret.txt")" EACCES
expect_eq "host file intact" "$(cat "$T/secret.txt")" top-secret
# Subscribers of every session hear of a change (fifos: bounded waits).
mkfifo "$T/events.ready" "$T/events.out"
exec {rfd}<>"$T/events.ready" {ofd}<>"$T/events.out"
sbx events --json --count 1 >&$ofd 2>&$rfd &
read -r -t 60 line <&$rfd
expect_eq "subscribed" "$line" \
	"sbxctl: streaming violation events (Ctrl-C to stop)"
# A good edit: in force for the next run, the problem gone.
good "$T/other.txt"
sbx status >/dev/null # takes in the queued change at once
read -r -t 60 ev <&$ofd
check "a policy-changed event ($ev)" \
	grep -q '^{"event":"policy-changed",' <<<"$ev"
check "... naming the file" grep -qF "\"what\":\"$T/policy.json\"" <<<"$ev"
check "problem cleared" bash -c '! sbx status | grep -q "^policy:"'
expect_eq "new rule in force" "$(sbx run -- "$P" read "$T/other.txt")" EACCES
expect_eq "old rule gone" "$(sbx run -- cat "$T/secret.txt")" top-secret
# The workspace layer is watched too, once a run has seen the workspace.
mkdir "$WS/.sbx"
echo '{ "filesystem": { "denyRead": [ }' >"$WS/.sbx/policy.json"
check "a bad workspace policy shows at once" \
	grep -q "\.sbx/policy.json:1:" < <(sbx status)
rm "$WS/.sbx/policy.json"
check "and goes when the file goes" bash -c '! sbx status | grep -q "^policy:"'
stop_daemon
done_test
