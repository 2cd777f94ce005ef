#!/bin/bash
# proxy-client.sh MODE BASE_URL: the measuring client of proxy.sh, on the
# host (direct) or inside a sandbox (fwd: absolute-URI requests through
# HTTP_PROXY; connect: CONNECT tunnels). Prints "metric<TAB>value" lines,
# named as in ../shared/bench/proxy-client.sh so the tables line up.
#   env: N_BIG=10 N_SEQ=200 WRK_D=10s WRK_CONNS="1 16" BIG=/100m.bin SMALL=/1k.bin
set -u
mode=$1 base=$2
here=$(cd "$(dirname "$0")" && pwd)
N_BIG=${N_BIG:-10} N_SEQ=${N_SEQ:-200} WRK_D=${WRK_D:-10s}
WRK_CONNS=${WRK_CONNS:-1 16} BIG=${BIG:-/100m.bin} SMALL=${SMALL:-/1k.bin}
proxy=${HTTP_PROXY:-}
case $mode in
direct) copts=(--noproxy '*') ;;
fwd) copts=(--noproxy '' -x "$proxy") ;;
connect) copts=(--noproxy '' -x "$proxy" -p) ;;
*) echo "bad mode $mode" >&2; exit 2 ;;
esac
stats() {
	sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
		printf "%.1f\t%.1f\t%.1f\n", m, a[1], a[NR]}'
}

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

# Keep-alive request rate (not through CONNECT: wrk speaks no proxy).
if [ "$mode" != connect ] && command -v wrk >/dev/null; then
	for c in $WRK_CONNS; do
		t=$((c < 2 ? 1 : 2))
		if [ "$mode" = direct ]; then
			out=$(wrk -t$t -c"$c" -d"$WRK_D" --latency "$base$SMALL" 2>&1)
		else
			out=$(TARGET="$base$SMALL" wrk -t$t -c"$c" -d"$WRK_D" \
				--latency -s "$here/wrk-proxy.lua" "$proxy" 2>&1)
		fi
		printf 'wrk_c%s_rps\t%s\n' "$c" "$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
		printf 'wrk_c%s_p50\t%s\n' "$c" "$(awk '$1 == "50%" {print $2}' <<<"$out")"
		printf 'wrk_c%s_p99\t%s\n' "$c" "$(awk '$1 == "99%" {print $2}' <<<"$out")"
		n=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
		[ -n "$n" ] && printf 'wrk_c%s_non2xx\t%s\n' "$c" "$n"
	done
fi
exit 0
