#!/bin/bash
# SSH through transparent capture: ssh and git clone over SSH reach a
# local sshd (the test's, on a loopback port, named by a --hosts-file
# entry) where the policy allows HOST:PORT; a refused SSH destination gets
# an SSH disconnect message carrying the reason, which ssh prints, not a
# hang or a name lookup error.
. "$(dirname "$0")/lib.sh"
. "$HERE/proxy-lib.sh"
[ -x /usr/sbin/sshd ] && command -v ssh >/dev/null && command -v ssh-keygen >/dev/null ||
	skip "no OpenSSH server or client"
me=$(id -un)
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir "$T/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$T/ssh/host_key"
# The client's key is read inside the sandbox: the workspace.
ssh-keygen -q -t ed25519 -N '' -f "$WS/id"
cp "$WS/id.pub" "$T/ssh/authorized_keys"
cat >"$T/ssh/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/ssh/host_key
AuthorizedKeysFile $T/ssh/authorized_keys
PidFile $T/ssh/pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel VERBOSE
CONF
[ "$(id -u)" -eq 0 ] && mkdir -p /run/sshd
/usr/sbin/sshd -D -e -f "$T/ssh/sshd_config" 2>"$T/sshd.log" &
SRV_PIDS+=($!)
wait_for "sshd to listen" grep -q "Server listening on 127.0.0.1 port $PORT" "$T/sshd.log" ||
	{ cat "$T/sshd.log" >&2; exit 1; }
# A repository to clone over SSH.
git init -q --bare "$T/repo.git"
git init -q "$T/src"
echo over-ssh >"$T/src/file"
git -C "$T/src" add file
git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm one
git -C "$T/src" push -q "$T/repo.git" HEAD:refs/heads/main
git -C "$T/repo.git" symbolic-ref HEAD refs/heads/main

start_proxy_daemon '{"network": {
  "allowedDomains": ["sshhost.test:'"$PORT"'", "127.0.0.1:'"$PORT"'",
                     "nossh.test:443", "badssh.test"],
  "deniedDomains": [{"domain": "badssh.test:'"$PORT"'", "id": "no-ssh",
                     "reason": "SSH to badssh is not for agents"}]}}' \
	"127.0.0.1 sshhost.test nossh.test badssh.test"
sbx status | grep -q 'no transparent capture' && skip "no transparent capture here"
cd "$WS"
SSH="ssh -F /dev/null -i $WS/id -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o ConnectTimeout=20"

out=$(sbx run -- $SSH -p "$PORT" "$me@sshhost.test" echo ssh-ok 2>"$T/err")
expect_eq "ssh to an allowed HOST:PORT" "$out" ssh-ok
check "sshd accepted the key" grep -q "Accepted publickey for $me" "$T/sshd.log"
sbx run -- env GIT_SSH_COMMAND="$SSH" git clone -q \
	"ssh://$me@sshhost.test:$PORT$T/repo.git" "$WS/clone" 2>"$T/err"
expect_eq "git clone over SSH" "$(cat "$WS/clone/file" 2>/dev/null)" over-ssh

# Refused: the name is allowed on 443 only; port 22.
conns_before=$(grep -c 'Connection from' "$T/sshd.log")
sbx run -- $SSH "$me@nossh.test" true >/dev/null 2>"$T/err"
check "ssh prints the disconnect from sbx" grep -q "Received disconnect from .* port 22:1: blocked nossh.test:22: not in allowedDomains" "$T/err"
check "not a name lookup error" eval '! grep -qi "resolve" "$T/err"'
# Refused by a deny rule, on another port: told by its banner that the
# client speaks SSH, sbx answers in SSH with the rule's reason.
sbx run -- $SSH -p "$PORT" "$me@badssh.test" true >/dev/null 2>"$T/err"
check "the deny rule's reason reaches ssh" grep -q "Received disconnect from .*:1: blocked badssh.test:$PORT: matches deniedDomains .*SSH to badssh is not for agents" "$T/err"
expect_eq "sshd saw none of the refused ones" \
	"$(grep -c 'Connection from' "$T/sshd.log")" "$conns_before"
stop_daemon
done_test
