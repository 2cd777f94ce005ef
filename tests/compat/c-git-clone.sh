#!/bin/bash
# git clone --recurse-submodules of a repository with .vscode/, .idea/,
# .gitmodules and a submodule (file:// URLs, outside the workspace).
. "$(dirname "$0")/compat-lib.sh"
# Stat data, and packs whose bytes depend on git's threads.
IGNORE='(^|/)index$|/objects/pack/'
fixture() {
	git init -q -b main "$T/fix/lib"
	echo 'lib v1' >"$T/fix/lib/lib.txt"
	git -C "$T/fix/lib" add . && git -C "$T/fix/lib" commit -qm lib
	git init -q -b main "$T/fix/app"
	mkdir "$T/fix/app/.vscode" "$T/fix/app/.idea"
	echo '{"editor.tabSize": 4}' >"$T/fix/app/.vscode/settings.json"
	echo '<project version="4"/>' >"$T/fix/app/.idea/misc.xml"
	echo 'app' >"$T/fix/app/README"
	git -C "$T/fix/app" add .
	git -C "$T/fix/app" -c protocol.file.allow=always submodule add -q \
		"file://$T/fix/lib" lib
	git -C "$T/fix/app" commit -qm app
	chmod -R a+rX "$T/fix"
}
body() {
	cat <<EOF
set -e
git -c protocol.file.allow=always clone -q --recurse-submodules file://$T/fix/app app
cd app
git ls-files -s
cat .vscode/settings.json .idea/misc.xml .gitmodules lib/lib.txt
git submodule status
git status --short
EOF
}
# git's sample hooks: the sandbox accepts them and keeps none.
expect_files() { grep -Ev '/hooks/[^/]+\.sample$'; }
compat_main
