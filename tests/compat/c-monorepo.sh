#!/bin/bash
# A workspace inside a repository (a package of a monorepo): git finds
# the enclosing repository, and a commit made in the package lands in it
# on the host.
. "$(dirname "$0")/compat-lib.sh"
CWD=packages/app
IGNORE='(^|/)index$'
setup() {
	git init -q -b main "$WS"
	mkdir -p "$WS/packages/app" "$WS/packages/lib"
	echo app >"$WS/packages/app/app.txt"
	echo lib >"$WS/packages/lib/lib.txt"
	git -C "$WS" add . && git -C "$WS" commit -qm root
}
body() {
	cat <<'EOF'
git rev-parse --show-prefix
echo change >>app.txt
git add app.txt; echo "add: $?"
git commit -qm "app change"; echo "commit: $?"
git log --format='%H %s'
git status --short
EOF
}
compat_main
