#!/bin/bash
# Without a network namespace (sbxd --no-netns) neither a host service nor
# a published port can be made safely: --publish refuses the run, saying
# why, and describe says the listed host services are not reachable (the
# host's port stays out of reach: Landlock and the daemon's connect check
# allow the session's proxy ports only).
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
start_server db dump
DB=$SRV_PORT
start_proxy_daemon '{"network": {"hostServices": ["localhost:'"$DB"'"]}}' "" --no-netns
cd "$WS"
grep -q "^degraded: *no network namespace" <(sbx status) || skip "no TCP confinement without a network namespace here"
out=$(sbx run --publish 8080 -- touch "$WS/ran" 2>&1); rc=$?
expect_eq "--publish: exit 125" "$rc" 125
check "says why ($out)" grep -q "publish needs a network namespace" <<<"$out"
check "the command never ran" test ! -e "$WS/ran"
out=$(sbx describe)
check "describe: host services not reachable ($out)" \
	grep -q "Host services (network.hostServices) are NOT reachable here (no network namespace): localhost:$DB" <<<"$out"
expect_eq "the host's port is not reachable" \
	"$(sbx run -- "$BIN/sbx-probe" connect 127.0.0.1 "$DB")" EACCES
expect_eq "the service got nothing" "$(conns db)" 0
stop_daemon
done_test
