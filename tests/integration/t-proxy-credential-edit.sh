#!/bin/bash
# The policy edited while a run waits for its credential's command: the
# run is taken up under the policy as it is then. A credential whose
# command changed runs the new command (the old one's value is not
# used); one whose hosts changed sends the value only where the new
# policy says.
. "$(dirname "$0")/lib.sh"
. "$HERE/cred-lib.sh"
make_token OLD gho_ 36
make_token NEW gho_ 36
mkfifo -m 666 "$T/fifo"
cred_script old.sh "echo \$\$ >>\"$T/out/old\"" "exec cat \"$T/fifo\""
cred_script new.sh "echo \$\$ >>\"$T/out/new\"" "echo $NEW"
start_api other
# policy SCRIPT HOST: credential ed, what $T/SCRIPT prints, for HOST.
policy() {
	printf '{"network": {"allowedDomains": [%s],
	  "credentials": [{"id": "ed", "command": ["%s"], "hosts": ["%s"],
	                   "format": "Bearer {}"}]}}' "$ALLOW" "$T/$1" "$2"
}
# edit SCRIPT HOST: the user layer replaced (a new file, as editors do).
edit() { policy "$@" >"$T/policy.new" && mv "$T/policy.new" "$T/policy.json"; }
start_cred_daemon "$(policy old.sh "l7.test:$API")"
get() { sbx run -- curl -ksS -o /dev/null "https://l7.test:$API/headers"; }

# The command changed while the run waits for the old one.
get 2>"$T/a.err" &
A=$!
wait_for "the old command started" test -s "$T/out/old"
edit new.sh "l7.test:$API"
timeout 10 sh -c "echo $OLD >'$T/fifo'"
wait "$A"
expect_eq "the run ended well" "$?" 0
expect_eq "... the new command ran for it" "$(wc -l <"$T/out/new" 2>/dev/null)" 1
expect_eq "... and its value was sent" "$(grep -cx "auth Bearer $NEW" "$T/api.log")" 1
expect_eq "... never the old command's" "$(grep -c "$OLD" "$T/api.log")" 0

# The hosts changed while the run waits: the same command's value goes
# only where the policy says now (not to l7.test).
: >"$T/out/old"
edit old.sh "l7.test:$API"
get 2>"$T/b.err" &
B=$!
wait_for "the command started again" test -s "$T/out/old"
edit old.sh "other.test:$OTHER"
timeout 10 sh -c "echo $OLD >'$T/fifo'"
wait "$B"
expect_eq "the run ended well" "$?" 0
expect_eq "... l7.test never got the value" "$(grep -c "$OLD" "$T/api.log")" 0
stop_daemon
check "neither value is in sbxd's log" bash -c "! grep -aqe '$OLD' -e '$NEW' '$T/sbxd.log'"
done_test
