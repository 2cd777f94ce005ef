#!/bin/bash
# What the foundation sandbox must refuse, checked with the probe's exact
# errno and on the host: writes outside the workspace, mounts, new user
# namespaces, ptrace of the sandbox's init, Unix sockets outside the
# sandbox (the daemon's included), host pids, fds.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
P=$BIN/sbx-probe
home_target="$HOME/.sbx-escape-$$"
expect_eq "write to /etc -> EROFS" "$(sbx run -- "$P" write /etc/sbx-escape-$$)" EROFS
check "nothing in /etc" test ! -e /etc/sbx-escape-$$
# The home is an overlay (t-home-overlay): the write lands in its layer,
# or is refused where the kernel cannot make one (EROFS; EACCES from
# Landlock alone); never in $HOME.
out=$(sbx run -- "$P" write "$home_target")
check "write to \$HOME kept from it ($out)" test "$out" = ok -o "$out" = EROFS -o "$out" = EACCES
check "nothing in \$HOME" test ! -e "$home_target"
expect_eq "write in the workspace works" "$(sbx run -- "$P" write "$WS/ok")" ok
check "workspace file exists on the host" test -e "$WS/ok"
expect_eq "mount -> EPERM" "$(sbx run -- "$P" mount "$WS")" EPERM
expect_eq "new user namespace -> EPERM" "$(sbx run -- "$P" unshare-user)" EPERM
expect_eq "ptrace of the sandbox's init -> EPERM" "$(sbx run -- "$P" attach 1)" EPERM
expect_eq "AF_UNIX datagram socket -> EPERM" "$(sbx run -- "$P" socket 1 2 0)" EPERM
expect_eq "socketpair still works" "$(sbx run -- "$P" socketpair)" ok
# Masked: a device node where a supervisor connects (ECONNREFUSED), or
# no AF_UNIX socket at all (EPERM).
d=$(sbx run -- "$P" connect-unix "$SOCK")
check "daemon socket unreachable ($d)" grep -Eqx 'ECONNREFUSED|EPERM' <<<"$d"
out=$(sbx run -- ls -A "$XDG_RUNTIME_DIR/sbx" 2>&1)
check "daemon runtime dir is masked ('$out')" grep -q "Permission denied" <<<"$out"
expect_eq "only stdio fds inside" "$(sbx run -- "$P" fds | tr '\n' ' ')" "0 1 2 "
# Only the sandbox's own processes (and its template, the template's
# spawner and the supervisor) are visible.
comms=$(sbx run -- sh -c 'for p in /proc/[0-9]*; do cat $p/comm; done 2>/dev/null' | sort -u | tr '\n' ' ')
check "only sandbox processes in /proc ($comms)" bash -c '[ -z "$(tr " " "\n" <<<"$0" | grep -vx "sbx-template\|sbx-init\|sbx-spawner\|sbx-supervise\|sh\|cat\|")" ]' "$comms"
expect_eq "daemon pid invisible" "$(sbx run -- sh -c "test -e /proc/$DPID/status && echo seen || echo hidden")" hidden
expect_eq "signal to pid 1 (init) refused" "$(sbx run -- "$P" kill 1)" EPERM
caps=$(sbx run -- grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status | awk '{print $2}' | tr '\n' ' ')
expect_eq "no capabilities, no_new_privs" "$caps" "0000000000000000 0000000000000000 1 "
# Private /tmp, per workspace, persistent across runs.
sbx run -- sh -c 'echo private > /tmp/sbx-escape-tmp'
check "sandbox /tmp is not the host's" test ! -e /tmp/sbx-escape-tmp
expect_eq "private /tmp persists for the workspace" "$(sbx run -- cat /tmp/sbx-escape-tmp)" private
# No network but loopback (without a network namespace the host's
# interfaces show; t-proxy-nonetns checks that only the proxy is reached).
case " ${SBXD_ARGS:-} " in
*" --no-netns "*) ok "only loopback: not so without a network namespace" ;;
*) expect_eq "only loopback" "$(sbx run -- sh -c 'ls /sys/class/net')" lo ;;
esac
expect_eq "hostname" "$(sbx run -- cat /proc/sys/kernel/hostname)" sbx
stop_daemon
done_test
