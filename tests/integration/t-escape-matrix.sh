#!/bin/bash
# The escape matrix (issue #3): each row is one fresh sandboxed probe, the
# exact errno it must report, and what must hold on the host afterwards
# (a file's sha256 unchanged, a file absent, no setuid/setgid bit, the
# host listener's log empty, a host process alive and untraced). Rows:
# writes outside the workspace, reads of masked paths, protected paths,
# mounts and roots, namespaces, other processes, the terminal, kernel
# interfaces, setuid, /dev/shm and /tmp, /proc/sys and /sys, Unix and IP
# sockets to host listeners, the daemon's socket; and "root is not
# special": the same answers as root as for the test user.
#
# The expectations are the default mode's (user namespaces and a network
# namespace). Rows that differ say why where they are: --no-netns shares
# the host's loopback (Landlock and seccomp answer instead of an empty
# one); root's sandbox is uid 0 mapped to itself, the test user's its own
# uid. --landlock-only has no namespaces at all: t-landlock-only covers it.
. "$(dirname "$0")/lib.sh"
case " ${SBXD_ARGS:-} " in
*" --landlock-only "*) skip "no namespaces in --landlock-only (t-landlock-only)" ;;
*" --no-netns "*) netns=0 ;;
*) netns=1 ;;
esac
P=$BIN/sbx-probe
me=$(id -u)
cd "$WS"
git init -q "$WS"
printf 'TOKEN=secret\n' >"$WS/.env"
mkdir "$WS/secrets" "$WS/sub"
printf 'key\n' >"$WS/secrets/key"
printf '.env\nsecrets/\n' >"$WS/.sbxignore"
echo data >"$WS/file.txt"
ln -s .env "$WS/link-env"
# Outside the workspace, visible (read-only) in the sandbox.
mkdir "$T/out"
V=$T/out/victim
echo "host data" >"$V"
ln -s "$V" "$WS/link-out"
# Host /tmp and /dev/shm: the sandbox has private ones.
HT=/tmp/sbx-em-host-$$
echo "host tmp" >"$HT"
trap 'rm -f "$HT" "/tmp/sbx-em-$$" "/dev/shm/sbx-em-$$"; cleanup' EXIT

# The host listeners (TCP, UDP, Unix stream and datagram at paths and
# abstract names); their pid is also the host process to signal and trace.
host_listen "sbx-em-$$"
trap 'kill "$LPID" 2>/dev/null; rm -f "$HT" "/tmp/sbx-em-$$" "/dev/shm/sbx-em-$$"; cleanup' EXIT

start_daemon
sbx --json status >"$T/status.json"
protect_new=$("$PY" -c 'import json,sys; print(1 if json.load(open(sys.argv[1]))["protect_new"] else 0)' "$T/status.json")

# Host-side checks, one per row: KIND:ARG.
#   same:PATH   sha256 of PATH as it was before the run
#   absent:PATH no such file (nor a dangling link)
#   nosuid:PATH no setuid/setgid bit (or no file)
#   quiet       nothing more in the listener's log (the end checks it
#               stayed empty)
#   alive:PID   PID still runs, and nothing traces it
#   host:NAME   the host's name is NAME still
#   -           nothing on the host to look at (the row says why)
before=
pre() {
	case $1 in
	same:*) before=$(sha256sum <"${1#same:}") ;;
	quiet) before=$(wc -c <"$T/listen.log") ;;
	esac
}
# The listener has logged everything that reached it so far.
settled() { "$PY" "$HERE/hostlisten.py" --settle "$UDP"; }
post() {
	local arg=${1#*:} m
	case $1 in
	same:*) [ "$(sha256sum <"$arg")" = "$before" ] ;;
	absent:*) [ ! -e "$arg" ] && [ ! -L "$arg" ] ;;
	nosuid:*)
		[ ! -e "$arg" ] && return 0
		m=$(stat -c %a "$arg")
		[ $((8#$m & 8#6000)) -eq 0 ] ;;
	quiet) settled && [ "$(wc -c <"$T/listen.log")" = "$before" ] ;;
	alive:*)
		kill -0 "$arg" 2>/dev/null &&
			grep -q '^TracerPid:[[:space:]]*0$' "/proc/$arg/status" ;;
	host:*) [ "$(hostname)" = "$arg" ] ;;
	-) true ;;
	*) echo "bad check $1" >&2; false ;;
	esac
}
N=0
# row DESC WANT CHECK OP ARG...: one sandboxed probe, its exact output,
# then the host-side check.
row() {
	local desc=$1 want=$2 chk=$3 out
	shift 3
	N=$((N + 1))
	pre "$chk"
	out=$(sbx run -q -- "$P" "$@" 2>"$T/row.err")
	if [ "$out" != "$want" ]; then
		fail "$desc: got '$out', want '$want' ($(head -c 300 "$T/row.err"))"
	elif ! post "$chk"; then
		fail "$desc: host check $chk failed"
	else
		ok "$desc ($want; $chk)"
	fi
}

# --- Writes outside the workspace: the root is read-only (EROFS); a
# rename or hard link across mounts is EXDEV before anything is written.
row "new file in /etc" EROFS "absent:/etc/sbx-em-$$" write "/etc/sbx-em-$$"
row "new file next to a host file" EROFS "absent:$T/out/new" write "$T/out/new"
row "overwrite a host file (absolute)" EROFS "same:$V" open-write "$V"
row "overwrite through .." EROFS "same:$V" open-write "$WS/sub/../../out/victim"
row "through a symlink planted on the host" EROFS "same:$V" open-write link-out
row "through a symlink made inside" EROFS "same:$V" symlink-write "$V" made-link
row "hard link of a host file into the workspace" EXDEV "absent:$WS/hl" link "$V" hl
row "through /proc/self/root" EROFS "same:$V" open-write "/proc/self/root$V"
row "through /proc/self/cwd/.." EROFS "same:$V" open-write /proc/self/cwd/../out/victim
row "reopened writable through /proc/self/fd" EROFS "same:$V" reopen-write "$V"
row "truncate a host file" EROFS "same:$V" truncate "$V"
row "unlink a host file" EROFS "same:$V" unlink "$V"
row "rename a host file in its directory" EROFS "same:$V" rename "$V" "$T/out/renamed"
row "rename a host file into the workspace" EXDEV "same:$V" rename "$V" "$WS/taken"
row "rename a workspace file over a host file" EXDEV "same:$V" rename file.txt "$V"
row "mkdir outside" EROFS "absent:$T/out/d" mkdir "$T/out/d"

# --- Reads of masked paths (.env, secrets/): a masked file is a nodev
# /dev/null (EACCES), a masked directory an empty mode-000 tmpfs; file
# handles are refused by seccomp (EPERM) whether made inside or outside.
row "masked file, direct" EACCES "same:$WS/.env" read .env
row "masked file, symlink" EACCES "same:$WS/.env" read link-env
row "masked file, through .." EACCES "same:$WS/.env" read sub/../.env
row "masked file, /proc/self/root" EACCES "same:$WS/.env" read "/proc/self/root$WS/.env"
row "masked file, O_PATH then /proc/self/fd" EACCES "same:$WS/.env" fd-read .env
row "masked file, hard link" EXDEV "absent:$WS/stolen" link .env stolen
row "masked file, renamed away" EBUSY "same:$WS/.env" rename .env env.txt
row "masked file, name_to_handle_at" EPERM "same:$WS/.env" handle-read .env
hex=$("$P" handle-hex "$WS/.env")
row "masked file, open_by_handle_at (handle made on the host)" EPERM "same:$WS/.env" handle-open "$WS" "$hex"
row "masked directory's file" EACCES "same:$WS/secrets/key" read secrets/key
row "masked directory's file, O_PATH then /proc/self/fd" EACCES "same:$WS/secrets/key" fd-read secrets/key

# --- Protected paths: existing ones are read-only binds (EROFS), new ones
# refused by the supervisor (EPERM).
row "existing .git/config" EROFS "same:$WS/.git/config" open-write .git/config
row "existing .git/config, reopened via /proc/self/fd" EROFS "same:$WS/.git/config" reopen-write .git/config
row "new hook in existing .git/hooks" EROFS "absent:$WS/.git/hooks/pre-commit" create .git/hooks/pre-commit
row "existing .sbxignore (would unmask)" EROFS "same:$WS/.sbxignore" open-write .sbxignore
if [ "$protect_new" = 1 ]; then
	row "new .mcp.json" EPERM "absent:$WS/.mcp.json" create .mcp.json
	row "new .vscode/" EPERM "absent:$WS/.vscode" mkdir .vscode
	row "symlink made at a new .bashrc" EPERM "absent:$WS/.bashrc" symlink "$V" .bashrc
	row "rename onto a new .gitmodules" EPERM "absent:$WS/.gitmodules" rename file.txt .gitmodules
else
	ok "SKIP new protected paths: this kernel cannot refuse them (sbxctl status)"
fi

# --- Mounts, roots, namespaces: the mount family and setns are refused by
# seccomp (EPERM); unshare of a mount namespace by the kernel (no
# capabilities left, EPERM). The sandbox's own mounts are nothing the host
# sees; what the host can check is that its workspace is unchanged.
row "mount tmpfs over the workspace" EPERM "same:$WS/file.txt" mount "$WS"
row "umount the workspace" EPERM "same:$WS/file.txt" umount "$WS"
row "umount a mask" EPERM "same:$WS/.env" umount "$WS/.env"
row "pivot_root" EPERM - pivot-root "$WS" "$WS/sub"
row "chroot" EPERM - chroot "$WS"
row "fsopen (new mount API)" EPERM - fsopen
row "open_tree (clone a mount)" EPERM - open-tree /
row "unshare a user namespace" EPERM - unshare-user
row "unshare a mount namespace" EPERM - unshare-mnt
row "setns to a namespace of its own" EPERM - setns /proc/self/ns/mnt
# /proc/1 is the sandbox's init, not the host's (no host process is in
# the sandbox's /proc): its namespace links need ptrace access (EACCES).
row "setns to /proc/1/ns/user" EACCES - setns /proc/1/ns/user
row "setns to the host's through /proc/$LPID" ENOENT "alive:$LPID" setns "/proc/$LPID/ns/mnt"

# --- Host processes: invisible in the sandbox's pid namespace (ESRCH).
# Debuggers may trace the sandbox's own processes (Landlock holds a tracer
# to its domain): a host process is not even there to attach to.
row "SIGKILL a host process" ESRCH "alive:$LPID" signal "$LPID"
row "SIGKILL the daemon" ESRCH "alive:$DPID" signal "$DPID"
row "pidfd_open a host process" ESRCH "alive:$LPID" pidfd-open "$LPID"
row "ptrace attach a host process" ESRCH "alive:$LPID" attach "$LPID"
row "ptrace attach the daemon" ESRCH "alive:$DPID" attach "$DPID"
row "process_vm_readv of a host process" ESRCH "alive:$LPID" vm-read "$LPID" 0x400000
# The sandbox's init (it reports the exit status to the daemon) is in the
# Landlock domain the command's nests in, or in none: out of its reach.
row "ptrace attach the sandbox's init" EPERM - attach 1

# --- The terminal: TIOCSTI and TIOCLINUX are refused by seccomp (EPERM;
# the kernel itself would say ENOTTY here, stdin being a pipe); on a real
# terminal, nothing typed reaches the terminal's reader.
row "TIOCSTI" EPERM - tiocsti
row "TIOCLINUX" EPERM - tioclinux
out=$("$PY" "$HERE/ptydrive.py" -- sbx run -q -t -- "$P" tiocsti | tr -d '\r')
N=$((N + 1))
expect_eq "TIOCSTI on a real terminal, nothing typed back" "$out" EPERM

# --- Kernel interfaces refused by seccomp (EPERM; t-seccomp checks the
# daemon logged them as the filter's): refused before they touch
# anything, so the host has nothing to compare.
row "io_uring_setup" EPERM - io_uring
row "bpf" EPERM - bpf
row "keyctl" EPERM - keyctl
row "add_key" EPERM - add-key
row "perf_event_open" EPERM - perf
row "userfaultfd" EPERM - userfaultfd

# --- Setuid: no_new_privs and nosuid mounts, so a setuid binary runs as
# its caller. Root makes its own setuid (and setgid) copies of the probe,
# owned by nobody; the test user cannot, and runs the system's setuid-root
# passwd, which reads /etc/shadow only when setuid takes effect: inside it
# must answer as it does with no_new_privs set on the host.
ids_in=$(sbx run -q -- "$P" ids)
if [ "$me" = 0 ]; then
	cp "$P" "$T/out/suid" && chown 65534:65534 "$T/out/suid" && chmod 6755 "$T/out/suid"
	check "the setuid copy works outside (control)" \
		grep -q "euid 65534 gid 0 egid 65534" <<<"$("$T/out/suid" ids)"
	N=$((N + 1))
	out=$(sbx run -q -- "$T/out/suid" ids)
	expect_eq "setuid/setgid binary runs as its caller" "$out" "$ids_in"
elif [ -u /usr/bin/passwd ] && [ "$(stat -c %u /usr/bin/passwd)" = 0 ]; then
	nnp=$(setpriv --no-new-privs passwd -S 2>&1)
	check "setuid passwd reads shadow outside (control)" \
		test "$(passwd -S 2>&1)" != "$nnp"
	N=$((N + 1))
	expect_eq "setuid-root passwd gains nothing" "$(sbx run -q -- passwd -S 2>&1)" "$nnp"
else
	ok "SKIP setuid binary: no setuid-root passwd here"
fi
# No setuid/setgid file or device node is made in the workspace.
row "chmod u+s a workspace file" EPERM "nosuid:$WS/file.txt" chmod file.txt 4755
row "chmod g+s a workspace file" EPERM "nosuid:$WS/file.txt" chmod file.txt 2755
row "create a file mode 4755" EPERM "nosuid:$WS/suid-new" create-mode suid-new 4755
row "mknod a character device" EPERM "absent:$WS/null" mknod-chr null

# --- /dev/shm and /tmp are the sandbox's own, writable, private tmpfs
# (POSIX shared memory works); nothing lands in the host's.
row "write /dev/shm" ok "absent:/dev/shm/sbx-em-$$" write "/dev/shm/sbx-em-$$"
expect_eq "POSIX semaphores work (multiprocessing.Lock)" \
	"$(sbx run -q -- "$PY" -c 'import multiprocessing as m; m.Lock(); print("ok")' 2>&1)" ok
row "write /tmp" ok "absent:/tmp/sbx-em-$$" write "/tmp/sbx-em-$$"
row "host /tmp file is not there" ENOENT "same:$HT" read "$HT"
row "TMPDIR exists and is writable" ok "absent:/tmp/sbx-em-tmpdir" tmpdir-write sbx-em-tmpdir

# --- /proc/sys, /sys and cgroups are read-only; the host name is the
# sandbox's own (a UTS namespace) and cannot be set. Root's sandbox is uid
# 0, the owner of these files (sysctl's check looks at the uid alone): the
# read-only mount answers (EROFS); the test user is no owner, and the
# permission check answers first (EACCES).
hn=$(hostname)
if [ "$me" = 0 ]; then sys=EROFS; else sys=EACCES; fi
row "write /proc/sys/kernel/core_pattern" $sys "same:/proc/sys/kernel/core_pattern" open-write /proc/sys/kernel/core_pattern
row "write /proc/sys/kernel/panic" $sys "same:/proc/sys/kernel/panic" open-write /proc/sys/kernel/panic
row "write /proc/sys/kernel/hostname" $sys "host:$hn" open-write /proc/sys/kernel/hostname
row "write /proc/sys/vm/overcommit_memory" $sys "same:/proc/sys/vm/overcommit_memory" open-write /proc/sys/vm/overcommit_memory
# A network namespace gets a sysfs of its own, with no cgroup tree in it
# (ENOENT); without one the host's /sys stays, read-only (EROFS).
if [ $netns = 1 ]; then cg=ENOENT; else cg=EROFS; fi
row "mkdir in /sys/fs/cgroup" $cg "absent:/sys/fs/cgroup/sbx-em-$$" mkdir "/sys/fs/cgroup/sbx-em-$$"
row "write /sys/kernel/mm/transparent_hugepage/enabled" $sys "same:/sys/kernel/mm/transparent_hugepage/enabled" open-write /sys/kernel/mm/transparent_hugepage/enabled
row "sethostname" EPERM "host:$hn" sethostname pwned
N=$((N + 1))
expect_eq "host name is the sandbox's own" "$(sbx run -q -- "$P" hostname)" sbx
check "... not the host's ($hn)" test "$hn" != sbx

# --- Unix sockets to host listeners, abstract and at paths, and to the
# daemon. With a network namespace and a supervisor, stream sockets are
# made and the supervisor makes every connect(): a host socket is refused
# (EACCES), through a link in the workspace too; the abstract namespace is
# the sandbox's own (nothing listens: ECONNREFUSED); the daemon's socket
# is masked by a device node (ECONNREFUSED). Elsewhere AF_UNIX sockets
# are refused by seccomp (EPERM). Datagram sockets are refused
# everywhere (EPERM): a socketpair's datagram end could address any of
# them by name.
if [ $netns = 1 ] && [ "$protect_new" = 1 ]; then
	ux=EACCES uxa=ECONNREFUSED uxd=ECONNREFUSED
else
	ux=EPERM uxa=EPERM uxd=EPERM
fi
ln -s "$T/out/host.sock" "$WS/host-link.sock"
row "connect to a host Unix socket" $ux quiet unix-stream "$T/out/host.sock"
row "... through a link in the workspace" $ux quiet unix-stream "$WS/host-link.sock"
row "datagram to a host Unix socket" EPERM quiet unix-dgram "$T/out/host-d.sock"
row "connect to a host abstract socket" $uxa quiet unix-stream "@sbx-em-$$"
row "datagram to a host abstract socket" EPERM quiet unix-dgram "@sbx-em-$$-d"
row "socketpair datagram to a host Unix socket" EPERM quiet pair-dgram "$T/out/host-d.sock"
row "socketpair datagram to a host abstract socket" EPERM quiet pair-dgram "@sbx-em-$$-d"
row "connect to the daemon's socket" $uxd "alive:$DPID" connect-unix "$SOCK"

# --- IP to host listeners on 127.0.0.1: a network namespace has its own
# loopback (nothing listens there: ECONNREFUSED; a datagram is sent and
# lost). Without one (--no-netns) Landlock allows only the proxy's ports
# (EACCES) and seccomp refuses UDP (EPERM).
if [ $netns = 1 ]; then tcp=ECONNREFUSED udp=ok; else tcp=EACCES udp=EPERM; fi
row "TCP to a host listener on 127.0.0.1" $tcp quiet tcp-send 127.0.0.1 "$TCP"
row "TCP to it over IPv6 (v4-mapped)" $tcp quiet tcp-send ::ffff:127.0.0.1 "$TCP"
row "UDP to a host listener on 127.0.0.1" $udp quiet udp 127.0.0.1 "$UDP"
row "raw IPv4 socket" EPERM - socket 2 3 1
row "packet socket" EPERM - socket 17 3 0

# --- Root is not special: no capabilities, no_new_privs, the same
# answers as for the test user (the rows above ran as both); a tool that
# turns address randomisation off still works.
N=$((N + 1))
check "no capabilities, no_new_privs ($ids_in)" \
	grep -q "CapEff:	0000000000000000 CapBnd:	0000000000000000 NoNewPrivs:	1" <<<"$ids_in"
check "... as the caller's own uid ($me)" grep -q "^uid $me euid $me " <<<"$ids_in"
row "personality(ADDR_NO_RANDOMIZE)" ok - personality

stop_daemon
settled
check "the listener got nothing all along" test ! -s "$T/listen.log"
check "the listener is alive" kill -0 "$LPID"
echo "$N cases"
done_test
