#!/bin/bash
# A client cannot have the daemon fork credential commands, or hold runs
# waiting for them, without bound: past 32 commands running at once, or
# 64 runs waiting for theirs, a run is refused with a clear error (not
# started without its credential), every other is served, and nothing
# is left behind (no command running, the daemon's fds back).
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
cred_script forever.sh "exec sleep 600"
start_api
start_cred_daemon "$(command_policy fv forever.sh)"
code=7 # ERROR_CODE_SANDBOX: the run could not be made
# burst N [shared]: N clients' runs sent at once; what they got.
burst() { "$PY" "$HERE/credhold.py" "$SOCK" "$WS" burst "$@" >"$T/burst"; }
# What the daemon keeps once it has run sandboxes, 20 at once (its
# template, a pool of up to 16 cgroups, ...).
burst 20 shared
fds0=$(fd_count "$DPID")
refused() { grep -c "error id=1 code=$code credential commands: $1" "$T/burst"; }
ended() { grep -c "exit id=1 exited=1 code=0" "$T/burst"; }

# 33 runs, each with a PATH of its own: 33 commands asked for at once.
burst 33
expect_eq "one run of 33 refused: 32 commands run already" \
	"$(refused "too many running (at most 32 at once); retry once some are done")" 1
expect_eq "... the other 32 ran (their commands killed at 3 s)" "$(ended)" 32
check "... the refusal logged" grep -q "run refused: credential commands: too many running" "$T/sbxd.log"

# 65 runs sharing one command: 65 runs held at once.
burst 65 shared
expect_eq "one run of 65 refused: 64 wait already" \
	"$(refused "too many runs waiting for theirs (at most 64 at once); retry once some are done")" 1
expect_eq "... the other 64 ran" "$(ended)" 64

timeout 10 sbx status >/dev/null
expect_eq "the daemon still answers" "$?" 0
wait_for "no command left running" bash -c "! pgrep -P $DPID -x sleep >/dev/null"
wait_for "the daemon's fds back to where they were ($fds0)" \
	bash -c "[ \$(ls /proc/$DPID/fd | wc -l) -le $fds0 ]" ||
	ls -l "/proc/$DPID/fd" >&2
stop_daemon
done_test
