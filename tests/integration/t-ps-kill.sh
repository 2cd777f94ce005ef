#!/bin/bash
# ps lists running sessions (text and JSON); kill signals one by id.
. "$(dirname "$0")/lib.sh"
start_daemon
cd "$WS"
mkfifo "$T/o"
sbx run -- sh -c 'echo ready; exec sleep 1000' >"$T/o" &
client=$!
exec 8<"$T/o"
read -r line <&8
json=$(sbx --json ps)
id=$("$PY" -c 'import json,sys; s=json.loads(sys.argv[1]); assert len(s)==1; print(s[0]["id"])' "$json")
check "ps --json shows argv" "$PY" -c 'import json,sys; s=json.loads(sys.argv[1])[0]; assert s["argv"][:2]==["sh","-c"], s; assert s["workspace"]==sys.argv[2]' "$json" "$WS"
check "ps text lists the session" bash -c "sbx ps | grep -q '^$id '"
sbx kill "$id" INT
wait "$client"; expect_eq "kill ID INT -> client exits 130" $? 130
err=$(sbx kill 99999 2>&1); rc=$?
expect_eq "kill of an unknown id fails with 125" "$rc" 125
check "unknown id is named" grep -q "no session 99999" <<<"$err"
expect_eq "bad signal name" "$(sbx kill 1 NOPE 2>&1; echo $?)" "sbxctl: bad signal: NOPE
125"
check "status --json has the capabilities" "$PY" -c 'import json,sys; s=json.loads(sys.argv[1]); assert s["backend"]=="linux" and s["pid"]>0 and "mnt" in s["namespaces"], s' "$(sbx --json status)"
stop_daemon
done_test
