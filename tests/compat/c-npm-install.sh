#!/bin/bash
# npm install of one package from the public registry, through sbx's
# proxy, with a user policy that allows registry.npmjs.org with
# allowPrivate: on hosts whose resolver answers it with a reserved address
# (203.0.113.x here) the address check refuses it otherwise. Needs the
# registry (skipped when the bare run cannot reach it).
. "$(dirname "$0")/compat-lib.sh"
command -v npm >/dev/null || compat_skip "npm not installed"
PKG=is-number@7.0.0
cat >"$T/policy.json" <<'JSON'
{"filesystem": {"allowWrite": ["."]},
 "network": {"allowedDomains": [{"domain": "registry.npmjs.org",
   "allowPrivate": true, "id": "npm"}]}}
JSON
SBXD_ARGS="${SBXD_ARGS:-} --policy $T/policy.json"
# The cache in the workspace: emptied before each run, so the sandboxed
# run downloads again (through the proxy), and never shared between users.
RUN_ENV=(npm_config_cache="$WS/.npm-cache" npm_config_update_notifier=false
	npm_config_fund=false npm_config_audit=false)
IGNORE='^\.npm-cache'
setup() { echo '{"name": "compat-npm", "version": "1.0.0"}' >"$WS/package.json"; }
body() {
	cat <<EOF
npm install --silent --no-progress $PKG || exit 1
node -e 'console.log(require("is-number")(5), require("is-number/package.json").version)'
EOF
}
after_sbx() {
	[ "$(cat "$T/bare.rc")" = 0 ] || compat_skip "the npm registry is not reachable"
	# The same request without allowPrivate (a request layer drops it):
	# refused when the registry's address is not public, naming the key.
	local addr
	addr=$(getent ahostsv4 registry.npmjs.org | awk '{print $1; exit}')
	case $addr in
	10.*|192.168.*|172.1[6-9].*|172.2[0-9].*|172.3[01].*|192.0.2.*|198.51.100.*|203.0.113.*|198.1[89].*|100.6[4-9].*|100.[7-9][0-9].*|100.1[01][0-9].*|100.12[0-7].*)
		printf '%s\n' '{"network": {"allowedDomains": ["registry.npmjs.org"]}}' >"$WS/narrow.json"
		(cd "$WS" && env "${RUN_ENV[@]}" timeout 120 sbx run --policy narrow.json -- \
			npm view is-number@7.0.0 version </dev/null >"$T/narrow.out" 2>&1)
		check "without allowPrivate $addr is refused" \
			eval '! grep -qx 7.0.0 "$T/narrow.out"'
		check "... and the denial names the key" \
			grep -qF '"allowPrivate": true to the rule network.allowedDomains "registry.npmjs.org"' "$T/narrow.out"
		rm -f "$WS/narrow.json" ;;
	*) echo "note: registry.npmjs.org is at $addr (public): no refusal to test" ;;
	esac
}
compat_main
