#!/bin/bash
# script -qc: a command on a new pseudo-terminal.
. "$(dirname "$0")/compat-lib.sh"
command -v script >/dev/null || compat_skip "no script(1)"
body() {
	cat <<'EOF'
script -qec 'test -t 0 && test -t 1 && echo "on a tty"; stty size' /dev/null | tr -d '\r'
echo "script: $?"
EOF
}
compat_main
