#!/bin/bash
# Privileged mode: a policy path behind another user's 0700 directory,
# which the user cannot reach, is treated as absent (linux_userpath_policy
# looks again as root only across the user's own directories), so the
# sandbox's mountinfo cannot tell the user whether a name there exists.
. "$(dirname "$0")/lib.sh"
need_served_user
H=$T/home
mkdir -p "$H/.config/sbx"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
mkdir -m 700 "$T/rootonly" "$T/rootonly/dir-$$"
echo x >"$T/rootonly/exists-$$"
# (rootonly itself the user sees in $T: its read-only bind tells nothing;
# what is behind it the user cannot learn.) A directory of the user's,
# mode 000, is the user's to open: its paths are still masked and bound.
mkdir -p "$WS/own/sub"
echo x >"$WS/own/sub/f"
chown -R "$user": "$WS/own"
chmod 000 "$WS/own"
cat >"$H/.config/sbx/policy.json" <<JSON
{"filesystem": {"denyRead": ["$T/rootonly/exists-$$", "$T/rootonly/absent-$$",
                             "$WS/own/sub/f"],
                "denyWrite": ["$T/rootonly", "$T/rootonly/dir-$$",
                              "$WS/own/sub"]}}
JSON
chown "$user": "$H/.config/sbx/policy.json"
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"
cd "$WS"
expect_eq "the user cannot stat the name on the host" \
	"$(as "$BIN/sbx-probe" read "$T/rootonly/exists-$$")" EACCES
mi=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- cat /proc/self/mountinfo)
echo "$mi" | grep rootonly | cut -d" " -f4,5,6
check "no mount tells the user a root-only name exists" \
	test "$(grep -c "rootonly/exists-$$" <<<"$mi")" = 0
check "nor a read-only bind of a directory behind root's 0700 one" \
	test "$(grep -c "rootonly/dir-$$" <<<"$mi")" = 0
check "a file in the user's own mode-000 directory is masked" \
	test "$(grep -c " $WS/own/sub/f " <<<"$mi")" = 1
check "a directory in the user's own mode-000 directory is read-only" \
	test "$(grep -c " $WS/own/sub .* ro," <<<"$mi")" = 1
done_test
