#!/bin/bash
# The proxy as a violation source: a denied connection is one event with
# host:port, the protocol, the rule with its id, layer and file, and the
# rule's reason as the remediation; in the run's summary (grouped), on the
# subscriber stream, and counted once per connection.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
. "$HERE/violations-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
mkdir "$T/www"
echo hello >"$T/www/hello.txt"
start_server web http "$T/www"
WEB=$SRV_PORT
start_server other http "$T/www"
OTHER=$SRV_PORT
start_proxy_daemon '{"filesystem": {"allowWrite": ["."]},
 "network": {"allowedDomains": ["127.0.0.1:'"$WEB"'"],
  "deniedDomains": [{"domain": "127.0.0.1:'"$OTHER"'", "id": "no-other",
    "reason": "the other server is off limits"}]}}'
cd "$WS"
subscribe events --json

URL=http://127.0.0.1:$OTHER/hello.txt
sbx run --json -- sh -c "curl -s -o /dev/null -w '%{http_code} ' $URL; curl -s -o /dev/null -w '%{http_code}' $URL" >"$T/out" 2>"$T/err"
expect_eq "both requests refused" "$(cat "$T/out")" "403 403"
# (curl's libc also tries nscd over a Unix socket: seccomp events of their
# own, left out here.)
net() { v "$1" groups kind=network "${@:2}"; }
expect_eq "two denials, one group" "$(net "$T/err" count)" 2
expect_eq "the event's fields" "$(net "$T/err" kind target \
	operation rule rule_id layer file remediation detail)" \
	"network|127.0.0.1:$OTHER|http|network.deniedDomains \"127.0.0.1:$OTHER\"|no-other|user|$T/policy.json|the other server is off limits|matches deniedDomains"


# The text summary: one line for the group.
sbx run -- curl -s -o /dev/null "$URL" 2>"$T/err"
expect_eq "summary line" "$(cat "$T/err")" \
	"sbx: blocked network 127.0.0.1:$OTHER (matches deniedDomains; user policy $T/policy.json, rule no-other) — the other server is off limits"
# An allowed request makes no network event.
sbx run --json -- curl -s -o /dev/null "http://127.0.0.1:$WEB/hello.txt" 2>"$T/err"
expect_eq "allowed: no network violation" "$(net "$T/err" kind)" ""
stop_daemon
wait $SUB
expect_eq "the subscriber got the three, as they happened" \
	"$(v "$T/events" events kind target rule_id | grep '^network')" \
	"network 127.0.0.1:$OTHER no-other
network 127.0.0.1:$OTHER no-other
network 127.0.0.1:$OTHER no-other"
done_test
