#!/bin/sh
# `make demo`: a few sandboxed commands, each shown with its outcome.
set -u
b=$(cd "${1:-build}" && pwd)
ws=$(mktemp -d "$HOME/.sbx-demo.XXXXXX" 2>/dev/null || mktemp -d /var/tmp/sbx-demo.XXXXXX)
cd "$ws" || exit 1
show() { printf '\n$ sbxctl run -- %s\n' "$*"; "$b/sbxctl" run -- "$@"; echo "[exit $?]"; }
echo "workspace: $ws (writable inside the sandbox; everything else read-only)"
show sh -c 'echo hi > out.txt; cat out.txt'
show touch /etc/sbx-test
show sh -c 'exit 7'
show sh -c 'kill -TERM $$'
show sh -c 'id; hostname; ls /proc | grep -c "^[0-9]"'
show sh -c 'ls /sys/class/net; grep -E "CapEff|NoNewPrivs|Seccomp:" /proc/self/status'
printf '\n$ sbxctl status\n'
"$b/sbxctl" status
rm -rf "$ws"
