#!/bin/bash
# What the daemon keeps for a workspace (its home overlay layer in the
# state dir, temp dirs in the runtime dir) goes once the workspace is gone:
# at the daemon's start-up (and daily, the same code on a timer). A
# workspace that still exists keeps its layer; one whose record is
# missing or names another path is left alone. Landlock-only mode's temp
# dirs the same; where sandboxes have mounts, temp dirs left in the
# runtime dir by an older daemon go at start-up. Privileged mode too.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
H=$T/home
mkdir -p "$H" "$T/gone" "$T/kept"
chmod 755 "$H" "$T/gone" "$T/kept"
uid=$(id -u)
layers=$T/state/home/$uid
# layer WS: the home layer directory of workspace WS (by its record).
layer() {
	grep -lx "$1" "$layers"/*/workspace 2>/dev/null | xargs -r dirname
}
# up LAYER: its upper/ (a root daemon's is on the layer's own file system,
# LAYER/fs, while mounted; its image LAYER/home.img).
up() { ls -d "$1/upper" "$1/fs/upper" 2>/dev/null | head -1; }

start_daemon --home "$H"
sbx status | grep -q 'no home overlay' && skip "no home overlay here"
for w in gone kept; do
	expect_eq "a home write from workspace $w" \
		"$(sbx run --workspace "$T/$w" -C "$T/$w" -- "$P" write "$H/from-$w")" ok
done
g=$(layer "$T/gone")
k=$(layer "$T/kept")
check "each has a layer with a record ($g, $k)" test -f "$(up "$g")/from-gone" -a -f "$(up "$k")/from-kept"
# Left by an older daemon: a temp dir in the runtime dir.
mkdir -p "$XDG_RUNTIME_DIR/sbx/tmp/0123456789abcdef"
echo old >"$XDG_RUNTIME_DIR/sbx/tmp/0123456789abcdef/f"
stop_daemon
rm -rf "$T/gone"
# A record that names another path than its hash is not trusted.
mkdir -p "$layers/forged/upper"
echo "$T/gone" >"$layers/forged/workspace"
start_daemon --home "$H"
check "the gone workspace's layer is removed at start-up" test ! -e "$g"
check "the existing workspace's layer stays" \
	test -f "$k/upper/from-kept" -o -f "$k/home.img"
check "a forged record's directory stays" test -d "$layers/forged/upper"
check "an older daemon's temp dir is removed" \
	test ! -e "$XDG_RUNTIME_DIR/sbx/tmp/0123456789abcdef"
expect_eq "the kept workspace still sees its home write" \
	"$(sbx run --workspace "$T/kept" -C "$T/kept" -- cat "$H/from-kept" 2>&1)" ""
stop_daemon

# Landlock-only: /tmp is a dir of the runtime dir, named by a record.
# (An unprivileged daemon only.)
if [ "$(id -u)" -ne 0 ]; then
	mkdir -p "$T/gone2"
	chmod 755 "$T/gone2"
	start_daemon --landlock-only --home "$H"
	sbx run --workspace "$T/gone2" -C "$T/gone2" -- sh -c 'echo x >"$TMPDIR/t"'
	sbx run --workspace "$T/kept" -C "$T/kept" -- sh -c 'echo x >"$TMPDIR/t"'
	n=$(ls "$XDG_RUNTIME_DIR"/sbx/tmp/*.ws | wc -l)
	expect_eq "landlock-only: a record per temp dir" "$n" 2
	stop_daemon
	rm -rf "$T/gone2"
	start_daemon --landlock-only --home "$H"
	expect_eq "landlock-only: the gone workspace's temp dir and record go" \
		"$(ls "$XDG_RUNTIME_DIR"/sbx/tmp/ | wc -l)" 2
	check "landlock-only: the kept one's stays" \
		grep -qx "$T/kept" "$XDG_RUNTIME_DIR"/sbx/tmp/*.ws
	stop_daemon
fi

# Privileged mode: root's state dir, the user's workspace.
if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	need_served_user
	mkdir -p "$T/pgone"
	chown "$user": "$T/pgone" "$H"
	layers=$T/state/home/$(id -u "$user")
	start_daemon --user "$user" --home "$H"
	chmod 755 "$XDG_RUNTIME_DIR"
	expect_eq "privileged: a home write" "$(as "$BIN/sbxctl" --no-autostart \
		--socket "$SOCK" run --workspace "$T/pgone" -C "$T/pgone" -- \
		"$P" write "$H/p")" ok
	g=$(layer "$T/pgone")
	check "privileged: its layer ($g)" test -f "$(up "$g")/p"
	stop_daemon
	rm -rf "$T/pgone"
	start_daemon --user "$user" --home "$H"
	check "privileged: removed at start-up" test ! -e "$g"
	stop_daemon
fi
done_test
