#!/bin/bash
# The home is an overlay: tool caches (npm, pip --user, cargo and go style
# paths) are written inside, persist for the workspace's next run, are not
# seen from another workspace, go with `sbxctl reset`, and the real home
# stays byte-for-byte as it was. Masks and protections hold on top of the
# overlay (~/.ssh unreadable, also over what an earlier run copied up;
# .bashrc read-only), the workspace inside the home still writes through,
# the daemon's state is out of reach, and filesystem.home "read-only"
# makes home writes fail with EROFS. A scratch home (sbxd --home) stands
# for the user's; as root, privileged mode too.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
H=$T/home
WSH=$H/proj            # a workspace inside the home
mkdir -p "$H/.ssh" "$H/.cache" "$H/.config/tool" "$WSH/.git" "$H/proj2"
chmod 755 "$H"
echo 'echo real rc' >"$H/.bashrc"
printf '[user]\n\tname = real\n' >"$H/.gitconfig"
echo SECRET-KEY >"$H/.ssh/id_rsa"
echo 'Host *' >"$H/.ssh/config"
echo '//registry.npmjs.org/:_authToken=SECRET-NPM' >"$H/.npmrc"
echo cached-before >"$H/.cache/old"
echo v1 >"$H/.config/tool/token"
printf '[core]\n' >"$WSH/.git/config"
cd "$WSH"

# The home as the host has it, the workspaces aside: every name, type,
# mode, owner, size, mtime and content.
snap() {
	(cd "$H" &&
	 find . \( -path ./proj -o -path ./proj2 \) -prune -o \
		-printf '%p %y %m %u %s %T@\n' | LC_ALL=C sort &&
	 find . \( -path ./proj -o -path ./proj2 \) -prune -o -type f \
		-print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum
}
before=$(snap)
export HOME=$H

start_daemon --home "$H"
if sbx status | grep -q 'no home overlay'; then
	expect_eq "without an overlay the home is read-only" \
		"$(sbx run -- "$P" write "$H/x")" EROFS
	skip "this kernel cannot make the home overlay: $(sbx status | grep 'no home overlay')"
fi

# 1. Cache writes succeed inside, as the tools make them.
out=$(sbx run -- sh -c 'mkdir -p ~/.cache/x && echo c1 >~/.cache/x/f &&
	cat ~/.cache/x/f ~/.cache/old && echo more >>~/.cache/old &&
	mkdir -p ~/.cargo/registry/index/crates.io ~/go/pkg/mod/cache ~/.npm &&
	echo idx >~/.cargo/registry/index/crates.io/config.json &&
	echo mod >~/go/pkg/mod/cache/m && echo ok' 2>&1)
expect_eq "cache writes in the home succeed" "$out" "c1
cached-before
ok"
# npm install of a local tarball (its cache and logs go to ~/.npm).
mkdir -p "$T/pkg/package"
echo '{"name": "sbx-home-probe", "version": "1.0.0"}' >"$T/pkg/package/package.json"
echo 'module.exports = 42' >"$T/pkg/package/index.js"
tar czf "$T/pkg/probe.tgz" -C "$T/pkg" package
echo '{"name": "w", "version": "1.0.0"}' >"$WSH/package.json"
if command -v npm >/dev/null 2>&1; then
	out=$(sbx run -q -- sh -c 'npm install --offline --no-audit --no-fund --no-update-notifier \
		"$0" >/dev/null 2>&1 && test -d ~/.npm/_cacache &&
		node -e "console.log(require(\"sbx-home-probe\"))"' \
		"$T/pkg/probe.tgz" 2>&1)
	expect_eq "npm install writes its cache in the home" "$out" 42
else
	echo "note: no npm here; its cache is simulated above"
fi
# pip install --user of a local wheel (site-packages under ~/.local).
"$PY" - "$T/pkg/sbxprobe-1.0-py3-none-any.whl" <<'EOF'
import base64, hashlib, sys, zipfile
files = {"sbxprobe/__init__.py": b"VALUE = 42\n",
         "sbxprobe-1.0.dist-info/METADATA":
             b"Metadata-Version: 2.1\nName: sbxprobe\nVersion: 1.0\n",
         "sbxprobe-1.0.dist-info/WHEEL":
             b"Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\n"
             b"Tag: py3-none-any\n"}
record = ["%s,sha256=%s,%d" % (n, base64.urlsafe_b64encode(
    hashlib.sha256(d).digest()).rstrip(b"=").decode(), len(d))
    for n, d in files.items()] + ["sbxprobe-1.0.dist-info/RECORD,,"]
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for n, d in files.items():
        z.writestr(n, d)
    z.writestr("sbxprobe-1.0.dist-info/RECORD", "\n".join(record) + "\n")
EOF
if "$PY" -m pip --version >/dev/null 2>&1; then
	out=$(sbx run -q -- sh -c '"$0" -m pip install --user --no-index \
		--no-deps --break-system-packages --disable-pip-version-check \
		"$1" >/dev/null 2>&1; "$0" -c "import sbxprobe; print(sbxprobe.VALUE)"' \
		"$PY" "$T/pkg/sbxprobe-1.0-py3-none-any.whl" 2>&1)
	expect_eq "pip install --user writes to ~/.local" "$out" 42
else
	echo "note: no pip here; its paths are simulated above"
fi
expect_eq "the real home is byte-for-byte unchanged" "$(snap)" "$before"
check "no cache reached the real home" test ! -e "$H/.cache/x" -a ! -e "$H/.npm"

# 2. The layer is the workspace's: the next run sees it, others do not.
expect_eq "the next run in the workspace sees the cache" \
	"$(sbx run -- cat "$H/.cache/x/f")" c1
expect_eq "another workspace in the home does not" \
	"$(sbx run --workspace "$H/proj2" -C "$H/proj2" -- "$P" read "$H/.cache/x/f")" ENOENT
expect_eq "nor one outside it" \
	"$(cd "$WS" && sbx run -- "$P" read "$H/.cache/x/f")" ENOENT
expect_eq "and there the file written over is the real one" \
	"$(cd "$WS" && sbx run -- cat "$H/.cache/old")" cached-before

# 3. Masks and protections sit on top of the overlay.
expect_eq "~/.ssh/id_rsa unreadable" "$(sbx run -- "$P" read "$H/.ssh/id_rsa")" EACCES
expect_eq "~/.ssh not listable" "$(sbx run -- "$P" read "$H/.ssh")" EACCES
out=$(sbx run -- "$P" write "$H/.ssh/id_x")
check "no key can be added to ~/.ssh ($out)" test "$out" = EACCES -o "$out" = EROFS
expect_eq "~/.npmrc unreadable" "$(sbx run -- "$P" read "$H/.npmrc")" EACCES
sbx run -- sh -c 'rm -rf ~/.ssh; mv ~/.ssh ~/.ssh2' >/dev/null 2>&1
expect_eq "~/.ssh cannot be moved aside" "$(sbx run -- "$P" read "$H/.ssh2")" ENOENT
expect_eq "it stays masked after trying" "$(sbx run -- "$P" read "$H/.ssh/id_rsa")" EACCES
expect_eq ".bashrc read-only" "$(sbx run -- "$P" write "$H/.bashrc")" EROFS
expect_eq ".gitconfig read-only" "$(sbx run -- "$P" write "$H/.gitconfig")" EROFS
expect_eq "rc files still readable" "$(sbx run -- cat "$H/.bashrc")" "echo real rc"
# A start-up file the home lacks: where the kernel lets the supervisor
# refuse new protected paths (status protect_new), it cannot be made, not
# even in the overlay; elsewhere it may be made there, but the template
# makes it read-only as it appears, so no later run can be fed another one.
if [ "$(sbx --json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["protect_new"])')" = True ]; then
	expect_eq "no new ~/.zshrc, even in the overlay" "$(sbx run -q -- "$P" write "$H/.zshrc" 2>/dev/null)" EPERM
	check "and none in the layer" test -z "$(find "$T/state/home" -path "*/upper/.zshrc" 2>/dev/null)"
else
	expect_eq "a new ~/.zshrc lands in the overlay" "$(sbx run -- "$P" write "$H/.zshrc")" ok
	expect_eq "and is read-only from then on" "$(sbx run -- "$P" write "$H/.zshrc")" EROFS
fi
# A file copied up by an earlier run, then denied: masked over the copy.
sbx run -- sh -c 'echo v2 >~/.config/tool/token'
expect_eq "a copied-up file is read back" "$(sbx run -- cat "$H/.config/tool/token")" v2
mkdir -p "$WSH/.sbx"
echo '{"filesystem": {"denyRead": ["~/.config/tool"]}}' >"$WSH/.sbx/policy.json"
expect_eq "denied later, the copy is masked too" \
	"$(sbx run -- "$P" read "$H/.config/tool/token")" EACCES
rm -r "$WSH/.sbx"
# The daemon's state (the layers themselves) is out of reach.
expect_eq "the daemon's state dir is masked" "$(sbx run -- "$P" read "$T/state/home")" EACCES
expect_eq "the real home is still unchanged" "$(snap)" "$before"

# 4. The workspace inside the home is the real one, writable, with its
# protected paths read-only.
expect_eq "workspace in the home writable" "$(sbx run -- "$P" write "$WSH/out")" ok
check "the write reached the host" test -e "$WSH/out"
expect_eq ".git/config still protected" "$(sbx run -- "$P" write "$WSH/.git/config")" EROFS
# Narrowed by --allow-write, the rest of the workspace stays read-only:
# it is never shadowed by the overlay.
mkdir -p "$WSH/sub"
expect_eq "narrowed workspace: outside the grant read-only" \
	"$(sbx run --allow-write "$WSH/sub" -- "$P" write "$WSH/other")" EROFS
check "and nothing of it was written" test ! -e "$WSH/other"
echo host-edit >"$WSH/out"
expect_eq "host edits in the workspace show inside" "$(sbx run -- cat "$WSH/out")" host-edit

# 5. explain and describe say where home writes go.
check "explain: home writes go to the overlay" grep -q \
	"^allow write $H/.cache/y: in the home overlay" < <(sbx policy explain --write "$H/.cache/y")
check "describe mentions it" grep -q "home directory ($H) is writable as an overlay" < <(sbx describe)

# 6. reset: refused while the workspace runs, then discards the layer.
mkfifo "$WSH/up" "$WSH/go"
sbx run -- sh -c 'echo up >up; read x <go' &
bg=$!
read -r _ <"$WSH/up"
out=$(sbx reset 2>&1)
rc=$?
check "reset refused while a session runs ($out)" test $rc -ne 0
check "with a clear message" grep -q "still runs in $WSH" <<<"$out"
echo go >"$WSH/go"
wait "$bg"
expect_eq "reset discards the layer" "$(sbx reset)" "$WSH: home overlay discarded"
expect_eq "a second reset has nothing to do" "$(sbx reset --workspace "$WSH")" \
	"$WSH: no home overlay to discard"
expect_eq "the cache is gone" "$(sbx run -- "$P" read "$H/.cache/x/f")" ENOENT
expect_eq "the real file shows again" "$(sbx run -- cat "$H/.cache/old")" cached-before
expect_eq "the layers of the other workspaces stay" \
	"$(cd "$WS" && sbx reset | sed 's/.*: //')" "home overlay discarded"
# Layers removed behind the daemon's back are made again for the next
# template (the daemon remembers what it made, and checks it is there).
sbx run -- sh -c 'mkdir -p ~/.cache/q && echo 1 >~/.cache/q/f'
rm -rf "$T"/state/home/*/*
out=$(sbx run --deny-read "$H/no-such-dir" -- \
	sh -c 'mkdir -p ~/.cache/q2 && echo ok >~/.cache/q2/f && cat ~/.cache/q2/f')
expect_eq "layers removed out of band are made again" "$out" ok

# 7. filesystem.home "read-only": home writes fail with EROFS.
echo '{"filesystem": {"home": "read-only"}}' >"$T/ro.json"
expect_eq "read-only home by policy: EROFS" \
	"$(sbx run --policy "$T/ro.json" -- "$P" write "$H/.cache/z")" EROFS
expect_eq "the workspace stays writable" \
	"$(sbx run --policy "$T/ro.json" -- "$P" write "$WSH/z")" ok
expect_eq "the real home is unchanged at the end" "$(snap)" "$before"
stop_daemon

# 8. Privileged mode (root serving the test user): the same overlay, its
# layers root's (the user cannot reach them from the host), files the
# user's.
user=${SBX_TEST_USER:-sbxtest}
if [ "$(id -u)" -eq 0 ] && id "$user" >/dev/null 2>&1; then
	uid=$(id -u "$user")
	chown -R "$user": "$H"
	chmod 755 "$T"
	before=$(snap)
	start_daemon --user "$user" --home "$H"
	chmod 755 "$XDG_RUNTIME_DIR"
	as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
	psbx() { as "$BIN/sbxctl" --no-autostart --socket "$SOCK" "$@"; }
	expect_eq "privileged: cache write succeeds" \
		"$(psbx run -- sh -c 'mkdir -p ~/.cache/p && echo p >~/.cache/p/f && id -u')" "$uid"
	expect_eq "privileged: persists" "$(psbx run -- cat "$H/.cache/p/f")" p
	expect_eq "privileged: ~/.ssh unreadable" "$(psbx run -- "$P" read "$H/.ssh/id_rsa")" EACCES
	expect_eq "privileged: .bashrc read-only" "$(psbx run -- "$P" write "$H/.bashrc")" EROFS
	f=$(ls -d "$T"/state/home/"$uid"/*/fs/upper/.cache/p/f)
	expect_eq "privileged: the upper file is the user's" "$(stat -c %u "$f")" "$uid"
	check "privileged: the user cannot reach the layers" \
		as sh -c "! ls '$T/state/home/$uid' >/dev/null 2>&1"
	expect_eq "privileged: the real home is unchanged" "$(snap)" "$before"
	expect_eq "privileged: reset" "$(psbx reset)" "$WSH: home overlay discarded"
	check "privileged: the layer is gone" test ! -e "$f"
	stop_daemon
fi
done_test
