# Shared by the integration tests (sourced). Each test gets a private
# daemon: its own socket, runtime dir and workspace, started and stopped
# here, with readiness read from a fifo (never a sleep).
set -u
BIN=${SBX_BIN:?SBX_BIN must point at sbxd, sbxctl, sbx-probe}
HERE=$(cd "$(dirname "$0")" && pwd)
# Not under /tmp or /var/tmp: sandboxes have private ones, and tests need
# paths outside the workspace that the sandbox can see (run-integration.sh
# makes SBX_TEST_TMP).
T=$(mktemp -d "${SBX_TEST_TMP:?set SBX_TEST_TMP to a directory outside /tmp and /var/tmp (tests/run-integration.sh does)}/sbxt.XXXXXX")
chmod 755 "$T"
export XDG_RUNTIME_DIR="$T/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
# The daemon's state (home overlay layers, pushed policies) stays in the
# scratch dir too, for autostarted user-mode daemons as well.
export XDG_STATE_HOME="$T/state"
SOCK="$T/run/sbxd.sock"
WS="$T/ws"
mkdir "$WS"
DPID=
FAILS=0
# The system python: a per-user shim (pyenv) may not be reachable by the
# test user.
PY=$(command -v /usr/bin/python3 || command -v python3)
export SBX_SOCKET="$SOCK"
# ASan: the sandbox runs binaries we did not build; only our own are
# instrumented, and leaks in short-lived children are not ours to judge.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}

cleanup() {
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -KILL "$DPID" 2>/dev/null
		wait "$DPID" 2>/dev/null
	fi
	# A root daemon killed outright leaves its home layers' file
	# systems mounted in the state dir (the daemon unmounts them at exit).
	[ "$(id -u)" -eq 0 ] && grep -o " $T/[^ ]*" /proc/self/mounts |
		sort -r | xargs -r -n1 umount -l 2>/dev/null
	# Overlayfs leaves a mode 000 directory in its work dir.
	chmod -R u+rwX "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
ok() { echo "ok: $*"; }
check() { # check DESC CMD...
	local d=$1; shift
	if "$@"; then ok "$d"; else fail "$d"; fi
}
expect_eq() { # expect_eq DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', want '$3'"; fi
}
done_test() { [ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }; exit 0; }

# start_daemon [ARGS...]: starts sbxd and returns once it listens, its state
# dir the scratch dir's; with SBXD_ARGS in the environment (say --no-netns,
# to run the proxy tests without network namespaces) those come first, and
# SBXD_WRAP names a program sbxd runs under (it must exec it, keeping its
# pid).
start_daemon() {
	mkfifo "$T/ready"
	# shellcheck disable=SC2086 # word lists, on purpose
	${SBXD_WRAP:-} "$BIN/sbxd" --socket "$SOCK" --state-dir "$T/state" \
		--ready-fd 3 ${SBXD_ARGS:-} "$@" 3>"$T/ready" 2>>"$T/sbxd.log" &
	DPID=$!
	local line
	read -r line <"$T/ready" || true
	rm -f "$T/ready"
	if [ "$line" != READY ]; then
		cat "$T/sbxd.log" >&2
		echo "FAIL: sbxd did not start" >&2
		exit 1
	fi
}

# stop_daemon: SIGTERM, and the daemon must exit 0.
stop_daemon() {
	kill -TERM "$DPID"
	wait "$DPID"
	local rc=$?
	DPID=
	expect_eq "sbxd exits 0 on SIGTERM" "$rc" 0
}

# sbx: sbxctl on this test's daemon. An executable (not a function) that
# execs, so `sbx run ... &` leaves $! naming sbxctl itself.
mkdir "$T/bin"
printf '#!/bin/sh\nexec "%s/sbxctl" --no-autostart --socket "%s" "$@"\n' \
	"$BIN" "$SOCK" >"$T/bin/sbx"
chmod 755 "$T/bin/sbx"
PATH="$T/bin:$PATH"

# Number of open fds of a process.
fd_count() { ls "/proc/$1/fd" | wc -l; }

# wait_exit PID: blocks until PID exits (pidfd; no polling).
wait_exit() {
	"$PY" -c '
import os, select, sys
try:
    fd = os.pidfd_open(int(sys.argv[1]))
except ProcessLookupError:
    sys.exit(0)
r, _, _ = select.select([fd], [], [], float(sys.argv[2]))
sys.exit(0 if r else 1)' "$1" "${2:-20}"
}

# Host pids living in the pid namespace of PID.
ns_pids() {
	local ns p
	ns=$(readlink "/proc/$1/ns/pid" 2>/dev/null) || return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$ns" ] && echo "${p#/proc/}"
	done
	return 0
}

# Session field from `sbxctl ps --json`: json_field EXPR (python on `s`).
ps_json() { sbx --json ps; }

# daemon_procs COMM: pids of the test daemon's descendants named COMM.
daemon_procs() {
	ps -e -o pid=,ppid=,comm= | awk -v root="$DPID" -v comm="$1" '
		{ parent[$1] = $2; name[$1] = $3 }
		END {
			for (p in parent) {
				q = p
				while (q in parent && q != root && q > 1)
					q = parent[q]
				if (q == root && p != root && name[p] == comm)
					print p
			}
		}'
}

# wait_for DESC CMD...: polls CMD (every 10 ms, up to 20 s) until it
# succeeds: for states no event announces (a process blocked in a syscall).
wait_for() {
	local desc=$1 i
	shift
	for i in $(seq 2000); do
		"$@" && return 0
		sleep 0.01
	done
	fail "timed out waiting for $desc"
	return 1
}

# warm_ready N (root): N warm sandboxes of the test daemon wait for their
# job, fully built (their command processes blocked in recvmsg).
warm_ready() {
	local p n=0 nr
	case $(uname -m) in x86_64) nr=47 ;; aarch64) nr=212 ;; *) return 1 ;; esac
	for p in $(daemon_procs sbx-init); do
		[ "$(cut -d' ' -f1 "/proc/$p/syscall" 2>/dev/null)" = "$nr" ] && n=$((n + 1))
	done
	[ "$n" -ge "$1" ]
}

# host_listen NAME: the host's listeners (hostlisten.py: TCP and UDP on
# 127.0.0.1, Unix stream and datagram sockets at $T/out/host.sock and
# $T/out/host-d.sock, abstract names @NAME and @NAME-d), logging to
# $T/listen.log, empty from here on; sets LPID, TCP and UDP.
host_listen() {
	mkdir -p "$T/out"
	mkfifo "$T/lready"
	"$PY" "$HERE/hostlisten.py" "$T/lready" "$T/listen.log" \
		"$T/out/host.sock" "$T/out/host-d.sock" "$1" 2>>"$T/listen.err" &
	LPID=$!
	read -r TCP UDP <"$T/lready" ||
		{ cat "$T/listen.err"; fail "listener"; done_test; }
	: >"$T/listen.log"
}

# need_served_user: for privileged-mode tests (a root daemon serving the
# unprivileged test user): skips unless root and the user exists, and
# sets $user; as CMD... runs CMD as that user.
need_served_user() {
	[ "$(id -u)" -eq 0 ] || skip "privileged mode needs root"
	user=${SBX_TEST_USER:-sbxtest}
	id "$user" >/dev/null 2>&1 || skip "no user $user"
}
as() { setpriv --reuid="$user" --regid="$user" --init-groups "$@"; }
