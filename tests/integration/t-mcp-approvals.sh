#!/bin/bash
# A network approval in sbxctl mcp: asked through MCP elicitation when the
# client declared it (its answer decides), else denied with the reason in
# the command's report; --on-ask=deny never asks. The same with the
# stateless revision, whose question goes in the tools/call's result. What reached the host's
# server is counted on the server.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/sbx-mcp-conform" ] || skip "sbx-mcp-conform not built"
. "$HERE/ask-lib.sh"
start_ask_daemon 20
mcp() { # mcp ELICIT [--modern] [sbxctl mcp's options]
	local e=$1 m=; shift
	[ "${1:-}" = --modern ] && { m=--modern; shift; }
	"$BIN/sbx-mcp-conform" --scenario net --elicit "$e" $m --url "$URL" \
		-- "$BIN/sbxctl" --no-autostart --socket "$SOCK" mcp "$@" \
		2>>"$T/err"
}

out=$(mcp allow-once)
echo "$out" >&2
expect_eq "an elicitation-capable client is asked once" \
	"$(grep '^elicited ' <<<"$out")" "elicited 1"
check "... naming the host" grep -q "^elicited: .*127.0.0.1:$WEB (http)" <<<"$out"
expect_eq "... and its allow lets the connection through" \
	"$(grep '^code ' <<<"$out")" "code 200"
check "... which the report says" grep -q "allowed once by the user" <<<"$out"
expect_eq "the server got it" "$(conns web)" 1

out=$(mcp deny)
expect_eq "asked, and denied" "$(grep '^code ' <<<"$out")" "code 403"
check "... by the user, the report says" grep -q "denied by the user" <<<"$out"

out=$(mcp none)
echo "$out" >&2
expect_eq "a client without elicitation is not asked" \
	"$(grep '^elicited ' <<<"$out")" "elicited 0"
expect_eq "... and the connection is denied" "$(grep '^code ' <<<"$out")" \
	"code 403"
check "... with the reason in the report" \
	grep -q "cannot ask the user (it declared no elicitation)" <<<"$out"

out=$(mcp allow-once --on-ask=deny)
expect_eq "--on-ask=deny: never asked" "$(grep '^elicited ' <<<"$out")" \
	"elicited 0"
expect_eq "... denied" "$(grep '^code ' <<<"$out")" "code 403"
check "... saying so" grep -q -- "--on-ask=deny" <<<"$out"
expect_eq "only the allowed connection reached the server" "$(conns web)" 1

# The stateless revision: the question comes in the tools/call's result
# (input_required), the retry brings the answer and the command's report.
out=$(mcp allow-once --modern)
echo "$out" >&2
expect_eq "2026-07-28: asked once, in the call's result" \
	"$(grep '^elicited ' <<<"$out")" "elicited 1"
expect_eq "... its allow lets the connection through" \
	"$(grep '^code ' <<<"$out")" "code 200"
check "... and the retry's report says so" \
	grep -q "allowed once by the user" <<<"$out"
expect_eq "the server got it" "$(conns web)" 2
out=$(mcp none --modern)
expect_eq "2026-07-28 without elicitation: not asked" \
	"$(grep '^elicited ' <<<"$out")" "elicited 0"
expect_eq "... denied" "$(grep '^code ' <<<"$out")" "code 403"
check "... saying why" grep -q "declared no elicitation" <<<"$out"
expect_eq "nothing more reached the server" "$(conns web)" 2
check "sbxctl mcp said nothing on stderr" test ! -s "$T/err"
stop_daemon
done_test
