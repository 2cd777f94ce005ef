#!/bin/bash
# open(O_CREAT) as the supervisor performs it (linux/emulate.c): a new
# name is made before it is looked for, where the rules allow one, and
# anything else (the name exists, a symlink, ".", a trailing slash, a
# protected name) goes through the lookup first. Each outcome is the
# bare one, errno for errno, and the host shows what bare would have
# made ("name/" with O_CREAT is EISDIR, O_EXCL or not). Then what a file
# made costs the supervisor: at most 14 syscalls (strace -c of it, as
# root: it is not dumpable), where it took 16; a mkdir onto an existing
# directory at an absolute path at most 7, where it took 11.
. "$(dirname "$0")/lib.sh"
P=$BIN/sbx-probe
. "$(dirname "$0")/protect-lib.sh"
start_protected

# The same tree for the bare run and the sandboxed one.
fixture() {
	rm -rf "$WS/ex"
	mkdir -p "$WS/ex/d"
	echo keep >"$WS/ex/f"
	ln -s nowhere "$WS/ex/dangling"
	ln -s f "$WS/ex/l"
	ln -s d "$WS/ex/ld"
}
long=$(printf 'n%.0s' $(seq 256))
for op in create create-open; do
	for p in ex/new "$WS/ex/new2" ex/f ex/l ex/dangling ex/d ex/d/ ex/ld/ \
		 ex/f/ ex/l/ ex/new3/ ex/. ex/d/.. ex/absent/x ex/f/x "ex/$long"; do
		fixture
		want=$(cd "$WS" && "$P" "$op" "$p" 2>/dev/null)
		(cd "$WS/ex" && find . | sort >"$T/bare.tree")
		fixture
		expect_eq "$op $p" "$(probe "$op" "$p")" "$want"
		(cd "$WS/ex" && find . | sort >"$T/sbx.tree")
		check "$op $p: the same names on the host" \
			cmp -s "$T/bare.tree" "$T/sbx.tree"
		expect_eq "$op $p: ex/f kept" "$(cat "$WS/ex/f")" keep
	done
done
rm -rf "$WS/ex"
# A protected name: refused whichever way it is opened, nothing made.
for op in create create-open; do
	expect_eq "$op .mcp.json" "$(probe "$op" .mcp.json)" EPERM
	expect_eq "$op at depth" "$(probe "$op" a/.mcp.json)" ENOENT
	mkdir -p "$WS/a"
	expect_eq "$op a/.mcp.json" "$(probe "$op" a/.mcp.json)" EPERM
	absent "$op: nothing made" .mcp.json a/.mcp.json
	rmdir "$WS/a"
done

# Relative to a directory fd (tar's openat(dirfd, ...), which the
# supervisor takes from the command with pidfd_getfd once it knows the
# thread): the files land where bare tar puts them, a protected name
# among them is refused (tar says so and exits 2), nothing else.
mkdir -p "$T/tar/sub/deep"
for i in $(seq 40); do echo "$i" >"$T/tar/sub/f$i"; done
echo x >"$T/tar/sub/deep/.mcp.json"
tar cf "$T/t.tar" -C "$T/tar" sub
rm "$T/tar/sub/deep/.mcp.json"
mkdir "$WS/untar"
out=$(sbx run -q -- tar xf "$T/t.tar" -C untar 2>&1)
expect_eq "tar's exit status" "$?" 2
check "tar names the refused file ($out)" grep -q "deep/.mcp.json" <<<"$out"
expect_eq "the other files as tar made them" \
	"$(cd "$WS/untar" && find . -type f | sort | xargs cat | md5sum)" \
	"$(cd "$T/tar" && find . -type f | sort | xargs cat | md5sum)"
absent "no .mcp.json from tar" untar/sub/deep/.mcp.json
rm -rf "$WS/untar"

# sup_syscalls LOOP: how many syscalls the supervisor makes while a
# shell in the sandbox runs LOOP 200 times (strace -c of it), into n
# (empty when the run or strace did not start).
sup_syscalls() {
	local mark=sbx-create-cost-$$-$RANDOM rpid spid
	n=
	rm -f "$WS/go"
	mkfifo "$WS/go"
	sbx run -q -- sh -c "read x < go; i=0; while [ \$i -lt 200 ]; do $1; i=\$((i + 1)); done; : $mark" >/dev/null &
	rpid=$!
	# The shell's supervisor, up from the processes naming the mark (sbx
	# run's own names it too, with no supervisor above it).
	sup_of_mark() {
		local q
		for q in $(pgrep -f "$mark"); do
			sup=$q
			while [ "${sup:-1}" -gt 1 ] &&
			      [ "$(cat "/proc/$sup/comm" 2>/dev/null)" != sbx-supervise ]; do
				sup=$(ps -o ppid= -p "$sup" | tr -d ' ')
			done
			[ "${sup:-1}" -gt 1 ] && return 0
		done
		return 1
	}
	if ! wait_for "the sandboxed shell" sup_of_mark; then
		kill "$rpid"
		return
	fi
	strace -qq -c -p "$sup" -o "$T/sup.strace" &
	spid=$!
	if wait_for "strace attached" grep -q TracerPid:.[1-9] "/proc/$sup/status"; then
		echo go >"$WS/go"
		wait "$rpid"
	else
		kill "$rpid"
	fi
	kill -INT "$spid"
	wait "$spid"
	n=$(awk '$NF == "total" { print $4 }' "$T/sup.strace")
}

# What a file made costs the supervisor, and a mkdir onto a directory
# that exists (most of npm ci's calls; an absolute path, as npm's): its
# syscalls for 200 of each (one notification each), as root only.
if [ "$(id -u)" -eq 0 ] && command -v strace >/dev/null; then
	sup_syscalls ': > c$i'
	expect_eq "200 files made" "$(ls "$WS" | grep -c '^c[0-9]')" 200
	check "at most 14 syscalls a file in the supervisor (made $n for 200)" \
		test "${n:-99999}" -le $((200 * 14))
	mkdir "$WS/there"
	sup_syscalls "$P mkdir $WS/there"
	check "at most 7 syscalls a mkdir of an existing directory (made $n for 200)" \
		test "${n:-99999}" -le $((200 * 7))
fi
done_test
