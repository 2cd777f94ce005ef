#!/bin/bash
# In a repository that existed before the run: git config user.email,
# git remote add, and git push -u (which writes branch.main.remote and
# .merge) to a bare repository beside it.
. "$(dirname "$0")/compat-lib.sh"
IGNORE='(^|/)index$'
setup() {
	git init -q -b main "$WS/repo"
	echo one >"$WS/repo/file"
	git -C "$WS/repo" add file
	git -C "$WS/repo" commit -qm one
	git init -q --bare -b main "$WS/remote.git"
}
body() {
	cat <<'EOF'
cd repo
git config user.email dev@example.invalid; echo "config: $?"
git remote add origin ../remote.git; echo "remote add: $?"
git push -q -u origin main 2>&1; echo "push: $?"
git config --local --list | grep -Ev '^core\.' | sort
git -C ../remote.git log --format='%H %s' main
EOF
}
compat_main
