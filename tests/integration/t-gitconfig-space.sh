#!/bin/bash
# A rewrite of an existing repository's .git/config is judged by what git
# will read: git's whitespace is space, tab, CR and LF only. A vertical
# tab or form feed before a key's value is part of the value for git, so
# a core.hooksPath the user set to a directory outside the workspace,
# rewritten as "\v<that dir>", would name a directory relative to the
# work tree that the sandbox can fill: refused, the host config unchanged.
. "$(dirname "$0")/lib.sh"
export GIT_CONFIG_NOSYSTEM=1
mkdir -m 755 "$T/hooks"
(cd "$WS" && git init -q -b main && git config core.hooksPath "$T/hooks" &&
	git config alias.st "status -s")
sum=$(sha256sum <"$WS/.git/config")
start_daemon
cd "$WS"
for c in '\v' '\f'; do
	out=$(sbx run -q -- sh -c 'c=$(printf "$0")
		sed "s|hooksPath = |hooksPath = $c|" .git/config >c.lock &&
		mv c.lock .git/config' "$c" 2>&1)
	expect_eq "hooksPath with a leading $c: host config unchanged ($out)" "$(sha256sum <"$WS/.git/config")" "$sum"
	expect_eq "hooksPath with a leading $c: git reads the user's" "$(git config core.hooksPath)" "$T/hooks"
	out=$(sbx run -q -- sh -c 'c=$(printf "$0")
		sed "s|status -s|status$c-s|" .git/config >c.lock &&
		mv c.lock .git/config' "$c" 2>&1)
	expect_eq "alias value with $c inside: host config unchanged ($out)" "$(sha256sum <"$WS/.git/config")" "$sum"
done
# An ordinary change still goes through.
out=$(sbx run -q -- git config user.email agent@example.com 2>&1)
expect_eq "git config user.email ($out)" "$(git config --local user.email)" agent@example.com
stop_daemon
done_test
