#!/bin/bash
# A long-lived sandbox has one proxy: an approval asked by a command in it
# goes to that command's client, and an answer "for the session" holds for
# the later commands of the sandbox (asked once), never for a run. Its
# refusals are reported to the command that made them.
. "$(dirname "$0")/lib.sh"
. "$HERE/ask-lib.sh"
start_ask_daemon 5
id=$(sbx sandbox create)
case $id in ''|*[!0-9]*) fail "create printed an id: '$id'"; done_test ;; esac

out=$(drive expect "$Q" send 's\r' -- sbx sandbox exec "$id" -- \
	sh -c "$(get)" | tr -d '\r')
check "the exec's client is asked" grep -q "connect to 127.0.0.1:$WEB (http)" <<<"$out"
check "... and its answer lets it through" grep -q '^ 200$' <<<"$out"
out=$(drive -- sbx sandbox exec "$id" -- sh -c "$(get)" | tr -d '\r')
expect_eq "the next command of the sandbox is not asked again" \
	"$(grep -c "$Q" <<<"$out")" 0
check "... and goes through" grep -q '^ 200$' <<<"$out"
expect_eq "both reached the server" "$(conns web)" 2
out=$(drive -- sbx run --on-ask=deny -- sh -c "$(get)" | tr -d '\r')
check "a plain run does not inherit the sandbox's approval" \
	grep -q '^ 403$' <<<"$out"
expect_eq "... and reached nobody" "$(conns web)" 2
sbx sandbox rm "$id"
stop_daemon
done_test
