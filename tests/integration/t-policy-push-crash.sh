#!/bin/bash
# Killing sbxd (SIGKILL) at any moment of a push leaves a store that holds
# the old policy or the new one, never a broken one: after a restart the
# org serial in force is N-1 or N, nothing is refused, no temp file stays.
. "$(dirname "$0")/lib.sh"
. "$HERE/policy-lib.sh"
N=${SBX_CRASH_PUSHES:-40}
keygen admin
trust admin
for s in $(seq 1 "$N"); do
	org_policy "$s" "$T/org$s.json"
	sign "$T/org$s.json" admin
done
have=0
bad=0
landed=0
for s in $(seq 1 "$N"); do
	peer_daemon
	# The kill races the push: a random spin (fault injection, not
	# synchronisation) puts it before, during or after the store.
	peer policy push "$T/org$s.json" --sig "$T/org$s.json.sig" \
		>/dev/null 2>&1 &
	push=$!
	if [ $((s % 4)) -eq 0 ]; then
		wait "$push"
	else
		spin=$((RANDOM % 9000))
		for ((k = 0; k < spin; k++)); do :; done
	fi
	kill -KILL "$DPID"
	wait "$DPID" 2>/dev/null
	wait "$push" 2>/dev/null
	DPID=
	peer_daemon
	rule=$(explain_rule denied.example)
	got=$(sed -n 's/.*(id org-deny-\([0-9]*\)).*/\1/p' <<<"$rule")
	got=${got:-0}
	if [ "$got" -ne "$have" ] && [ "$got" -ne "$s" ]; then
		bad=$((bad + 1)); echo "push $s: serial $got in force, had $have"
	fi
	if sbx status | grep -q "^policy:"; then
		bad=$((bad + 1)); sbx status | grep "^policy:"
	fi
	for f in "$STATE"/org/.tmp-* "$STATE"/org/*.sig; do
		[ -e "$f" ] || continue
		[ "${f%.sig}" != "$f" ] && [ -e "${f%.sig}" ] && continue
		bad=$((bad + 1)); echo "push $s: $f left after restart"
	done
	[ "$got" -eq "$s" ] && landed=$((landed + 1))
	have=$got
	stop_daemon >/dev/null
done
expect_eq "every crash left old or new, never broken" "$bad" 0
echo "($landed of $N pushes landed before the kill)"
check "some pushes landed" test "$landed" -gt 0
done_test
