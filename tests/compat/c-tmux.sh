#!/bin/bash
# tmux: a detached session (its server on a Unix socket in /tmp), a
# command in it, its pane read back.
. "$(dirname "$0")/compat-lib.sh"
command -v tmux >/dev/null || compat_skip "no tmux"
body() {
	cat <<'EOF'
set -e
L=sbx-compat-$$
tmux -L $L -f /dev/null new-session -d -x 80 -y 24 \
	'echo in tmux; tmux -L '$L' wait-for -S ready; exec cat'
tmux -L $L wait-for ready
tmux -L $L capture-pane -p | grep -v '^$'
tmux -L $L kill-server
echo done
EOF
}
compat_main
