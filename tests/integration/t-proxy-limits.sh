#!/bin/bash
# The proxy under load and abuse: 1,000 tunnels at once (and what they
# cost the daemon), a client that stalls mid-head is cut off, an upstream
# that resets is a 502, and the session's end frees everything.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
N=1000
# A tunnel that has carried data one way holds 4 fds of the daemon, and a
# session alone may hold 3/8 of the daemon's limit (README: Limits).
NOFILE=$((N * 11))
[ "$(ulimit -n)" -ge $NOFILE ] || ulimit -n $NOFILE 2>/dev/null ||
	skip "fd limit too low for $N tunnels (needs $NOFILE)"
start_server raw raw
RAW=$SRV_PORT
start_server reset reset
RESET=$SRV_PORT
start_proxy_daemon '{"network": {"allowedDomains": ["127.0.0.1"]}}'
cd "$WS"
rss() { awk '/^VmRSS/ {print $2}' "/proc/$DPID/status"; }

# Warm up (first session, allocator arenas), then measure.
sbx run -- true
before=$(rss)
mkfifo "$T/hold" "$T/said"
sbx run -- "$PY" "$HERE/proxyprobe.py" tunnels $N 127.0.0.1 "$RAW" \
	<"$T/hold" >"$T/said" 2>"$T/err" &
held=$!
exec 7>"$T/hold"
read -r line <"$T/said"
expect_eq "$N tunnels at once" "$line" "open $N sent $N"
during=$(rss)
fds=$(fd_count "$DPID")
exec 7>&-
wait $held
per=$(( (during - before) * 1024 / N ))
echo "daemon RSS: $before KiB before, $during KiB with $N tunnels ($per bytes each), $fds fds"
# 16 KiB is the target for a plain build; sanitizers add their own.
check "memory per tunnel bounded ($per bytes)" test "$per" -lt 65536
expect_eq "every tunnel reached the server" "$(grep -c '^bytes 18$' "$T/raw.log")" $N
check "sockets released when the tunnels end" test "$(fd_count "$DPID")" -lt 100

# Slowloris: half a head, then nothing.
stop_daemon
start_daemon --policy "$T/policy.json" --proxy-timeout 1
out=$(sbx run -- "$PY" "$HERE/proxyprobe.py" stall 10)
check "a stalled head is cut off by the deadline ($out)" grep -q '^closed after [12]\.' <<<"$out"

out=$(sbx run -- curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$RESET/" 2>&1)
expect_eq "upstream reset before answering: 502" "$out" 502
out=$(sbx run -- curl -sS "http://127.0.0.1:$RESET/" 2>&1)
check "... saying so" grep -q "closed the connection without a response" <<<"$out"
stop_daemon
done_test
