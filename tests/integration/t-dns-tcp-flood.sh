#!/bin/bash
# A sandboxed program that sends DNS queries over TCP to the stub and never
# reads the answers does not grow the daemon without bound: the stub stops
# reading a client whose answers pile up, so the sender stalls after a
# bounded amount (its socket buffers and the stub's), and the daemon's
# resident memory stays put.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
start_proxy_daemon '{"network": {"allowedDomains": []}}'
if sbx status 2>&1 | grep -q 'no transparent capture'; then
	skip "no transparent capture here"
fi
cd "$WS"
cp "$HERE/dnsflood.py" "$WS/"
mkfifo "$WS/go"
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"; }
# A first sandbox, so that what a session costs anyway is in the baseline.
sbx run -- true
before=$(rss)
mkfifo "$T/out"
sbx run -- "$PY" "$WS/dnsflood.py" "$WS/go" >"$T/out" 2>"$T/err" &
RUN=$!
exec 4<"$T/out"
read -r sent <&4
after=$(rss)
echo done >"$WS/go"
read -r answered <&4 || { cat "$T/err"; answered=; }
wait "$RUN"
echo "queries taken: $sent; daemon RSS ${before} kB -> ${after} kB"
# 64 MiB (about 316,000 queries) is the sender's cap; the socket buffers
# on loopback take at most a few MiB each way.
check "the stub stopped taking queries (took $sent)" \
	[ "${sent:-0}" -gt 0 -a "${sent:-0}" -lt 100000 ]
expect_eq "every query taken was answered once read" "$answered" "$sent"
check "the daemon grew by less than 16 MiB (${before} -> ${after} kB)" \
	[ $((after - before)) -lt $((16 << 10)) ]
done_test
