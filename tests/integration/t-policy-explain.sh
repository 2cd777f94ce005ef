#!/bin/bash
# policy explain names the decision, the rule (and its id and reason), the
# layer, and file:line:col, for a path (read and write, ignore files
# included), a host, an env variable, as text and as JSON; --workspace
# picks the workspace layer.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/other/.sbx"
cat >"$T/policy.json" <<JSON
{
  "filesystem": {
    "denyRead": [
      { "path": "$T/keys", "id": "keys", "reason": "signing keys live here" }
    ],
    "allowWrite": ["."]
  },
  "network": {
    "allowedDomains": [ { "domain": "*.example.com:443", "id": "ex" } ]
  },
  "env": { "pass": ["PATH", "LANG"], "deny": ["*TOKEN*"] }
}
JSON
cat >"$T/other/.sbx/policy.json" <<JSON
{ "network": { "deniedDomains": [ { "domain": "api.example.com", "id": "no-api" } ] } }
JSON
start_daemon --policy "$T/policy.json"
cd "$WS"
out=$(sbx policy explain "$T/keys/id")
check "path: decision ($out)" grep -q "^deny read $T/keys/id: under a denyRead path" <<<"$out"
check "path: rule and id" grep -q "rule: filesystem.denyRead \"$T/keys\" (id keys)" <<<"$out"
check "path: layer, file, line, col" grep -q "from: user $T/policy.json:4:7" <<<"$out"
check "path: reason" grep -q "reason: signing keys live here" <<<"$out"
out=$(sbx policy explain --write .git/config)
check "write: protected, from the built-in layer ($out)" \
	grep -q "^deny write $WS/.git/config: protected from writes" <<<"$out"
check "write: builtin origin" grep -q "from: builtin" <<<"$out"
out=$(sbx policy explain --write src/main.c)
check "write: inside the workspace ($out)" grep -q "^allow write $WS/src/main.c" <<<"$out"
out=$(sbx policy explain api.example.com)
check "host: decision ($out)" grep -q "^allow connect api.example.com:443: matches allowedDomains" <<<"$out"
check "host: rule, id, origin" grep -q 'rule: network.allowedDomains "\*.example.com:443" (id ex)' <<<"$out"
check "host: file:line" grep -q "from: user $T/policy.json:9:" <<<"$out"
out=$(sbx policy explain api.example.com:80)
check "host: another port is not allowed ($out)" grep -q "^deny connect api.example.com:80" <<<"$out"
out=$(sbx policy explain env:GITHUB_TOKEN)
check "env: denied by the rule ($out)" grep -q 'rule: env.deny "\*TOKEN\*"' <<<"$out"
out=$(sbx policy explain --json "$T/keys/id")
check "json: fields" "$PY" -c '
import json, sys
d = json.loads(sys.argv[1])
o = d["origin"]
assert d["verdict"] == "deny" and d["access"] == "read", d
assert d["list"] == "filesystem.denyRead" and d["value"] == sys.argv[2] + "/keys", d
assert o["layer"] == "user" and o["file"] == sys.argv[2] + "/policy.json", o
assert (o["line"], o["col"], o["id"]) == (4, 7, "keys"), o
' "$out" "$T"
out=$(sbx policy explain --workspace "$T/other" api.example.com)
check "--workspace: that workspace's rule ($out)" grep -q "(id no-api)" <<<"$out"
check "--workspace: its file" grep -q "from: workspace $T/other/.sbx/policy.json:1:" <<<"$out"
printf '# secrets\n.env\n' >"$WS/.sbxignore"
mkdir -p "$WS/sub/deep"
printf '*.pem\n!keep.pem\n' >"$WS/sub/.cursorignore"
out=$(sbx policy explain .env)
check "ignore file: masked ($out)" grep -q "^deny read $WS/.env: masked by an ignore file" <<<"$out"
check "ignore file: the line" grep -q "rule: ignore pattern \".env\"" <<<"$out"
check "ignore file: file and line" grep -q "from: workspace $WS/.sbxignore:2" <<<"$out"
out=$(sbx policy explain --write sub/deep/k.pem)
check "nested ignore file, for writing ($out)" \
	grep -q "^deny write $WS/sub/deep/k.pem: masked" <<<"$out"
check "nested: its file" grep -q "from: workspace $WS/sub/.cursorignore:1" <<<"$out"
out=$(sbx policy explain sub/deep/keep.pem)
check "a negated line re-allows ($out)" grep -q "^allow read" <<<"$out"
out=$(sbx policy explain 'bad host!' 2>&1); rc=$?
expect_eq "a malformed host is an error" "$rc" 125
out=$(sbx policy show --json)
check "show --json is canonical JSON with origins" "$PY" -c '
import json, sys
d = json.loads(sys.argv[1])
r = d["filesystem"]["denyRead"]
assert any(x["path"].endswith("/keys") and x["id"] == "keys" and x["from"].startswith("user ") for x in r), r
' "$out"
check "show (text) lists rules with origins" \
	grep -q "from user $T/policy.json:4:7, id keys" < <(sbx policy show)
stop_daemon
done_test
