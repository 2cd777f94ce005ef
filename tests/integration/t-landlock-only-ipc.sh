#!/bin/bash
# The IPC objects of the user's host processes are out of a sandbox's
# reach: a host process (ipchold.py) makes a SysV shared memory segment, a
# message queue and a semaphore set, and a POSIX message queue, all mode
# 0600 as the test user. In the namespace modes the sandbox's IPC
# namespace is its own (none of them is found); in Landlock-only mode,
# which has none, seccomp refuses every SysV IPC and POSIX message queue
# call with EPERM (rule seccomp.ipc, kind ipc), i386's and x32's too.
# Either way the host's objects are unchanged.
. "$(dirname "$0")/lib.sh"
. "$HERE/violations-lib.sh"
coproc IPC { "$PY" "$HERE/ipchold.py"; }
read -r ids <&"${IPC[0]}"
read -r shmkey shmid msgkey msgid semkey semid mq <<<"$ids"
check "the host made its objects ($shmid $msgid $semid $mq)" test -n "$mq"
cd "$WS"

# each MODE ERRNO_OF_A_GET ERRNO_BY_ID ERRNO_OF_MQ: every try, with its
# errno (sbxctl as $SBXCTL says).
SBXCTL=(sbx)
each() {
	local m=$1 get=$2 byid=$3 mqe=$4 op arg want
	while read -r op arg want; do
		expect_eq "$m: $op -> $want" \
			"$("${SBXCTL[@]}" run -- "$P" "$op" "$arg")" "$want"
	done <<EOF
shmget $shmkey $get
shm-write $shmid $byid
shm-rmid $shmid $byid
msgget $msgkey $get
msgsnd $msgid $byid
msgrcv $msgid $byid
msg-rmid $msgid $byid
semget $semkey $get
semop $semid $byid
semtimedop $semid $byid
semctl-setval $semid $byid
mq-send $mq $mqe
mq-unlink $mq $mqe
EOF
}

if ! grep -q -- --landlock-only <<<"${SBXD_ARGS:-}"; then
	start_daemon
	each namespaces ENOENT EINVAL ENOENT
	stop_daemon
	if [ "$(id -u)" -eq 0 ] && id sbxtest >/dev/null 2>&1; then
		# Privileged mode: the served user's own objects, a command
		# run by that user.
		as=(setpriv --reuid=sbxtest --regid=sbxtest --init-groups)
		chown sbxtest: "$WS"
		mkfifo "$T/ipc-in" "$T/ipc-out"
		"${as[@]}" "$PY" "$HERE/ipchold.py" <"$T/ipc-in" >"$T/ipc-out" &
		exec 7>"$T/ipc-in" 8<"$T/ipc-out"
		read -r shmkey shmid msgkey msgid semkey semid mq <&8
		start_daemon --user sbxtest
		chmod 755 "$XDG_RUNTIME_DIR"
		SBXCTL=("${as[@]}" "$BIN/sbxctl" --no-autostart --socket "$SOCK")
		each privileged ENOENT EINVAL ENOENT
		SBXCTL=(sbx)
		stop_daemon
		echo check >&7
		read -r state <&8
		expect_eq "privileged: the user's objects are unchanged" \
			"$state" "shm:host-data msg:1 sem:5 mq:1"
		exec 7>&- 8<&-
		read -r shmkey shmid msgkey msgid semkey semid mq <<<"$ids"
	fi
fi
if [ "$(id -u)" -ne 0 ]; then
	start_daemon --landlock-only
	check "status says so" grep -q "no IPC namespace: SysV IPC and POSIX message queues refused" < <(sbx status)
	each landlock-only EPERM EPERM EPERM
	if [ "$("$P" int80 20)" = ok ]; then
		# i386: the ipc() multiplexer (117; call 24 is SHMCTL, 14
		# MSGCTL, 3 SEMCTL; cmd 0 is IPC_RMID) and the direct calls
		# (shmctl 396, msgctl 402, semctl 394); x32's shmctl (31).
		while read -r abi nr a0 a1 a2 what; do
			expect_eq "landlock-only: $what -> EPERM" \
				"$(sbx run -- "$P" "$abi" "$nr" "$a0" "$a1" "$a2")" EPERM
		done <<EOF
int80 117 24 $shmid 0 i386 ipc(SHMCTL, IPC_RMID)
int80 117 14 $msgid 0 i386 ipc(MSGCTL, IPC_RMID)
int80 117 3 $semid 0 i386 ipc(SEMCTL, IPC_RMID)
int80 396 $shmid 0 0 i386 shmctl(IPC_RMID)
int80 402 $msgid 0 0 i386 msgctl(IPC_RMID)
int80 394 $semid 0 0 i386 semctl(IPC_RMID)
x32 31 $shmid 0 0 x32 shmctl(IPC_RMID)
EOF
	fi
	if sbx --json status | grep -q '"seccomp_notify": true'; then
		sbx run --json -- "$P" shm-write "$shmid" >/dev/null 2>"$T/v"
		expect_eq "shmat reported as a violation" \
			"$(v "$T/v" groups kind target operation rule_id)" \
			"ipc|shmat|shmat|seccomp.ipc"
		check "... with a remediation" \
			grep -q '"remediation":"SysV IPC and POSIX message queues' "$T/v"
	fi
	stop_daemon
fi
echo check >&"${IPC[1]}"
read -r state <&"${IPC[0]}"
expect_eq "the host's objects are unchanged" "$state" \
	"shm:host-data msg:1 sem:5 mq:1"
done_test
