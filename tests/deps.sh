#!/bin/sh
# Installs what building and testing sbx needs, when it is missing: with apt
# as root, otherwise it says what to install and fails.
pkgs="gcc make pkg-config protobuf-c-compiler libprotobuf-c-dev libevent-dev
libseccomp-dev libsystemd-dev libssl-dev libjansson-dev clang
libclang-rt-14-dev python3 python3-psutil procps util-linux iproute2 systemd git
tmux strace gdb postgresql openssh-client openssh-server golang-go"
# Node for clients/node: NodeSource's nodejs brings its own npm, Debian's
# needs the npm package.
command -v node >/dev/null || pkgs="$pkgs nodejs"
command -v npm >/dev/null || pkgs="$pkgs npm"
# clients/node's dependencies, from its committed lockfile, when they are
# missing or older than it.
node_deps() {
	d=$(dirname "$0")/../clients/node
	[ "$d/node_modules/.package-lock.json" -nt "$d/package-lock.json" ] && return 0
	(cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
}
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
# The MCP interoperability test's client (tests/mcp-interop): the official
# TypeScript SDK at the version its committed lockfile names.
mcp_interop() {
	d=$(dirname "$0")/mcp-interop
	command -v npm >/dev/null || return 0
	[ -d "$d/node_modules/@modelcontextprotocol/sdk" ] && return 0
	(cd "$d" && npm ci --no-audit --no-fund --silent)
}
[ -z "$missing" ] && { node_deps && mcp_interop; exit; }
if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages:$missing" >&2
	echo "install them with: sudo apt-get install$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
node_deps && mcp_interop
