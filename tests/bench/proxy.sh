#!/bin/bash
# Proxy cost on loopback, one run, one markdown table. A local nginx
# (python's http.server when there is none) serves a 100 MB and a 1 KB
# file; proxy-client.sh fetches them directly, and from inside sbx through
# its proxy by absolute-URI forwarding (sbx-fwd), through CONNECT
# tunnels (sbx-connect) and, with every proxy variable unset, by name
# through the sandbox's DNS stub and transparent capture (sbx-captured,
# when the daemon captures). When srt (@anthropic-ai/sandbox-runtime) is
# installed, ../shared/bench/peers-proxy.sh measures srt's proxy in the
# same run (standalone: srtproxy-*, from inside srt: srt-*; its own direct
# baseline is direct-peers). Then the daemon's RSS with 1,000 idle tunnels.
# Not part of `make check`.
# TLS (direct, tunnelled, inspected) follows from proxy-tls.sh unless TLS=0.
#   tests/bench/proxy.sh [BUILD]
#   knobs: N_BIG=10 N_SEQ=200 WRK_D=10s WRK_CONNS="1 16" PORT=18190
#          TUNNELS=1000 PEERS=<dir of peers-proxy.sh> RESULTS=<dir to keep>
#          CPU=1: CPU per keep-alive request of wrk, the server and sbxd
#          ROUNDS=1: direct, fwd and connect run in turn this many times
#          (interleaved, so a neighbour's load lands on all three alike);
#          the table has each metric's median over the rounds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
b=$(cd "${1:-build}" && pwd)
PORT=${PORT:-18190}
TUNNELS=${TUNNELS:-1000}
PEERS=${PEERS:-$top/../shared/bench}
export N_BIG=${N_BIG:-10} N_SEQ=${N_SEQ:-200} WRK_D=${WRK_D:-10s}
export WRK_CONNS=${WRK_CONNS:-1 16}
PY=$(command -v /usr/bin/python3 || command -v python3)
t=$(mktemp -d /var/tmp/sbx-pbench.XXXXXX)
chmod 755 "$t"	# nginx workers run as nobody
res=$t/res
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "${RESULTS:-}" ] && mkdir -p "$RESULTS" && cp "$res"/* "$RESULTS"/
	rm -rf "$t"
}
trap cleanup EXIT
die() { echo "proxy.sh: $*" >&2; exit 1; }
mkdir -p "$t/www" "$t/ws" "$t/nginx/tmp" "$t/nginx/logs" "$res"
mkdir -m 700 "$t/run"
head -c 104857600 /dev/urandom >"$t/www/100m.bin"
head -c 1024 /dev/urandom >"$t/www/1k.bin"
chmod -R a+rX "$t/www"

url=http://127.0.0.1:$PORT
curl -s -o /dev/null --noproxy '*' "$url/1k.bin" &&
	die "something already listens on 127.0.0.1:$PORT (set PORT=)"
if command -v nginx >/dev/null; then
	server="nginx $(nginx -v 2>&1 | sed 's/.*\///') (1 worker, sendfile)"
	cat >"$t/nginx/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $t/nginx/nginx.pid;
error_log $t/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 10000000;
  client_body_temp_path $t/nginx/tmp; proxy_temp_path $t/nginx/tmp;
  fastcgi_temp_path $t/nginx/tmp; uwsgi_temp_path $t/nginx/tmp;
  scgi_temp_path $t/nginx/tmp;
  server { listen 127.0.0.1:$PORT; root $t/www; }
}
NGINX
	nginx -c "$t/nginx/nginx.conf" -p "$t/nginx" &
else
	server="python3 -m http.server (no nginx: the server may be the limit)"
	(cd "$t/www" && exec "$PY" -m http.server --bind 127.0.0.1 "$PORT" \
		>/dev/null 2>&1) &
fi
pids+=($!)
# A benchmark, not a test: poll the server up for a few seconds.
for _ in $(seq 100); do
	curl -s -o /dev/null --noproxy '*' "$url/1k.bin" && break
	sleep 0.05
done

printf '{"network": {"allowedDomains": ["127.0.0.1", "bench.test"]}}\n' \
	>"$t/policy.json"
# Captured, the sandbox names the server (127.0.0.1 inside is its own).
printf '127.0.0.1 bench.test\n' >"$t/hosts"
mkfifo "$t/ready"
XDG_RUNTIME_DIR=$t/run "$b/sbxd" --socket "$t/run/sbxd.sock" --ready-fd 3 \
	--policy "$t/policy.json" --hosts-file "$t/hosts" 3>"$t/ready" \
	2>"$t/sbxd.log" &
dpid=$!
pids+=($dpid)
read -r _ <"$t/ready" || die "sbxd did not start: $(cat "$t/sbxd.log")"
sbx() { "$b/sbxctl" --no-autostart --socket "$t/run/sbxd.sock" "$@"; }
cd "$t/ws" || exit 1

ROUNDS=${ROUNDS:-1}
modes="fwd connect"
sbx status | grep -q 'no transparent capture' ||
	modes="$modes captured"
# The CPU each process spends per keep-alive request (CPU=1): wrk again,
# alone, with the server's and sbxd's CPU read from /proc around it and
# wrk's from bash's time. Unlike the rates, these hardly move with the
# neighbours' load, so they compare builds and paths.
CPU=${CPU:-1}
srv=$(pgrep -P "${pids[0]}" | head -1)
srv=${srv:-${pids[0]}}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
cpu_rows() {	# mode url out
	local c s0 d0 s1 d1 kv
	for c in $WRK_CONNS; do
		s0=$(ticks "$srv") d0=$(ticks "$dpid")
		if [ "$1" = direct ]; then
			kv=$(ONLY=wrk WRK_CONNS=$c bash "$here/proxy-client.sh" \
				"$1" "$2")
		else
			kv=$(sbx run -- env ONLY=wrk WRK_CONNS=$c bash \
				"$here/proxy-client.sh" "$1" "$2")
		fi
		s1=$(ticks "$srv") d1=$(ticks "$dpid")
		awk -F'\t' -v c="$c" -v srv=$((s1 - s0)) -v sbxd=$((d1 - d0)) \
		    -v hz="$(getconf CLK_TCK)" -v proxied="$([ "$1" != direct ] && echo 1)" '
			$1 == "wrk_c" c "_reqs" { n = $2 }
			$1 == "wrk_c" c "_cpu_ms" { ms = $2 }
			END { if (n == 0) exit
				printf "cpu_c%s_client_us\t%.1f\n", c, ms * 1e3 / n
				printf "cpu_c%s_server_us\t%.1f\n", c, srv * 1e6 / hz / n
				if (proxied)
					printf "cpu_c%s_sbxd_us\t%.1f\n", c, sbxd * 1e6 / hz / n
			}' <<<"$kv" >>"$3"
	done
}
for ((r = 1; r <= ROUNDS; r++)); do
	echo "... round $r/$ROUNDS: direct" >&2
	bash "$here/proxy-client.sh" direct "$url" >"$t/direct.$r"
	[ "$CPU" = 1 ] && cpu_rows direct "$url" "$t/direct.$r"
	for m in $modes; do
		echo "... round $r/$ROUNDS: through sbx: $m" >&2
		u=$url
		[ $m = captured ] && u=http://bench.test:$PORT
		sbx run -- bash "$here/proxy-client.sh" "$m" "$u" >"$t/sbx-$m.$r"
		[ "$CPU" = 1 ] && [ $m != connect ] && command -v wrk >/dev/null &&
			cpu_rows "$m" "$u" "$t/sbx-$m.$r"
	done
done
# Each metric's median over the rounds (times in us/ms, counts summed;
# a _min the least, a _max the most).
for c in direct $(printf 'sbx-%s ' $modes); do
	"$PY" - "$t/$c".* >"$res/$c.tsv" <<'PYEOF'
import re, statistics, sys
vals = {}
for f in sys.argv[1:]:
    for line in open(f):
        if "\t" in line:
            k, v = line.rstrip("\n").split("\t", 1)
            vals.setdefault(k, []).append(v)
unit = {"us": 1, "ms": 1e3, "s": 1e6}
for k, vs in vals.items():
    if len(vs) == 1:
        print(f"{k}\t{vs[0]}")
    elif all("/" in v for v in vs):
        a = [v.split("/") for v in vs]
        print(f"{k}\t{sum(int(x) for x, _ in a)}/{sum(int(y) for _, y in a)}")
    elif all(re.fullmatch(r"[0-9.]+(us|ms|s)", v) for v in vs):
        m = statistics.median(float(v.rstrip("usm")) *
                              unit[re.sub(r"[0-9.]", "", v)] for v in vs)
        print(f"{k}\t%.2f%s" % ((m, "us") if m < 1e3 else (m / 1e3, "ms")))
    else:
        pick = (min if k.endswith("_min") else max if k.endswith("_max")
                else statistics.median)
        try:
            print(f"{k}\t%.2f" % pick(float(v) for v in vs))
        except ValueError:
            print(f"{k}\t{vs[-1]}")
PYEOF
done

if npm ls -g @anthropic-ai/sandbox-runtime >/dev/null 2>&1 &&
   [ -f "$PEERS/peers-proxy.sh" ]; then
	echo "... srt, through $PEERS/peers-proxy.sh" >&2
	PORT=$((PORT + 1)) AS_USER=${AS_USER-} RESULTS=$t/peers \
		bash "$PEERS/peers-proxy.sh" >"$t/peers.out" 2>"$t/peers.err" ||
		echo "peers-proxy.sh failed: $(tail -3 "$t/peers.err")" >&2
	for c in direct srtproxy-fwd srtproxy-connect srt-fwd srt-connect; do
		[ -f "$t/peers/$c.tsv" ] || continue
		[ $c = direct ] && cp "$t/peers/$c.tsv" "$res/direct-peers.tsv" ||
			cp "$t/peers/$c.tsv" "$res/$c.tsv"
	done
else
	echo "note: srt not installed (npm i -g @anthropic-ai/sandbox-runtime): no srt columns" >&2
fi

# Daemon memory with idle tunnels held open from inside a sandbox.
mkfifo "$t/raw.ready" "$t/hold" "$t/said"
"$PY" "$top/tests/integration/netserver.py" raw "$t/raw.log" >"$t/raw.ready" &
pids+=($!)
read -r _ raw <"$t/raw.ready"
rss() { awk '/^VmRSS/ {print $2}' "/proc/$dpid/status"; }
rss0=$(rss)
ulimit -n $((TUNNELS * 2 + 64)) 2>/dev/null
sbx run -- "$PY" "$top/tests/integration/proxyprobe.py" tunnels "$TUNNELS" \
	127.0.0.1 "$raw" <"$t/hold" >"$t/said" 2>&1 &
held=$!
exec 7>"$t/hold"
read -r held_line <"$t/said"
rss1=$(rss)
exec 7>&-
wait $held
printf 'idle_tunnels\t%s\nrss_before_kib\t%s\nrss_with_tunnels_kib\t%s\n' \
	"$held_line" "$rss0" "$rss1" >"$res/tunnels.tsv"

echo "## proxy throughput and request rate (loopback)"
echo "- $(uname -r), $(nproc) cores; server: $server on 127.0.0.1:$PORT"
echo "- N_BIG=$N_BIG N_SEQ=$N_SEQ WRK_D=$WRK_D WRK_CONNS='$WRK_CONNS' ROUNDS=$ROUNDS; sbx $("$b/sbxd" --version | awk '{print $2}')"
echo
"$PY" - "$res" "$TUNNELS" <<'PYEOF'
import os, sys
res, n = sys.argv[1], int(sys.argv[2])
order = ["direct", "sbx-fwd", "sbx-connect", "sbx-captured", "direct-peers",
         "srtproxy-fwd",
         "srtproxy-connect", "srt-fwd", "srt-connect"]
cols = [c for c in order if os.path.exists(f"{res}/{c}.tsv")]
def load(c):
    d = {}
    for line in open(f"{res}/{c}.tsv"):
        if "\t" in line:
            k, v = line.rstrip("\n").split("\t", 1)
            d[k] = v
    return d
data = {c: load(c) for c in cols}
keys = []
for c in cols:
    keys += [k for k in data[c] if k not in keys]
print("| metric | " + " | ".join(cols) + " |")
print("|---|" + "---:|" * len(cols))
for k in keys:
    print(f"| {k} | " + " | ".join(data[c].get(k, "-") for c in cols) + " |")
def pct(k, c, base):
    try:
        return "%.0f%%" % (100 * float(data[c][k]) / float(data[base][k]))
    except (KeyError, ValueError, ZeroDivisionError):
        return "-"
for k in ["big_MBps_median", "wrk_c1_rps", "wrk_c16_rps", "conn_setup_us"]:
    row = [pct(k, c, "direct-peers" if (c.startswith("srt") or
               c == "direct-peers") and "direct-peers" in data else "direct")
           for c in cols]
    print(f"| {k} vs direct | " + " | ".join(row) + " |")
t = load("tunnels")
before, during = int(t["rss_before_kib"]), int(t["rss_with_tunnels_kib"])
print(f"\nsbxd RSS with {n} idle tunnels ({t['idle_tunnels']}): "
      f"{before} KiB -> {during} KiB, {(during - before) * 1024 / n:.0f} "
      f"bytes per tunnel")
PYEOF
if [ "${TLS:-1}" != 0 ]; then
	echo
	PORT=$((PORT + 100)) bash "$here/proxy-tls.sh" "$b"
fi
