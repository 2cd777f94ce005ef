#!/bin/bash
# Protocol version 2 on one connection: two runs, a subscription, a session
# list, a describe and an invalid explain in flight together, every reply, output,
# exit status and error under the request id it answers; an error of one
# request leaves the connection open; a second operation under an id still
# in flight ends the connection. HelloReply names the version and features.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
pc() { "$PY" "$HERE/protoclient.py" "$SOCK" "$WS" "$@"; }

out=$(pc hello)
check "HelloReply: protocol version 2" grep -qx "version 2" <<<"$out"
for f in request-id multiplex attach half-close umask-default timeout-term \
	signal-target session-ids-unique; do
	check "HelloReply lists feature $f" grep -qx "feature $f" <<<"$out"
done

out=$(pc multiplex | sort)
want=$(printf '%s\n' "after error: kind=22 id=13" "describe_reply id=10" "ack id=9" \
	"error id=12 code=6" "exit id=11 code=0 output=second" \
	"exit id=7 code=0 output=got hi" "session_list id=8" | sort)
expect_eq "two runs, a subscription, three queries on one connection, each under its id" \
	"$out" "$want"

expect_eq "a run under an id in flight: BAD_ORDER, connection closed" \
	"$(pc same-id | tr '\n' ' ')" "error id=5 code=3 closed "

# sbxctl (protocol version 1, request id 0) works as before.
expect_eq "sbxctl run still works" "$(sbx run -- echo fine)" fine
stop_daemon
done_test
