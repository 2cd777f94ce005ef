#!/bin/bash
# Privileged mode: reads done for the served user take the user's groups,
# not root's supplementary ones. Root runs sbxd with a group (adm) the user
# is not in; a decoy file readable only by that group is what the user's
# own policy file links to. Its first token (which a parse error would
# quote) shows in no reply, status or log, and the file is reported
# unreadable.
. "$(dirname "$0")/lib.sh"
need_served_user
grp=adm
gid=$(getent group "$grp" | cut -d: -f3)
[ -n "$gid" ] || skip "no group $grp"
id -G "$user" | grep -qw "$gid" && skip "$user is in $grp"
H=$T/home
TOKEN=SBXDECOYWORD    # letters only: a parse error quotes it whole
echo "$TOKEN and the rest of a secret" >"$T/decoy"
chown root:"$grp" "$T/decoy"
chmod 440 "$T/decoy"
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
ctl() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
check "the user cannot read the decoy" as test ! -r "$T/decoy"
as ln -s "$T/decoy" "$H/.config/sbx/policy.json"
SBXD_WRAP="setpriv --groups 0,$gid" start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
check "the daemon holds $grp among its groups" \
	grep -qw "$gid" <<<"$(grep ^Groups: "/proc/$DPID/status")"
cd "$WS"
seen=$(ctl status 2>&1; ctl --json status 2>&1; ctl run -q -- true 2>&1;
       ctl policy show 2>&1; ctl policy explain "$WS" 2>&1;
       ctl describe 2>&1)
check "the decoy is reported unreadable" \
	grep -qF "$H/.config/sbx/policy.json: Permission denied" <<<"$seen"
check "no reply quotes the decoy" test "${seen#*"$TOKEN"}" = "$seen"
check "the log does not quote the decoy" \
	test "$(grep -c "$TOKEN" "$T/sbxd.log")" = 0
expect_eq "the decoy unchanged" "$(stat -c '%U:%G %a' "$T/decoy"; cat "$T/decoy")" \
	"root:$grp 440
$TOKEN and the rest of a secret"
stop_daemon
done_test
