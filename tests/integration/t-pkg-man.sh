#!/bin/sh
# The man pages sbxd(8), sbxctl(1), sbx-policy(5): mandoc -Tlint finds no
# warning (nor a style remark, apart from references to pages this host
# lacks), groff renders them with all warnings on and says nothing, `man -l`
# renders them, and they cover what the units and the completion point at.
. tests/integration/pkg-lib.sh

pages="packaging/man/sbxd.8 packaging/man/sbxctl.1 packaging/man/sbx-policy.5"
for f in $pages; do [ -f "$f" ] || fail "missing $f"; done
linted=

if command -v mandoc >/dev/null 2>&1; then
	# Missing cross-references depend on what this host has installed.
	out=$(mandoc -Tlint -W style $pages 2>&1 |
		grep -v -e 'referenced manual not found' -e 'mandoc.db')
	[ -z "$out" ] || fail "mandoc -Tlint:
$out"
	linted="$linted mandoc"
fi
if command -v groff >/dev/null 2>&1; then
	for f in $pages; do
		out=$(groff -ww -z -mandoc "$f" 2>&1)
		[ -z "$out" ] || fail "groff -ww $f:
$out"
	done
	linted="$linted groff"
fi
if command -v man >/dev/null 2>&1; then
	for f in $pages; do
		out=$(MANWIDTH=80 man --warnings=w -l "$f" 2>&1 >/dev/null)
		[ -z "$out" ] || fail "man -l $f:
$out"
		[ -n "$(MANWIDTH=80 man -l "$f" 2>/dev/null)" ] || fail "man -l $f renders nothing"
	done
	linted="$linted man"
fi
[ -n "$linted" ] || skip "neither mandoc, groff nor man installed (apt-get install mandoc)"

# Every Documentation=man:PAGE(N) of the units is one of these pages.
for ref in $(sed -n 's/^Documentation=//p' systemd/* | tr ' ' '\n' |
	sed -n 's/^man:\(.*\)(\([1-8]\))$/\1.\2/p' | sort -u); do
	[ -f "packaging/man/$ref" ] || fail "a unit documents man page $ref, not shipped"
done

# Every command the completion offers is documented in sbxctl(1).
cmds=$(sed -n "s/^_sbxctl_commands='\(.*\)'/\1/p" packaging/completions/sbxctl.bash)
[ -n "$cmds" ] || fail "no command list in the bash completion"
for c in $cmds; do
	grep -q "^\.\(It \)\{0,1\}Cm $c\( \|$\)" packaging/man/sbxctl.1 ||
		fail "sbxctl $c is completed but not documented in sbxctl(1)"
done
note "PASS (lint:$linted)"
