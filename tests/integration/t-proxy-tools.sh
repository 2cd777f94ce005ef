#!/bin/bash
# Real tools through the proxy with nothing but the environment sbx sets:
# git clone over smart HTTP (git http-backend), pip download from a PEP 503
# index, npm view from a registry; all servers local and tiny.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"

# A bare repository with one commit, served by git http-backend.
have_git=0
if command -v git >/dev/null; then
	git init -q "$T/src" &&
	git -C "$T/src" -c user.name=t -c user.email=t@t.test commit -q \
		--allow-empty -m "through the proxy" &&
	mkdir "$T/git" && git clone -q --bare "$T/src" "$T/git/repo.git" &&
	have_git=1
fi
# A wheel, built by hand (zip + dist-info), served from a simple index.
have_pip=0
if "$PY" -m pip --version >/dev/null 2>&1; then
	mkdir "$T/wheels"
	"$PY" - "$T/wheels" <<'PYEOF' && have_pip=1
import base64, hashlib, sys, zipfile
name = "sbxdemo-1.0-py3-none-any.whl"
files = {
    "sbxdemo/__init__.py": b"VALUE = 42\n",
    "sbxdemo-1.0.dist-info/METADATA":
        b"Metadata-Version: 2.1\nName: sbxdemo\nVersion: 1.0\n",
    "sbxdemo-1.0.dist-info/WHEEL":
        b"Wheel-Version: 1.0\nGenerator: sbx-test\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
}
record = ""
for path, data in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    record += "%s,sha256=%s,%d\n" % (path, digest.decode(), len(data))
record += "sbxdemo-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(sys.argv[1] + "/" + name, "w") as z:
    for path, data in files.items():
        z.writestr(path, data)
    z.writestr("sbxdemo-1.0.dist-info/RECORD", record)
PYEOF
fi
have_npm=0
command -v npm >/dev/null && have_npm=1
[ $have_git$have_pip$have_npm = 000 ] && skip "none of git, pip, npm installed"

allow=
if [ $have_git = 1 ]; then start_server git git "$T/git"; GIT=$SRV_PORT; allow+="\"127.0.0.1:$GIT\", "; fi
if [ $have_pip = 1 ]; then start_server pypi pypi "$T/wheels"; PYPI=$SRV_PORT; allow+="\"127.0.0.1:$PYPI\", "; fi
if [ $have_npm = 1 ]; then start_server npm npm; NPM=$SRV_PORT; allow+="\"127.0.0.1:$NPM\", "; fi
# By name: the sandbox calls 127.0.0.1 directly (NO_PROXY), and these
# servers are the host's, reached through the proxy; the rules naming
# 127.0.0.1:PORT let the name resolve to loopback.
start_proxy_daemon '{"network": {"allowedDomains": ['"$allow"'"tools.test", "example.test"]}}' \
	"127.0.0.1 tools.test"
cd "$WS"

if [ $have_git = 1 ]; then
	# Into the sandbox's /tmp: in the workspace a new .git/config is a
	# protected path (sbx-policy(5)), which git clone cannot write.
	sbx run -- sh -c "git clone -q http://tools.test:$GIT/repo.git \
		/tmp/clone-$$ && git -C /tmp/clone-$$ log --format=%s" \
		>"$T/out" 2>&1
	expect_eq "git clone through the proxy: the commit came along" \
		"$(cat "$T/out")" "through the proxy"
	check "git went through the proxy (server saw it)" test "$(conns git)" -ge 1
else
	echo "note: git not installed; git clone not run"
fi

if [ $have_pip = 1 ]; then
	sbx run -- "$PY" -m pip download -q --no-deps --no-cache-dir \
		--disable-pip-version-check --trusted-host tools.test --index-url \
		"http://tools.test:$PYPI/simple/" -d "$WS/dl" sbxdemo >"$T/out" 2>&1
	check "pip download through the proxy ($(tail -1 "$T/out"))" \
		test -f "$WS/dl/sbxdemo-1.0-py3-none-any.whl"
	# And the same without the allowing rule: refused, with the event.
	sbx run --allow-domain example.test -- "$PY" -m pip download -q \
		--no-deps --no-cache-dir --disable-pip-version-check --retries 0 \
		--trusted-host tools.test \
		--index-url "http://tools.test:$PYPI/simple/" -d "$WS/dl2" \
		sbxdemo >"$T/out" 2>&1
	check "pip refused when the request layer narrows it away" \
		test ! -e "$WS/dl2/sbxdemo-1.0-py3-none-any.whl"
	check "... with the event" grep -q "^sbx: blocked network tools.test:$PYPI" "$T/out"
else
	echo "note: pip not installed; pip download not run"
fi

if [ $have_npm = 1 ]; then
	out=$(sbx run -e npm_config_cache=/tmp/npm-cache \
		-e npm_config_update_notifier=false -e npm_config_fund=false \
		-- npm view sbx-demo version \
		--registry "http://tools.test:$NPM/" 2>"$T/err")
	expect_eq "npm view through the proxy ($(tail -1 "$T/err"))" "$out" 1.2.3
else
	echo "note: npm not installed; npm view not run"
fi
stop_daemon
done_test
