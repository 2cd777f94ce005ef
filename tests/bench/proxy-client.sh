#!/bin/bash
# proxy-client.sh MODE BASE_URL: the measuring client of proxy.sh, on the
# host (direct) or inside a sandbox (fwd: absolute-URI requests through
# HTTP_PROXY; connect: CONNECT tunnels; captured: no proxy variables, a
# name the sandbox's DNS stub answers, every connection captured). Prints
# "metric<TAB>value" lines, named as in ../shared/bench/proxy-client.sh so
# the tables line up; conn_setup_us (a fresh connection and one small
# request on it, from a single Python process) and, captured,
# dns_stub_query_us are this repository's own.
#   env: N_BIG=10 N_SEQ=200 WRK_D=10s WRK_CONNS="1 16" BIG=/100m.bin SMALL=/1k.bin
#        N_CONN=500 N_DNS=2000; ONLY=wrk: the request rate alone, with
#        wrk_cN_reqs (requests made) and wrk_cN_cpu_ms (wrk's own CPU), for
#        proxy.sh's CPU per request
set -u
mode=$1 base=$2
TIMEFORMAT='%3U %3S'
here=$(cd "$(dirname "$0")" && pwd)
N_BIG=${N_BIG:-10} N_SEQ=${N_SEQ:-200} WRK_D=${WRK_D:-10s}
WRK_CONNS=${WRK_CONNS:-1 16} BIG=${BIG:-/100m.bin} SMALL=${SMALL:-/1k.bin}
N_CONN=${N_CONN:-500} N_DNS=${N_DNS:-2000}
proxy=${HTTP_PROXY:-}
PY=$(command -v /usr/bin/python3 || command -v python3)
case $mode in
direct) copts=(--noproxy '*') ;;
fwd) copts=(--noproxy '' -x "$proxy") ;;
connect) copts=(--noproxy '' -x "$proxy" -p) ;;
captured)
	copts=(--noproxy '*')
	for v in $(env | sed -n 's/^\([A-Za-z_]*_[Pp][Rr][Oo][Xx][Yy]\)=.*/\1/p'); do
		unset "$v"
	done ;;
*) echo "bad mode $mode" >&2; exit 2 ;;
esac
stats() {
	sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
		printf "%.1f\t%.1f\t%.1f\n", m, a[1], a[NR]}'
}

if [ "${ONLY:-}" != wrk ]; then
for ((i = 0; i < N_BIG; i++)); do
	curl -sS -o /dev/null -w '%{speed_download}\n' "${copts[@]}" "$base$BIG"
done | awk '{print $1/1e6}' | stats | awk -F'\t' '{print "big_MBps_median\t"$1;
	print "big_MBps_min\t"$2; print "big_MBps_max\t"$3}'

t0=$(date +%s%N) ok=0
for ((i = 0; i < N_SEQ; i++)); do
	c=$(curl -sS -o /dev/null -w '%{http_code}' "${copts[@]}" "$base$SMALL") &&
		[ "$c" = 200 ] && ok=$((ok + 1))
done
t1=$(date +%s%N)
printf 'seq_curl_ms_per_req\t%.2f\nseq_curl_ok\t%d/%d\n' \
	"$(awk -v a="$t0" -v b="$t1" -v n="$N_SEQ" 'BEGIN {print (b-a)/1e6/n}')" \
	"$ok" "$N_SEQ"

# Connection setup: a new connection (to an address looked up once), one
# HTTP/1.0 request for SMALL, its whole answer, close; the median of
# N_CONN, in one process.
"$PY" - "$mode" "$base" "$SMALL" "$proxy" "$N_CONN" <<'PYEOF'
import socket, statistics, sys, time, urllib.parse
mode, base, small, proxy, n = sys.argv[1:5] + [int(sys.argv[5])]
u = urllib.parse.urlsplit(base)
p = urllib.parse.urlsplit(proxy) if proxy else None
# Resolved once: the name lookup is dns_stub_query_us's.
ai = socket.getaddrinfo(u.hostname, u.port, type=socket.SOCK_STREAM)[0]
def once():
    if mode in ("direct", "captured"):
        s = socket.socket(ai[0], socket.SOCK_STREAM)
        s.connect(ai[4])
        req = b"GET %s HTTP/1.0\r\nHost: %s:%d\r\n\r\n" % (
            small.encode(), u.hostname.encode(), u.port)
    else:
        s = socket.create_connection((p.hostname, p.port))
        if mode == "connect":
            s.sendall(b"CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" %
                      (u.hostname.encode(), u.port, u.hostname.encode(), u.port))
            got = b""
            while b"\r\n\r\n" not in got:
                got += s.recv(4096)
            req = b"GET %s HTTP/1.0\r\nHost: %s:%d\r\n\r\n" % (
                small.encode(), u.hostname.encode(), u.port)
        else:
            req = b"GET %s%s HTTP/1.0\r\n\r\n" % (base.encode(), small.encode())
    s.sendall(req)
    while s.recv(65536):
        pass
    s.close()
t = []
for _ in range(n):
    a = time.perf_counter(); once(); t.append((time.perf_counter() - a) * 1e6)
print("conn_setup_us\t%.1f" % statistics.median(t))
PYEOF
# The DNS stub: one A query at a time to the name server resolv.conf
# names (whatever it is, the stub answers), the median of N_DNS.
if [ "$mode" = captured ]; then
	"$PY" - "$(awk '/^nameserver/ {print $2; exit}' /etc/resolv.conf)" \
		"${base#http://}" "$N_DNS" <<'PYEOF'
import socket, statistics, struct, sys, time
ns, host, n = sys.argv[1], sys.argv[2].split(":")[0], int(sys.argv[3])
q = b"".join(bytes([len(l)]) + l.encode() for l in host.split(".")) + b"\0"
s = socket.socket(socket.AF_INET6 if ":" in ns else socket.AF_INET,
                  socket.SOCK_DGRAM)
s.connect((ns, 53))
t = []
for i in range(n):
    m = struct.pack("!HHHHHH", i, 0x100, 1, 0, 0, 0) + q + b"\0\1\0\1"
    a = time.perf_counter(); s.send(m); s.recv(512)
    t.append((time.perf_counter() - a) * 1e6)
print("dns_stub_query_us\t%.1f" % statistics.median(t))
PYEOF
fi

fi

# Keep-alive request rate (not through CONNECT: wrk speaks no proxy).
if [ "$mode" != connect ] && command -v wrk >/dev/null; then
	for c in $WRK_CONNS; do
		t=$((c < 2 ? 1 : 2))
		# wrk's CPU (user + system) from bash's time, on the last line.
		if [ "$mode" = direct ] || [ "$mode" = captured ]; then
			out=$({ time wrk -t$t -c"$c" -d"$WRK_D" --latency \
				"$base$SMALL"; } 2>&1)
		else
			out=$({ time TARGET="$base$SMALL" wrk -t$t -c"$c" \
				-d"$WRK_D" --latency -s "$here/wrk-proxy.lua" \
				"$proxy"; } 2>&1)
		fi
		printf 'wrk_c%s_rps\t%s\n' "$c" "$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
		printf 'wrk_c%s_p50\t%s\n' "$c" "$(awk '$1 == "50%" {print $2}' <<<"$out")"
		printf 'wrk_c%s_p99\t%s\n' "$c" "$(awk '$1 == "99%" {print $2}' <<<"$out")"
		if [ "${ONLY:-}" = wrk ]; then
			printf 'wrk_c%s_reqs\t%s\n' "$c" "$(awk '/requests in/ {print $1}' <<<"$out")"
			printf 'wrk_c%s_cpu_ms\t%s\n' "$c" "$(tail -1 <<<"$out" |
				awk '{printf "%.0f", ($1 + $2) * 1000}')"
		fi
		n=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
		[ -n "$n" ] && printf 'wrk_c%s_non2xx\t%s\n' "$c" "$n"
	done
fi
exit 0
