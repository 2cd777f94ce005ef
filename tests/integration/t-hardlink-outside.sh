#!/bin/bash
# Hard links to files outside the writable paths (a pnpm-style store that
# links every file of node_modules to itself, cp -al, a planted link) are
# read-only in the sandbox: a write fails with EROFS and the file outside
# keeps its content. Files linked only within the workspace stay writable.
# Links that appear while the template is held (made on the host) are
# read-only at the next run. As the invoking user, and as root serving
# the test user (privileged mode). In Landlock-only mode (no mounts) every
# file with several links under the workspace is refused (EPERM), which
# status says.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
STORE="$T/store" # outside the workspace, readable by the user
mkdir -p "$STORE" "$WS/node_modules/pkg"

# scenario RUN...: the checks, with RUN the sbxctl of the user served.
scenario() {
	local out sum
	rm -rf "${STORE:?}"/* "$WS"/node_modules/pkg/* "$WS"/in-a "$WS"/in-b "$WS"/late.js "$WS"/node_modules/.pnpm "$WS"/.env "$WS"/.sbxignore
	echo 'module.exports = 1' >"$STORE/index.js"
	echo 'second' >"$STORE/late.js"
	echo 'three' >"$STORE/three.js"
	echo SECRET >"$STORE/env"
	ln "$STORE/index.js" "$WS/node_modules/pkg/index.js"
	# One store file linked twice in the workspace: both read-only.
	ln "$STORE/three.js" "$WS/node_modules/pkg/a.js"
	ln "$STORE/three.js" "$WS/node_modules/pkg/b.js"
	# An ignored file linked to the store stays masked.
	echo .env >"$WS/.sbxignore"
	ln "$STORE/env" "$WS/.env"
	echo inside >"$WS/in-a"
	ln "$WS/in-a" "$WS/in-b"
	chown -R "$OWNER" "$STORE" "$WS"
	sum=$(sha256sum <"$STORE/index.js")
	out=$("$@" run -q -- "$P" open-write node_modules/pkg/index.js)
	expect_eq "$MODE: write to a link of a store file" "$out" EROFS
	out=$("$@" run -q -- "$P" truncate node_modules/pkg/index.js)
	expect_eq "$MODE: truncate it" "$out" EROFS
	out=$("$@" run -q -- sh -c "$P unlink node_modules/pkg/index.js; $P rename node_modules/pkg/index.js x.js")
	expect_eq "$MODE: nor remove or rename it" "$out" "EBUSY
EBUSY"
	out=$("$@" run -- sh -c 'echo x >> node_modules/pkg/index.js' 2>&1)
	check "$MODE: shell append refused ($out)" grep -q "Read-only file system" <<<"$out"
	check "$MODE: ... and reported with the reason" grep -q "hard link" <<<"$out"
	expect_eq "$MODE: store file unchanged" "$(sha256sum <"$STORE/index.js")" "$sum"
	expect_eq "$MODE: reading works" \
		"$("$@" run -q -- cat node_modules/pkg/index.js)" 'module.exports = 1'
	out=$("$@" run -q -- sh -c "$P open-write node_modules/pkg/a.js; $P open-write node_modules/pkg/b.js")
	expect_eq "$MODE: both workspace links of one store file" "$out" "EROFS
EROFS"
	out=$("$@" run -q -- sh -c 'cat .env 2>&1 || echo unreadable')
	check "$MODE: an ignored link of a store file stays masked ($out)" \
		grep -q unreadable <<<"$out"
	expect_eq "$MODE: store's other files unchanged" \
		"$(cat "$STORE/three.js" "$STORE/env")" "three
SECRET"
	out=$("$@" run -q -- sh -c 'echo more >> in-b && cat in-a')
	expect_eq "$MODE: a file linked only inside stays writable" "$out" "inside
more"
	# Changes on the host while the template is held (its watch): links
	# made inside stay writable (of a file linked inside, of one alone,
	# a directory of them renamed); a link moved out makes what is left
	# read-only; a store file linked again under a new layout (the old
	# path removed) is read-only.
	echo solo >"$WS/solo"
	mkdir -p "$WS/d1"
	echo pair >"$WS/d1/p"
	ln "$WS/d1/p" "$WS/p2"
	chown -R "$OWNER" "$WS/solo" "$WS/d1" "$WS/p2"
	"$@" run -q -- true
	ln "$WS/in-a" "$WS/in-c"
	ln "$WS/solo" "$WS/solo2"
	mv "$WS/d1" "$WS/d2"
	out=$("$@" run -q -- sh -c "$P open-write in-c; $P open-write solo2; $P open-write p2")
	expect_eq "$MODE: links made inside while held stay writable" "$out" "ok
ok
ok"
	mv "$WS/in-c" "$STORE/moved-out"
	out=$("$@" run -q -- sh -c "$P open-write in-a; $P open-write in-b")
	expect_eq "$MODE: a link moved out: what is left is read-only" "$out" "EROFS
EROFS"
	rm -rf "$WS/node_modules/pkg" "$WS/solo" "$WS/solo2" "$WS/d2" "$WS/p2"
	mkdir -p "$WS/node_modules/.pnpm/pkg"
	ln "$STORE/index.js" "$WS/node_modules/.pnpm/pkg/index.js"
	chown -R "$OWNER" "$WS/node_modules"
	out=$("$@" run -q -- "$P" open-write node_modules/.pnpm/pkg/index.js)
	expect_eq "$MODE: relinked under a new layout" "$out" EROFS
	mkdir -p "$WS/node_modules/pkg"
	chown "$OWNER" "$WS/node_modules/pkg"
	# Planted on the host while the template is held: its watch sees the
	# new entry.
	ln "$STORE/late.js" "$WS/node_modules/pkg/late.js"
	sum=$(sha256sum <"$STORE/late.js")
	out=$("$@" run -q -- "$P" open-write node_modules/pkg/late.js)
	expect_eq "$MODE: a link planted later is read-only" "$out" EROFS
	# Planted while a session runs: read-only at the next run at the
	# latest.
	mkfifo "$WS/go"
	chown "$OWNER" "$WS/go"
	"$@" run -q -- sh -c 'read x < go' &
	local bg=$!
	ln "$STORE/late.js" "$WS/late.js"
	echo go >"$WS/go"
	wait $bg
	rm -f "$WS/go"
	out=$("$@" run -q -- "$P" open-write late.js)
	expect_eq "$MODE: a link planted during a run is read-only next" "$out" EROFS
	expect_eq "$MODE: late store file unchanged" "$(sha256sum <"$STORE/late.js")" "$sum"
}

sbx() { "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
OWNER=$(id -u):$(id -g)
MODE=user
start_daemon
cd "$WS"
check "describe tells the agent" \
	grep -q "^- Hard links of files outside the writable paths .* are read-only" < <(sbx describe)
scenario sbx
stop_daemon

# Landlock-only mode (unprivileged only): no binds; the supervisor refuses
# writes to every file with several links under the workspace.
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only
	out=$(sbx status)
	check "landlock-only: status says what holds" \
		grep -q "several hard links under the writable paths cannot be written" <<<"$out"
	check "landlock-only: describe tells the agent" \
		grep -q "^- Files with several hard links in the writable paths cannot be written" < <(sbx describe)
	rm -f "$WS"/node_modules/pkg/* "$WS"/late.js "$WS"/.env "$WS"/.sbxignore
	echo 'module.exports = 1' >"$STORE/index.js"
	ln "$STORE/index.js" "$WS/node_modules/pkg/index.js"
	sum=$(sha256sum <"$STORE/index.js")
	out=$(sbx run -q -- "$P" open-write node_modules/pkg/index.js)
	expect_eq "landlock-only: write to a link of a store file" "$out" EPERM
	out=$(sbx run -q -- "$P" truncate node_modules/pkg/index.js)
	expect_eq "landlock-only: truncate it" "$out" EPERM
	out=$(sbx run -- sh -c 'echo x >> node_modules/pkg/index.js' 2>&1)
	check "landlock-only: reported with the reason ($out)" grep -q "hard links" <<<"$out"
	expect_eq "landlock-only: store file unchanged" "$(sha256sum <"$STORE/index.js")" "$sum"
	expect_eq "landlock-only: reading works" \
		"$(sbx run -q -- cat node_modules/pkg/index.js)" 'module.exports = 1'
	stop_daemon
fi

if [ "$(id -u)" -eq 0 ] && id "${SBX_TEST_USER:-sbxtest}" >/dev/null 2>&1; then
	user=${SBX_TEST_USER:-sbxtest}
	OWNER=$user:
	chown "$user": "$WS" "$STORE"
	start_daemon --user "$user"
	chmod 755 "$XDG_RUNTIME_DIR"
	as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
	psbx() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
	MODE=privileged
	scenario psbx
	stop_daemon
fi
done_test
