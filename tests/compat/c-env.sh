#!/bin/bash
# The caller's environment: what a developer's tools need is passed
# (NODE_ENV, PYTHONPATH), a credential-looking name is withheld: there
# the sandboxed run differs by design.
. "$(dirname "$0")/compat-lib.sh"
RUN_ENV=(NODE_ENV=production "PYTHONPATH=$WS/lib" SBX_COMPAT_TOKEN=s3cret)
setup() { mkdir "$WS/lib"; echo 'print("imported mod")' >"$WS/lib/mod.py"; }
body() {
	cat <<EOF
echo "NODE_ENV=\${NODE_ENV-unset}"
echo "PYTHONPATH=\${PYTHONPATH-unset}"
echo "SBX_COMPAT_TOKEN=\${SBX_COMPAT_TOKEN-unset}"
$PY -c 'import mod'
EOF
}
expect_sandboxed() { sed 's/^SBX_COMPAT_TOKEN=.*/SBX_COMPAT_TOKEN=unset/'; }
compat_main
