#!/bin/bash
# sbxctl's conventions: global options before or after the verb (never
# inside run's command), --help, -h and `help VERB` for every verb (usage on
# stdout, exit 0, nothing run), --version and `version` (the daemon's too,
# never starting one), --json on the verbs that report, and usage errors on
# stderr with exit 125.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
json() { "$PY" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

verbs=$(sbx help | sed -n 's/^  sbxctl \([a-z]*\).*/\1/p' | tr '\n' ' ')
expect_eq "help lists every verb" "$verbs" \
	"run attach sandbox mcp ps kill status policy describe events doctor reset shutdown version help "
for v in $verbs; do
	out=$(sbx "$v" --help 2>"$T/err"); rc=$?
	expect_eq "$v --help exits 0" "$rc" 0
	check "$v --help prints its usage on stdout" \
		grep -q "^usage: sbxctl $v" <<<"$out"
	check "$v --help prints nothing on stderr" test ! -s "$T/err"
	expect_eq "help $v is $v --help" "$(sbx help "$v")" "$out"
	expect_eq "$v -h is $v --help" "$(sbx "$v" -h)" "$out"
	expect_eq "--help $v is $v --help" "$(sbx --help "$v")" "$out"
done
for s in show explain check lint push keygen sign; do
	out=$(sbx policy "$s" --help); rc=$?
	expect_eq "policy $s --help exits 0" "$rc" 0
	check "policy $s --help prints its usage" \
		grep -q "^usage: sbxctl policy $s" <<<"$out"
	expect_eq "help policy $s is the same" "$(sbx help policy "$s")" "$out"
done
check "shutdown --help stopped nothing" kill -0 "$DPID"
check "run --help ran nothing" test -z "$(sbx --json ps | json 'len(d) or ""')"

# Global options after the verb, and after its own options and operands.
pid=$(sbx status --json | json 'd["pid"]')
expect_eq "status --json" "$pid" "$DPID"
pid=$("$BIN/sbxctl" status --no-autostart --socket "$SOCK" --connect-timeout 2 --json | json 'd["pid"]')
expect_eq "status --socket, --no-autostart, --connect-timeout after the verb" "$pid" "$DPID"
pid=$("$BIN/sbxctl" status --socket="$SOCK" --no-autostart --json | json 'd["pid"]')
expect_eq "--socket=PATH after the verb" "$pid" "$DPID"
expect_eq "ps --json" "$(sbx ps --json | json 'd')" "[]"
check "describe --json" sh -c "sbx describe --workspace '$WS' --json | $PY -m json.tool >/dev/null"
expect_eq "policy show --json (before the verb too)" \
	"$(sbx policy show --json | json 'sorted(d)')" "$(sbx --json policy show | json 'sorted(d)')"
expect_eq "policy explain PATH --json" \
	"$(sbx policy explain /etc/passwd --json | json 'd["verdict"]')" allow
echo '{"filesystem": {"denyRead": ["~/.nope"]}}' >"$T/p.json"
expect_eq "policy check FILE --json" \
	"$(sbx policy check "$T/p.json" --json | json '(d["errors"], d["checked_by_daemon"])')" "(0, True)"
echo '{"filesystem": {"denyRead": 3}}' >"$T/bad.json"
sbx policy check --json "$T/bad.json" >"$T/bad.out"
expect_eq "policy check --json on a bad file exits 1" $? 1
check "and lists the error" sh -c "$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d[\"errors\"] and \"error\" in d[\"diagnostics\"][0]))' '$T/bad.out'"
expect_eq "version --json: the daemon's is the client's" \
	"$(sbx version --json | json 'd["sbxd"] == d["sbxctl"] and d["sbxd_protocol"] == d["protocol"]')" True

# run: globals before "--" are sbxctl's; the command's words are its own.
out=$(sbx run --json -- sh -c 'echo "$@"' sh --json --socket x -h 2>"$T/err")
expect_eq "run -- CMD --json: --json is the command's" "$out" "--json --socket x -h"
check "run --json: the summary is JSON" sh -c "tail -1 '$T/err' | $PY -m json.tool >/dev/null"
out=$(sbx run echo --json 2>/dev/null)
expect_eq "run CMD --json: after the command, the command's" "$out" "--json"

# --version: sbxctl's and the daemon's, the same build here.
out=$("$BIN/sbxctl" --socket "$SOCK" --version)
expect_eq "--version exits 0" $? 0
v=$(sed -n 's/^sbxctl \([^ ]*\) (protocol \([0-9]*\))$/\1 \2/p' <<<"$out")
check "--version names sbxctl's version and protocol" test -n "$v"
expect_eq "--version names the daemon's" "$(sed -n 2p <<<"$out")" \
	"sbxd ${v% *} (protocol ${v#* }) at $SOCK"
expect_eq "status --version is --version" "$(sbx status --version)" "$out"

# Usage errors: stderr, exit 125 (run passes any other status through).
for args in "frobnicate" "--bogus status" "status --bogus" "status extra" \
	"status --connect-timeout" "status --connect-timeout abc" \
	"status --json=1" "policy frob" "help frobnicate" "" "kill" \
	"run --bogus -- true"; do
	# shellcheck disable=SC2086 # words, on purpose
	out=$(sbx $args 2>"$T/err"); rc=$?
	expect_eq "sbxctl $args: exit 125" "$rc" 125
	expect_eq "sbxctl $args: nothing on stdout" "$out" ""
	check "sbxctl $args: usage on stderr" grep -qi "usage" "$T/err"
done
check "daemon still serving" kill -0 "$DPID"

# No daemon: --version says so, and starts none.
stop_daemon
out=$("$BIN/sbxctl" --socket "$SOCK" --version)
expect_eq "--version with no daemon exits 0" $? 0
expect_eq "and says none answers" "$(sed -n 2p <<<"$out")" "sbxd: no sbxd answers at $SOCK"
check "--version started no daemon" test ! -e "$SOCK"
done_test
