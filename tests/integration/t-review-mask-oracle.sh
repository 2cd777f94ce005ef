#!/bin/bash
# Privileged mode: a policy path the user cannot reach is looked up again
# as root (linux_userpath_policy's EACCES fallback) and masked or bound
# there; the sandbox's mountinfo then tells the user whether a name behind
# another user's 0700 directory exists. The user could not stat it.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "privileged mode needs root"
user=${SBX_TEST_USER:-sbxtest}
id "$user" >/dev/null 2>&1 || skip "no user $user"
H=$T/home
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
mkdir -m 700 "$T/rootonly"
echo x >"$T/rootonly/exists-$$"
cat >"$H/.config/sbx/policy.json" <<JSON
{"filesystem": {"denyRead": ["$T/rootonly/exists-$$", "$T/rootonly/absent-$$"],
                "denyWrite": ["$T/rootonly"]}}
JSON
chown "$user": "$H/.config/sbx/policy.json"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
expect_eq "the user cannot stat the name on the host" \
	"$(as "$BIN/sbx-probe" read "$T/rootonly/exists-$$")" EACCES
mi=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- cat /proc/self/mountinfo)
echo "$mi" | grep rootonly | cut -d" " -f4,5,6
check "no mount tells the user a root-only name exists" \
	test "$(grep -c "rootonly/exists-$$" <<<"$mi")" = 0
check "nor a read-only bind of a root-only directory" \
	test "$(grep -c " $T/rootonly " <<<"$mi")" = 0
done_test
