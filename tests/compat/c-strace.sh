#!/bin/bash
# strace of a child: a debugger on the run's own processes.
. "$(dirname "$0")/compat-lib.sh"
command -v strace >/dev/null || compat_skip "no strace"
body() {
	cat <<'EOF'
strace -f -qq -e trace=write -o trace.out sh -c 'echo traced'; echo "strace: $?"
grep -c 'write(1, "traced' trace.out
rm -f trace.out
EOF
}
compat_main
