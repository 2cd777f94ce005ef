#!/bin/bash
# TLS through sbx: direct vs an opaque CONNECT tunnel vs TLS inspection
# (network.requestRules names the host), one run, interleaved rounds, one
# markdown table. nginx serves HTTPS on loopback with a bench CA that
# sbxd trusts through --upstream-ca; insp.bench and tun.bench both name
# 127.0.0.1. Metrics: bulk download (100 MB, MB/s), keep-alive request
# time (N_KA requests of 1 KB on one connection), and the TLS handshake
# (connect to finished handshake from one Python context, the CONNECT
# included; inspected with the host's leaf cached after the first).
# Every client verifies against a bundle of the system's size. Not part of `make check`;
# run by proxy.sh unless TLS=0.
#   tests/bench/proxy-tls.sh [BUILD]
#   knobs: N_BIG=5 N_KA=500 N_HS=50 ROUNDS=3 PORT=18290
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=$(cd "${1:-build}" && pwd)
PORT=${PORT:-18290} N_BIG=${N_BIG:-5} N_KA=${N_KA:-500} N_HS=${N_HS:-50}
ROUNDS=${ROUNDS:-3}
PY=$(command -v /usr/bin/python3 || command -v python3)
command -v nginx >/dev/null || { echo "proxy-tls.sh: needs nginx" >&2; exit 1; }
t=$(mktemp -d /var/tmp/sbx-tbench.XXXXXX)
chmod 755 "$t"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$t"
}
trap cleanup EXIT
mkdir -p "$t/www" "$t/ws" "$t/nginx/tmp" "$t/nginx/logs"
mkdir -m 700 "$t/run"
head -c 104857600 /dev/urandom >"$t/www/100m.bin"
head -c 1024 /dev/urandom >"$t/www/1k.bin"
chmod -R a+rX "$t/www"
cd "$t" || exit 1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout ca.key -out ws/ca.pem -days 1 -subj "/CN=bench CA" \
	-addext basicConstraints=critical,CA:TRUE >/dev/null 2>&1
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout srv.key -out srv.csr -subj /CN=bench >/dev/null 2>&1
printf 'subjectAltName=DNS:insp.bench,DNS:tun.bench\n' >srv.ext
openssl x509 -req -in srv.csr -CA ws/ca.pem -CAkey ca.key -CAcreateserial \
	-days 1 -extfile srv.ext -out srv.pem >/dev/null 2>&1
# Clients verify against a bundle of the system's size: the inspected
# one reads the distribution's (sbx's CA appended), the others this one.
cat /etc/ssl/certs/ca-certificates.crt ws/ca.pem >ws/bundle.pem 2>/dev/null ||
	cp ws/ca.pem ws/bundle.pem
cat >nginx/nginx.conf <<NGINX
worker_processes 1;
daemon off;
pid $t/nginx/nginx.pid;
error_log $t/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; keepalive_requests 10000000;
  client_body_temp_path $t/nginx/tmp; proxy_temp_path $t/nginx/tmp;
  fastcgi_temp_path $t/nginx/tmp; uwsgi_temp_path $t/nginx/tmp;
  scgi_temp_path $t/nginx/tmp;
  server { listen 127.0.0.1:$PORT ssl; root $t/www;
           ssl_certificate $t/srv.pem; ssl_certificate_key $t/srv.key; }
}
NGINX
nginx -c "$t/nginx/nginx.conf" -p "$t/nginx" &
pids+=($!)
for _ in $(seq 100); do	# a benchmark: poll the server up
	curl -s -o /dev/null --cacert ws/ca.pem \
		--resolve "insp.bench:$PORT:127.0.0.1" "https://insp.bench:$PORT/1k.bin" && break
	sleep 0.05
done
printf '127.0.0.1 insp.bench tun.bench\n' >hosts
printf '{"network": {"allowedDomains": ["insp.bench", "tun.bench", "127.0.0.1:%s"],
  "requestRules": [{"host": "insp.bench", "readOnly": true}]}}\n' "$PORT" >policy.json
mkfifo ready
XDG_RUNTIME_DIR=$t/run "$b/sbxd" --socket "$t/run/sbxd.sock" --ready-fd 3 \
	--policy policy.json --hosts-file hosts --upstream-ca ws/ca.pem \
	3>ready 2>sbxd.log &
pids+=($!)
read -r _ <ready || { echo "sbxd did not start: $(cat sbxd.log)" >&2; exit 1; }
sbx() { "$b/sbxctl" --no-autostart --socket "$t/run/sbxd.sock" "$@"; }

# The measuring client: HOST and curl options; prints metric<TAB>value.
cat >ws/client.sh <<'CLIENT'
set -u
host=$1 port=$2; shift 2
u="https://$host:$port"
med() { sort -g | awk '{a[NR]=$1} END {print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }
for ((i = 0; i < N_BIG; i++)); do
	curl -sS -o /dev/null -w '%{speed_download}\n' "$@" "$u/100m.bin"
done | awk '{print $1/1e6}' | med | sed 's/^/bulk_MBps\t/'
for ((i = 0; i < N_KA; i++)); do
	printf 'url = "%s"\noutput = "/dev/null"\n' "$u/1k.bin"
done >"ka.$$.cfg"
t0=$(date +%s%N)
curl -sS "$@" -K "ka.$$.cfg"
t1=$(date +%s%N)
rm -f "ka.$$.cfg"
awk -v a="$t0" -v b="$t1" -v n="$N_KA" 'BEGIN {printf "keepalive_us_per_req\t%.0f\n", (b-a)/1e3/n}'
"$PY" hs.py "$host" "$port" "$N_HS" "${CAFILE:-}" | med | sed 's/^/handshake_ms\t/'
CLIENT
# Handshakes with one client context (its CA file loaded once): the time
# from connect() to a finished TLS handshake, CONNECT included through
# the proxy; prints one line per handshake, in ms.
cat >ws/hs.py <<'HS'
import os, socket, ssl, sys, time
host, port, n, cafile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ctx = ssl.create_default_context(cafile=cafile or None)
proxy = os.environ.get("HTTPS_PROXY") if not cafile.endswith("direct") else None
for _ in range(n):
    t0 = time.perf_counter()
    if proxy:
        p = proxy.split("//")[1].rstrip("/").split(":")
        s = socket.create_connection((p[0], int(p[1])))
        s.sendall(b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host.encode(), port))
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
    else:
        s = socket.create_connection(("127.0.0.1", port))
    t = ctx.wrap_socket(s, server_hostname=host)
    print("%.3f" % ((time.perf_counter() - t0) * 1e3))
    t.close()
HS
cd ws || exit 1
ln -sf bundle.pem bundle.pem.direct
export N_BIG N_KA N_HS PY
for ((r = 1; r <= ROUNDS; r++)); do
	echo "... round $r/$ROUNDS" >&2
	CAFILE=bundle.pem.direct bash client.sh insp.bench "$PORT" \
		--noproxy '*' --cacert bundle.pem \
		--resolve "insp.bench:$PORT:127.0.0.1" >"../direct.$r"
	sbx run -- env CAFILE=bundle.pem bash client.sh tun.bench "$PORT" \
		--noproxy '' --cacert bundle.pem >"../tunnel.$r"
	sbx run -- bash client.sh insp.bench "$PORT" --noproxy '' >"../inspected.$r"
done
cd .. || exit 1
echo "## TLS through sbx: direct, tunnelled, inspected (loopback)"
echo "- $(uname -r), $(nproc) cores, $(date -u +%F); nginx $(nginx -v 2>&1 | sed 's/.*\///') (1 worker, TLS 1.3, P-256)"
echo "- tests/bench/proxy-tls.sh: N_BIG=$N_BIG N_KA=$N_KA N_HS=$N_HS ROUNDS=$ROUNDS (medians over rounds)"
echo
"$PY" - "$t" "$ROUNDS" <<'PYEOF'
import statistics, sys
t, n = sys.argv[1], int(sys.argv[2])
cols = ["direct", "tunnel", "inspected"]
data = {}
for c in cols:
    vals = {}
    for r in range(1, n + 1):
        for line in open(f"{t}/{c}.{r}"):
            k, v = line.split()
            vals.setdefault(k, []).append(float(v))
    data[c] = {k: statistics.median(v) for k, v in vals.items()}
print("| metric | " + " | ".join(cols) + " |")
print("|---|" + "---:|" * len(cols))
for k in data["direct"]:
    print(f"| {k} | " + " | ".join("%.1f" % data[c].get(k, 0) for c in cols) + " |")
PYEOF
