# Shared by the violation tests (sourced after lib.sh): the probe, what
# sbxctl says as JSON (vjson.py), a subscriber that is known to listen.
P=$BIN/sbx-probe

# v FILE PATH...: fields of the JSON in FILE (see vjson.py).
v() { "$PY" "$HERE/vjson.py" "$@"; }

# Most sources here are seccomp notifications.
need_notify() {
	sbx --json status | grep -q '"seccomp_notify": true' ||
		skip "no seccomp user notification on this kernel"
}

# subscribe NAME ARGS...: `sbxctl events ARGS` writing into $T/NAME,
# returning once it is subscribed (it says so on stderr, read through a
# fifo this shell keeps open); its pid in $SUB.
subscribe() {
	local name=$1 line fd; shift
	mkfifo "$T/$name.ready"
	exec {fd}<>"$T/$name.ready"
	sbx events "$@" >"$T/$name" 2>&$fd &
	SUB=$!
	read -r line <&$fd
	expect_eq "$name subscribed" "$line" \
		"sbxctl: streaming violation events (Ctrl-C to stop)"
}
