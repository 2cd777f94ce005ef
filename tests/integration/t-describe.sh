#!/bin/bash
# sbxctl describe: the constraints of a workspace's sandbox, in text for a
# shell tool's description and as JSON, from the policy in force.
. "$(dirname "$0")/lib.sh"
cat >"$T/policy.json" <<JSON
{"filesystem": {"denyRead": ["$T/secret"], "allowWrite": ["."]},
 "network": {"allowedDomains": ["pypi.org"], "unknownHosts": "ask"}}
JSON
start_daemon --policy "$T/policy.json"
cd "$WS"
out=$(sbx describe)
check "names the writable workspace" grep -qx -- "- Writable: $WS" <<<"$out"
check "names the unreadable path" grep -q -- "$T/secret" <<<"$out"
check "names the allowed host" grep -q "Allowed hosts: pypi.org" <<<"$out"
check "says unknown hosts are asked about" grep -q "the user is asked" <<<"$out"
check "says how to ask for more" grep -q "sbx: blocked" <<<"$out"
check "JSON agrees" python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["writable"]==[sys.argv[1]] and d["unknown_hosts"]=="ask" and "pypi.org" in d["allowed_hosts"], d' "$WS" < <(sbx --json describe)
other=$(mktemp -d "$T/o.XXXX")
check "--workspace DIR describes that one" bash -c "sbx describe --workspace $other | grep -qx -- '- Writable: $other'"
stop_daemon
done_test
