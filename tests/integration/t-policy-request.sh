#!/bin/bash
# The request layer: `run --deny-read/--allow-write/--allow-domain/--policy`
# narrows this one run and never widens; a bad --policy file is refused
# with its position; the next run without flags is back to the policy.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
mkdir -p "$WS/sub" "$T/outside"
echo data >"$WS/notes.txt"
echo host >"$T/outside/f"
cat >"$T/policy.json" <<JSON
{ "filesystem": { "allowWrite": ["."] },
  "network": { "allowedDomains": ["*.example.com"] } }
JSON
start_daemon --policy "$T/policy.json"
cd "$WS"
expect_eq "--deny-read masks for this run" \
	"$(sbx run --deny-read notes.txt -- "$P" read "$WS/notes.txt")" EACCES
expect_eq "the next run reads it again" "$(sbx run -- cat notes.txt)" data
expect_eq "--allow-write narrows the workspace" \
	"$(sbx run --allow-write sub -- "$P" write "$WS/top.txt")" EROFS
expect_eq "--allow-write path stays writable" \
	"$(sbx run --allow-write sub -- "$P" write "$WS/sub/f")" ok
sbx run --json --allow-write sub -- sh -c "exit 1" 2>"$T/sum.json"
expect_eq "a failed run lists what this run could write" \
	"$("$PY" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["writable"]))' "$T/sum.json")" \
	"$WS/sub /tmp"
check "nothing written at the top" test ! -e "$WS/top.txt"
expect_eq "--allow-write cannot widen past the user layer" \
	"$(sbx run --allow-write "$T/outside" -- "$P" write "$T/outside/f")" EROFS
expect_eq "host file outside untouched" "$(cat "$T/outside/f")" host
printf '{\n  "filesystem": {"denyRead": ["sub"]}\n}\n' >"$T/run.json"
expect_eq "--policy file applies (relative to the workspace)" \
	"$(sbx run --policy "$T/run.json" -- "$P" read "$WS/sub")" EACCES
printf '{\n  "network": {"allowedDomains": 3}\n}\n' >"$T/bad.json"
out=$(sbx run --policy "$T/bad.json" -- true 2>&1); rc=$?
expect_eq "bad --policy refused" "$rc" 125
check "refusal names file:line:col ($out)" grep -q "$T/bad.json:2:33: error" <<<"$out"
out=$(sbx run --allow-domain 'bad host' -- true 2>&1); rc=$?
expect_eq "bad --allow-domain refused" "$rc" 125
check "refusal names the flag ($out)" grep -q -- "--allow-domain: error" <<<"$out"
expect_eq "daemon still serves" "$(sbx run -- echo yes)" yes
stop_daemon
done_test
