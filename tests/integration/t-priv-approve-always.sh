#!/bin/bash
# Privileged mode (a root daemon serving the test user): "allow always"
# from an approver writes the rule into the user's policy file as the
# user: the new file is the user's, renamed over the old one; a policy
# path that is a symlink to a file the user cannot write leaves that file
# as it was (root's rights never reach it) and the answer says why not.
. "$(dirname "$0")/lib.sh"
need_served_user
. "$HERE/ask-lib.sh"
H=$T/home
mkdir -p "$H/.config/sbx"
printf '{"network": {"unknownHosts": "ask"}}\n' >"$H/.config/sbx/policy.json"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
start_daemon --user "$user" --home "$H" --ask-timeout 20
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
bc() { as "$PY" "$HERE/brokerclient.py" "$SOCK" "$WS" "$@"; }
CURL=(curl -sS --noproxy "" -o - "$URL")
F=$H/.config/sbx/policy.json

ino=$(stat -c %i "$F")
approver ide always
out=$(bc silent-run harness "${CURL[@]}")
wait "$APPR"
check "always: the run went through" grep -qx "run output=hello" <<<"$out"
check "the answer names the user's file and the rule" grep -q \
	"^answered req=[0-9]* by=ide mine=1 answer=5 file=$F rule=approved-127.0.0.1-$WEB error=$" "$T/appr"
check "the rule is in the file" grep -q "\"domain\": \"127.0.0.1:$WEB\"" "$F"
expect_eq "the file is the user's" "$(stat -c %U:%G "$F")" "$user:$(id -gn "$user")"
check "... a new file renamed over the old" test "$(stat -c %i "$F")" != "$ino"

# The user's policy path leads to a file of root's: not written.
mkdir "$T/rootdir"
printf '{"network": {"unknownHosts": "ask"}}\n' >"$T/rootdir/policy.json"
chmod 755 "$T/rootdir"; chmod 644 "$T/rootdir/policy.json"
sum=$(sha256sum <"$T/rootdir/policy.json")
rm "$F"
as ln -s "$T/rootdir/policy.json" "$F"
approver ide always
out=$(bc silent-run harness curl -sS --noproxy "" -o - "http://127.0.0.1:$WEB/hello.txt?2")
wait "$APPR"
expect_eq "root's file unchanged" "$(sha256sum <"$T/rootdir/policy.json")" "$sum"
expect_eq "... still root's" "$(stat -c %U "$T/rootdir/policy.json")" root
check "the link was replaced by the user's own file, or nothing was written" \
	sh -c "test -L '$F' || test \"\$(stat -c %U '$F')\" = '$user'"
stop_daemon
done_test
