#!/bin/bash
# Each sandbox's /proc is its own pid namespace's: two concurrent sessions
# see only their own processes, with the pids getpid() returns; neither the
# other's command line (a secret on it) nor the daemon's processes; ps,
# pkill, kill %1 and psutil work. As the invoking user and, as root, in
# privileged mode.
. "$(dirname "$0")/lib.sh"
cd "$WS"

# What each session checks, tag and outer shell's pid as arguments. The
# other session's tag is spelt in pieces, so this script's text never
# matches it.
cat >checks.sh <<'EOF'
tag=$1 outer=$2
other=A; [ "$tag" = A ] && other=B
# Only this sandbox's processes: the init, the outer shell, this shell and
# the ls itself.
sh -c 'echo $$; exec ls /proc' >ls.$tag
lspid=$(head -n1 ls.$tag)
extra=
for p in $(tail -n +2 ls.$tag | grep '^[0-9]*$'); do
	case " 1 $outer $$ $lspid " in *" $p "*) ;; *) extra="$extra $p" ;; esac
done
echo "extra:$extra"
# Read by this shell itself (no fork): its own entry.
while read -r k v; do
	[ "$k" = NSpid: ] && echo "nspid: $v/$$"
done </proc/self/status
echo "comm-of-self: $(ps -p $$ -o comm=)"
ps -e -o pid=,comm= >ps.$tag 2>&1; echo "ps-rc: $?"
grep -l "fatal library error" ps.$tag >/dev/null && echo "ps-fatal"
echo "comms: $(cat /proc/[0-9]*/comm 2>/dev/null | sort -u | tr '\n' ' ')"
# (A pattern that does not match grep's own command line.)
if cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' ' |
	grep -q "SECRET-[$other]"; then echo "secret-seen"; fi
[ -e "/proc/$DPID_IN" ] && case " 1 $outer $$ " in
	*" $DPID_IN "*) ;; *) echo "daemon-pid-seen" ;; esac
# Writes through /proc magic links (the supervisor performs them, as the
# command's own /proc names them).
exec 3>viaproc.$tag
echo pid >>/proc/$$/fd/3
echo self >>/proc/self/fd/3
exec 3>&-
echo "viaproc: $(tr '\n' ' ' <viaproc.$tag)"
# Bounded: where pkill or kill %1 miss, the test fails, it does not hang.
n=$((20 + $$ % 10)); sleep $n & c=$!
# Until the child has exec'd sleep (bounded: its /proc entry may be wrong).
i=0 comm=
while [ $i -lt 100000 ] && [ "$comm" != sleep ]; do
	read -r comm </proc/$c/comm 2>/dev/null
	i=$((i + 1))
done
pkill -f "^sleep $n\$"; r=$?; echo "pkill-rc: $r"
[ $r -eq 0 ] || kill -KILL $c
wait $c; echo "child-status: $?"
# bash: dash has no job ids without job control, on the host too.
bash -c 'sleep 21 & kill %1 && echo kill-job-ok || kill -KILL $!; wait'
if /usr/bin/python3 -c 'import psutil' 2>/dev/null; then
	/usr/bin/python3 -c 'import os, psutil
p = psutil.Process()
print("psutil:", p.pid == os.getpid(), p.name(), sorted(psutil.pids())[0])'
else
	echo "psutil: not installed"
fi
EOF
chmod 644 checks.sh

# One scenario: RUN is the sbxctl command line (a user's or the daemon's
# user in privileged mode).
scenario() {
	local label=$1 t pa pb out
	shift
	for t in A B; do
		rm -f "up.$t" "go.$t" "done.$t" "end.$t" "out.$t"
		mkfifo -m 666 "up.$t" "go.$t" "done.$t" "end.$t"
	done
	# The secret is on each session's command line.
	"$@" run -e DPID_IN="$DPID" -- sh -c 'echo SECRET-A-$$ >/dev/null; echo up >up.A; read g <go.A; sh ./checks.sh A $$ >out.A 2>&1; echo d >done.A; read e <end.A' &
	pa=$!
	"$@" run -e DPID_IN="$DPID" -- sh -c 'echo SECRET-B-$$ >/dev/null; echo up >up.B; read g <go.B; sh ./checks.sh B $$ >out.B 2>&1; echo d >done.B; read e <end.B' &
	pb=$!
	read -r _ <up.A
	read -r _ <up.B
	# Each checks while the other runs.
	for t in A B; do
		echo go >"go.$t"
		read -r _ <"done.$t"
	done
	echo e >end.A
	echo e >end.B
	wait "$pa"; expect_eq "$label: session A exits 0" $? 0
	wait "$pb"; expect_eq "$label: session B exits 0" $? 0
	for t in A B; do
		out=$(cat "out.$t")
		echo "--- $label $t:"; echo "$out"
		expect_eq "$label $t: ls /proc lists only its own pids" \
			"$(grep '^extra:' <<<"$out")" "extra:"
		check "$label $t: NSpid is getpid() alone" \
			grep -qE '^nspid: ([0-9]+)/\1$' <<<"$out"
		expect_eq "$label $t: ps -p \$\$ names the shell" \
			"$(grep '^comm-of-self:' <<<"$out")" "comm-of-self: sh"
		expect_eq "$label $t: ps -e works" \
			"$(grep '^ps-rc:' <<<"$out")" "ps-rc: 0"
		check "$label $t: no procps fatal error" \
			bash -c "! grep -q ps-fatal <<<\"\$1\"" _ "$out"
		check "$label $t: no daemon process listed" \
			bash -c "! grep -E '^comms:.*sbx-(spawner|template|supervise|masker)' <<<\"\$1\"" _ "$out"
		check "$label $t: the other session's secret is not visible" \
			bash -c "! grep -q secret-seen <<<\"\$1\"" _ "$out"
		check "$label $t: sbxd's pid is not visible" \
			bash -c "! grep -q daemon-pid-seen <<<\"\$1\"" _ "$out"
		expect_eq "$label $t: writes through /proc/\$\$/fd and /proc/self/fd" \
			"$(grep '^viaproc:' <<<"$out")" "viaproc: pid self "
		expect_eq "$label $t: pkill -f finds its own child" \
			"$(grep '^pkill-rc:' <<<"$out")" "pkill-rc: 0"
		expect_eq "$label $t: the child died of pkill's SIGTERM" \
			"$(grep '^child-status:' <<<"$out")" "child-status: 143"
		check "$label $t: kill %1 kills the job" \
			grep -qx kill-job-ok <<<"$out"
		if grep -q '^psutil: not installed' <<<"$out"; then
			echo "SKIP part: python3-psutil not installed (tests/deps.sh installs it)"
		else
			check "$label $t: psutil sees its own pid, the shell's name, pid 1" \
				grep -qx 'psutil: True python3 1' <<<"$out"
		fi
	done
}

# Sequential runs: a sandbox's mount namespace is used again by a later one
# (linux/mntns.c); each still sees only its own processes, and the ended
# session's /proc is replaced, not stacked under the new one.
reuse() {
	local i out counts= bad=
	for i in 1 2 3 4 5 6; do
		out=$(sbx run -- sh -c 'sh -c "echo \$\$; exec ls /proc" >ls.r
			l=$(head -n1 ls.r); x=
			for p in $(tail -n +2 ls.r | grep "^[0-9]*$"); do
				case " 1 $$ $l " in *" $p "*) ;; *) x="$x $p" ;; esac
			done
			echo "x:$x"
			awk "\$5 == \"/proc\"" /proc/self/mountinfo | wc -l')
		[ "$(sed -n 1p <<<"$out")" = "x:" ] || bad="$bad $i:$(sed -n 1p <<<"$out")"
		counts="$counts $(sed -n 2p <<<"$out")"
	done
	expect_eq "sequential runs: only their own pids" "$bad" ""
	expect_eq "sequential runs: as many mounts on /proc each time" \
		"$(tr ' ' '\n' <<<"$counts" | sort -u | grep -c .)" 1
}

start_daemon
scenario user sbx
reuse
stop_daemon

if [ "$(id -u)" -eq 0 ] && [ -z "${SBX_TEST_AS_USER:-}" ]; then
	user=${SBX_TEST_USER:-sbxtest}
	if id "$user" >/dev/null 2>&1; then
		chown -R "$user": "$WS"
		chmod 755 "$T"
		start_daemon --user "$user"
		chmod 755 "$XDG_RUNTIME_DIR"
		scenario privileged setpriv --reuid="$user" --regid="$user" \
			--init-groups "$BIN/sbxctl" --no-autostart --socket "$SOCK"
		stop_daemon
	else
		echo "SKIP part: no user $user for privileged mode"
	fi
fi
done_test
