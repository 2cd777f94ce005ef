#!/bin/bash
# A workspace policy can only narrow: what it allows beyond the user layer
# (a domain, a writable path) is cut, explain shows the user layer's
# decision, check warns, and the sandbox enforces the cut; what it denies
# holds.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
mkdir -p "$T/outside" "$WS/.sbx"
echo private >"$WS/private.txt"
cat >"$T/policy.json" <<JSON
{ "filesystem": { "allowWrite": ["."] },
  "network": { "allowedDomains": ["*.example.com"] } }
JSON
cat >"$WS/.sbx/policy.json" <<JSON
{
  "filesystem": {
    "allowWrite": [".", "$T/outside"],
    "denyRead": [ { "path": "private.txt", "id": "ws-private" } ]
  },
  "network": { "allowedDomains": ["api.example.com", "evil.org"] }
}
JSON
start_daemon --policy "$T/policy.json"
cd "$WS"
out=$(sbx policy explain evil.org)
check "explain: the widened domain is denied ($out)" grep -q "^deny connect evil.org:443" <<<"$out"
out=$(sbx policy explain api.example.com)
check "explain: the narrowed domain is allowed from the workspace file ($out)" \
	grep -q "from: workspace $WS/.sbx/policy.json:6:" <<<"$out"
check "explain: within the user rule" grep -q "within: user $T/policy.json:2:" <<<"$out"
out=$(sbx policy explain www.example.com)
check "explain: narrowed away ($out)" grep -q "^deny" <<<"$out"
out=$(sbx policy explain --write "$T/outside/f")
check "explain: the widened path is not writable ($out)" grep -q "^deny write" <<<"$out"
out=$(sbx policy check "$WS/.sbx/policy.json"); rc=$?
expect_eq "check: warnings only, exit 0" "$rc" 0
check "check warns about the domain ($out)" \
	grep -q "policy.json:6:.*warning: workspace network.allowedDomains \"evil.org\" dropped" <<<"$out"
check "check warns about the path" \
	grep -q "warning: workspace filesystem.allowWrite \"$T/outside\" dropped" <<<"$out"
expect_eq "the sandbox enforces the cut" "$(sbx run -- "$P" write "$T/outside/f")" EROFS
check "nothing written outside" test ! -e "$T/outside/f"
expect_eq "the workspace's deny holds" "$(sbx run -- "$P" read "$WS/private.txt")" EACCES
check "explain names the workspace rule" \
	grep -q "(id ws-private)" < <(sbx policy explain private.txt)
stop_daemon
done_test
