#!/bin/bash
# Privileged mode: the paths of the user's and the workspace's policy are
# the served user's input to root. An allowWrite path that is the user's
# symbolic link into another user's 0700 directory shows nothing of it
# (directly, or through the home overlay, swapped after a run made the
# name a directory), root creates no directory where the user points it
# (/etc through a link in the sandbox's /tmp), and a denyRead mask does
# not land where a link sends it.
. "$(dirname "$0")/lib.sh"
need_served_user
P=$BIN/sbx-probe
H=$T/home
EVIL=/tmp/sbx-evil-$$        # the user's link, in the host's /tmp
HOP=/tmp/sbx-hop-$$          # a directory of the user's in the host's /tmp
NOLOGIN=/etc/sbx-test-nologin-$$
trap 'rm -rf "$EVIL" "$HOP"; rmdir "$NOLOGIN" 2>/dev/null; cleanup' EXIT
run() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q "$@"; }

# Root's 0700 directory with an open one inside: the user can reach
# neither on the host.
D=$T/decoy
mkdir -m 700 "$D"
mkdir -m 777 "$D/in"
echo "DECOY-$$" >"$D/in/secret"
chmod 666 "$D/in/secret"
decoy() { stat -c '%u:%g %a %s %Y' "$D" "$D/in" "$D/in/secret"; ls -a "$D/in"; cat "$D/in/secret"; }
before=$(decoy)

mkdir -p "$H/.config/sbx" "$H/proj"
chown -R "$user": "$H" "$WS"
chmod 755 "$T"
cd "$WS"
as ln -s "$D/in" "$EVIL"
as mkdir "$HOP"
policy() { # policy ALLOW-WRITE-ITEMS [DENY-READ-ITEMS] (JSON)
	local a='"."'
	[ -z "$1" ] || a="$a, $1"
	cat >"$H/.config/sbx/policy.json" <<JSON
{"filesystem": {"allowWrite": [$a], "denyRead": [${2:-}]}}
JSON
	chown "$user": "$H/.config/sbx/policy.json"
}
start_daemon --user "$user" --home "$H"
chmod 755 "$XDG_RUNTIME_DIR"

# 1. allowWrite of a link to the decoy: nothing of it shows.
policy "\"$EVIL\""
# Left out, like an absent path: the sandbox's /tmp has no such name.
expect_eq "the decoy is not readable through an allowWrite link" \
	"$(run -- "$P" read "$EVIL/secret")" ENOENT
out=$(run -- cat "$EVIL/secret" 2>&1)
check "no decoy content in the sandbox" test "${out#*DECOY}" = "$out"
expect_eq "the decoy is not writable through an allowWrite link" \
	"$(run -- "$P" write "$EVIL/pwned")" ENOENT
expect_eq "decoy unchanged on the host" "$(decoy)" "$before"

# 2. The home-overlay swap: a run makes ~/proj/evil a directory (in the
# overlay's upper layer); on the host it becomes a link to the decoy.
policy ""
expect_eq "a run makes a directory in the home overlay" \
	"$(run -- "$P" mkdir "$H/proj/evil")" ok
as ln -s "$D/in" "$H/proj/evil"
policy "\"$H/proj/evil\""
# The overlay's own (empty) directory is what the sandbox sees there.
expect_eq "no decoy through the swapped home path" \
	"$(run -- "$P" read "$H/proj/evil/secret")" ENOENT
out=$(run -- cat "$H/proj/evil/secret" 2>&1)
check "no decoy content through the swapped home path" \
	test "${out#*DECOY}" = "$out"
run -- "$P" write "$H/proj/evil/pwned" >/dev/null
expect_eq "decoy unchanged on the host (home overlay)" "$(decoy)" "$before"

# 3. No directory made by root where the user points: a run leaves a link
# to /etc in its /tmp; the same name is a directory in the host's /tmp.
policy ""
expect_eq "a link to /etc in the sandbox's /tmp" \
	"$(run -- sh -c "ln -s /etc /tmp/sbx-hop-$$ && echo ok")" ok
as mkdir "$HOP/${NOLOGIN#/etc/}"
policy "\"/etc\", \"$HOP/${NOLOGIN#/etc/}\""
run -- true >/dev/null 2>&1
check "root made no directory in /etc ($NOLOGIN)" test ! -e "$NOLOGIN"

# 4. A denyRead mask does not follow the user's link out of the user's
# reach: no mount point under the decoy in the sandbox's mount table.
as ln -s "$D/in" "$WS/link"
policy "" "\"$WS/link/secret\""
out=$(run -- cat /proc/self/mountinfo)
check "no mask mounted on the decoy's file" \
	test "${out#*"$D/in/secret"}" = "$out"
expect_eq "decoy unchanged on the host (mask)" "$(decoy)" "$before"

# 5. What the user can reach still works: a tree outside the workspace, a
# host /tmp directory (its mount point made in the sandbox's /tmp, as the
# user), a link of the user's to a tree of the user's, and a mask under a
# directory of the user's that the user cannot enter now but could later.
OKTMP=/tmp/sbx-ok-$$
trap 'rm -rf "$EVIL" "$HOP" "$OKTMP"; rmdir "$NOLOGIN" 2>/dev/null; cleanup' EXIT
mkdir "$T/u"
chown "$user": "$T/u"
as mkdir "$OKTMP" "$T/u/extra" "$T/u/cache"
as ln -s "$T/u/cache" "$H/cachelink"
as mkdir -m 700 "$H/locked"
echo LOCKED >"$H/locked/secret"
chown "$user": "$H/locked/secret"
chmod 000 "$H/locked"
policy "\"$T/u/extra\", \"$OKTMP\", \"$H/cachelink\"" "\"$H/locked/secret\""
expect_eq "an allowWrite tree outside the workspace is writable" \
	"$(run -- "$P" write "$T/u/extra/f")" ok
check "... on the host" test -f "$T/u/extra/f"
expect_eq "an allowWrite directory of the host's /tmp is writable" \
	"$(run -- "$P" write "$OKTMP/f")" ok
check "... on the host" test -f "$OKTMP/f"
expect_eq "an allowWrite link of the user's to the user's tree is writable" \
	"$(run -- "$P" write "$H/cachelink/f")" ok
check "... on the host" test -f "$T/u/cache/f"
expect_eq "a mask under a directory the command may open later holds" \
	"$(run -- sh -c "chmod 700 '$H/locked' && '$P' read '$H/locked/secret'")" EACCES
chmod 700 "$H/locked"

# 6. The workspace walk reads as the user, except the user's own files and
# directories the user cannot read now (a chmod in the sandbox opens
# them): their ignore patterns and the files they hold are masked all the
# same. Another user's unreadable directory is not read: no mount point
# names what it holds.
mkdir -p "$WS/locked" "$WS/sub" "$WS/rootonly"
echo L >"$WS/locked/creds.pem"
echo S >"$WS/sub/secret.txt"
echo R >"$WS/rootonly/k.pem"
echo '*.pem' >"$WS/.sbxignore"
echo 'secret.txt' >"$WS/sub/.sbxignore"
chown -R "$user": "$WS/locked" "$WS/sub" "$WS/.sbxignore"
chmod 000 "$WS/locked" "$WS/sub/.sbxignore"
chmod 700 "$WS/rootonly"
policy "\"$T/u/extra\""
expect_eq "a file in a directory of the user's, mode 000, stays masked" \
	"$(run -- sh -c "chmod 755 locked && '$P' read locked/creds.pem")" EACCES
expect_eq "an ignore file of the user's, mode 000, still applies" \
	"$(run -- "$P" read sub/secret.txt)" EACCES
out=$(run -- cat /proc/self/mountinfo)
check "nothing mounted in another user's unreadable directory" \
	test "${out#*"$WS/rootonly/"}" = "$out"
chmod 755 "$WS/locked"

out=$(as "$BIN/sbxctl" --no-autostart --socket "$SOCK" run -q -- echo alive)
expect_eq "the daemon still answers" "$out" alive
stop_daemon
done_test
