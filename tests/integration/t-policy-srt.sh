#!/bin/bash
# With no sbx user policy, ~/.srt-settings.json (the peer's settings file,
# keys unchanged) is the user layer; once ~/.config/sbx/policy.json
# appears, it takes over, without a restart (also when its directory is
# replaced). sbxd --home points the lookup
# at a test home (the served user's real home is left alone).
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
H=$T/home
mkdir -p "$H"
echo top-secret >"$T/secret.txt"
cat >"$H/.srt-settings.json" <<JSON
{
  "filesystem": { "denyRead": ["$T/secret.txt"], "allowWrite": ["."] },
  "network": { "allowedDomains": ["registry.npmjs.org"],
               "allowLocalBinding": false }
}
JSON
start_daemon --home "$H"
cd "$WS"
expect_eq "srt denyRead enforced" "$(sbx run -- "$P" read "$T/secret.txt")" EACCES
expect_eq "srt allowWrite enforced" "$(sbx run -- "$P" write "$WS/f")" ok
out=$(sbx policy explain "$T/secret.txt")
check "explain cites the srt file ($out)" grep -q "from: user $H/.srt-settings.json:2:" <<<"$out"
out=$(sbx policy explain registry.npmjs.org)
check "its domains are the user layer's ($out)" \
	grep -q "from: user $H/.srt-settings.json:" <<<"$out"
mkdir -p "$H/.config/sbx"
echo '{ "filesystem": { "allowWrite": ["."] } }' >"$H/.config/sbx/policy.json"
expect_eq "an sbx user policy takes over" "$(sbx run -- cat "$T/secret.txt")" top-secret
check "explain follows" grep -q "^allow read" < <(sbx policy explain "$T/secret.txt")
# The directory moved away and made again is watched anew.
mv "$H/.config/sbx" "$H/.config/sbx.old"
mkdir "$H/.config/sbx"
check "no problem while there is no file" bash -c '! sbx status | grep -q "^policy:"'
echo '{ "filesystem": ' >"$H/.config/sbx/policy.json"
check "an edit in the new directory shows" \
	grep -q "^policy: .*$H/.config/sbx/policy.json:2:" < <(sbx status)
stop_daemon
done_test
