# Shared by the approval tests (sourced after lib.sh): a web server on the
# host that counts what reaches it ($URL), a daemon that asks about every
# host it does not know, and the ways to answer: sbxctl on a pty (drive)
# and an approver subscribed through the broker (approver).
. "$HERE/proxy-lib.sh"
command -v curl >/dev/null || skip "curl not installed"
start_server web http "$T/www"
WEB=$SRV_PORT
URL="http://127.0.0.1:$WEB/hello.txt"
# What sbxctl asks on its terminal.
Q='Allow it?'

# start_ask_daemon TIMEOUT [HOSTS_LINES]: a daemon whose user layer allows
# registry.test only and asks about the rest, waiting TIMEOUT s for an
# answer; cd to the workspace.
start_ask_daemon() {
	start_proxy_daemon '{"network": {"allowedDomains": ["registry.test"],
  "unknownHosts": "ask"}}' "${2:-}" --ask-timeout "$1"
	cd "$WS"
}

# drive [expect TEXT send KEYS]... -- CMD...: CMD on a pty (ptydrive.py).
drive() { "$PY" "$HERE/ptydrive.py" "$@"; }

# get: a shell command that fetches $URL and prints " STATUS".
get() { echo "curl -sS -w ' %{http_code}\\n' -o /dev/null $URL"; }

# approver NAME ANSWER: brokerclient.py's approver, through the test's bc
# (which runs it as the test needs), in the background ($APPR); its lines
# in $T/appr. Returns once it is subscribed.
approver() {
	# Gone before the new one starts: its "subscribed" is the new one's.
	rm -f "$T/appr"
	bc approver "$@" >"$T/appr" 2>&1 &
	APPR=$!
	wait_for "the approver's subscription" grep -qs '^subscribed' "$T/appr"
}
