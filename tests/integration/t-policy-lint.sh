#!/bin/bash
# policy check (and its alias lint): 0 for a clean file or warnings only,
# 1 for errors (each printed as file:line:col: severity: message), 125
# when the file cannot be read; widening beyond the daemon's current org
# layer is a warning; --local skips the daemon.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/org"
chmod 755 "$T/org"
cat >"$T/org/base.json" <<JSON
{ "network": { "allowedDomains": ["*.example.com"] } }
JSON
chmod 644 "$T/org/base.json"
start_daemon --org-dir "$T/org"
cd "$WS"
cat >"$T/good.json" <<JSON
{ "filesystem": { "allowWrite": ["."] },
  "network": { "allowedDomains": ["api.example.com"] } }
JSON
out=$(sbx policy check "$T/good.json"); rc=$?
expect_eq "clean file: exit 0" "$rc" 0
expect_eq "clean file: silent" "$out" ""
printf '{\n  "network": {\n    "allowedDomains": ["a.example.com",]\n  }\n}\n' >"$T/syntax.json"
out=$(sbx policy check "$T/syntax.json"); rc=$?
expect_eq "syntax error: exit 1" "$rc" 1
check "syntax error: file:line:col ($out)" grep -q "^$T/syntax.json:3:.*: error: " <<<"$out"
printf '{\n  "filesystem": {\n    "denyRead": "~/.ssh",\n    "colour": 1\n  }\n}\n' >"$T/bad.json"
out=$(sbx policy lint "$T/bad.json"); rc=$?
expect_eq "type error (lint alias): exit 1" "$rc" 1
check "type error located ($out)" grep -q "^$T/bad.json:3:17: error: " <<<"$out"
check "every error reported, the unknown key too" grep -q "^$T/bad.json:4:5: error: filesystem.colour: unknown key" <<<"$out"
cat >"$T/wide.json" <<JSON
{ "network": { "allowedDomains": ["*.example.com", "evil.org"] } }
JSON
out=$(sbx policy check "$T/wide.json"); rc=$?
expect_eq "widening: warnings only, exit 0" "$rc" 0
check "widening beyond the org layer warned ($out)" \
	grep -q "wide.json:1:52: warning: user network.allowedDomains \"evil.org\" dropped" <<<"$out"
out=$(sbx policy check --local "$T/wide.json"); rc=$?
expect_eq "--local: exit 0" "$rc" 0
expect_eq "--local: the daemon is not asked" "$out" ""
echo '{ "serial": 2 }' >"$T/ws-serial.json"
out=$(sbx policy check --layer workspace "$T/ws-serial.json"); rc=$?
expect_eq "--layer: a serial outside org is an error" "$rc" 1
out=$(sbx policy check --layer org "$T/ws-serial.json"); rc=$?
expect_eq "--layer org: fine" "$rc" 0
echo '{ "filesystem": { "allowWrite": ["./not-there"] } }' >"$T/missing.json"
out=$(sbx policy check "$T/missing.json"); rc=$?
expect_eq "a missing path is a note, exit 0" "$rc" 0
check "noted ($out)" grep -q "note: filesystem.allowWrite \"$WS/not-there\": no such" <<<"$out"
sbx policy check "$T/nope.json" 2>/dev/null; rc=$?
expect_eq "unreadable file: exit 125" "$rc" 125
stop_daemon
done_test
