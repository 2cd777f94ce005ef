#!/bin/bash
# An org policy pushed by root, unsigned, is accepted, stored, and in force
# for the next run without a restart; a session that was already running
# keeps the policy it started with.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
[ "$(id -u)" -eq 0 ] || skip "an unsigned push needs root"
P=$BIN/sbx-probe
org_policy 1 "$T/org.json"
push_daemon
cd "$WS"
expect_eq "before the push the file is readable" \
	"$(sbx run -- "$P" read "$T/secret.txt")" ok
# A session that starts now, then waits for us before reading.
mkfifo "$WS/up" "$WS/go"
sbx run -- sh -c "echo up >'$WS/up'; read x <'$WS/go'; '$P' read '$T/secret.txt'" \
	>"$T/early.out" 2>&1 &
early=$!
read -r _ <"$WS/up"
out=$(sbx policy push "$T/org.json" 2>&1); rc=$?
expect_eq "root's unsigned push accepted" "$rc" 0
check "push names the serial ($out)" grep -q "serial 1 in force" <<<"$out"
check "stored in the store" test -f "$STATE/org/pushed-0000000000000001.json"
expect_eq "the next run is under the org policy" \
	"$(sbx run -- "$P" read "$T/secret.txt")" EACCES
echo go >"$WS/go"
wait "$early"
expect_eq "the running session kept its policy" "$(cat "$T/early.out")" ok
check "explain cites the pushed file" \
	grep -q "from: org $STATE/org/pushed-0000000000000001.json:4:" \
	< <(sbx policy explain "$T/secret.txt")
expect_eq "host file untouched" "$(cat "$T/secret.txt")" top-secret
stop_daemon
done_test
