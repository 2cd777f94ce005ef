# Shared by the proxy tests (sourced after lib.sh): loopback servers with
# readiness read from a fifo, a policy for the daemon, counts of what
# reached a server.
SRV_PIDS=()
# These servers are the host's, on 127.0.0.1, and reached through the
# proxy; the sandbox exempts loopback from it (NO_PROXY), so curl is told
# to take no exemption (an empty noproxy in $CURL_HOME/.curlrc).
mkdir "$T/curlhome"
printf 'noproxy = ""\n' >"$T/curlhome/.curlrc"
export CURL_HOME="$T/curlhome"
# Every proxy test serves at least this file.
mkdir "$T/www"
echo hello >"$T/www/hello.txt"
proxy_cleanup() {
	local p
	for p in "${SRV_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	cleanup
}
trap proxy_cleanup EXIT

# start_script NAME SCRIPT [ARGS...]: runs $HERE/SCRIPT, which prints
# "listening PORT" once it accepts; sets SRV_PORT.
start_script() {
	local name=$1 script=$2 line; shift 2
	mkfifo "$T/$name.ready"
	"$PY" "$HERE/$script" "$@" >"$T/$name.ready" 2>>"$T/$name.err" &
	SRV_PIDS+=($!)
	read -r line <"$T/$name.ready" || true
	rm -f "$T/$name.ready"
	case $line in
	"listening "*) SRV_PORT=${line#listening } ;;
	*) cat "$T/$name.err" >&2; echo "FAIL: server $name did not start" >&2
	   exit 1 ;;
	esac
}

# start_server NAME MODE [--bind ADDR] [ARGS...]: sets SRV_PORT; the
# server logs to $T/NAME.log.
start_server() {
	local name=$1; shift
	start_script "$name" netserver.py "$1" "$T/$name.log" "${@:2}"
}

# An IPv4 address of this host that is neither public nor loopback (the
# name of a --hosts-file entry that only allowPrivate opens), or "".
private_addr() {
	"$PY" - <<'PY'
import ipaddress, subprocess
out = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True,
                     text=True).stdout
for line in out.splitlines():
    a = ipaddress.ip_interface(line.split()[3]).ip
    if not a.is_loopback and not a.is_link_local and not a.is_global:
        print(a)
        break
PY
}

# Connections server NAME has accepted so far.
conns() { grep -c '^conn' "$T/$1.log"; }

# start_proxy_daemon POLICY_JSON [HOSTS_LINES] [SBXD ARGS...]: the user
# layer is POLICY_JSON; HOSTS_LINES go to the resolver.
start_proxy_daemon() {
	printf '%s\n' "$1" >"$T/policy.json"
	printf '%s\n' "${2:-}" >"$T/hosts"
	start_daemon --policy "$T/policy.json" --hosts-file "$T/hosts" "${@:3}"
}

probe() { "$PY" "$HERE/proxyprobe.py" "$@"; }
