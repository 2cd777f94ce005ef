#!/bin/bash
# ps and pkill on the run's own processes.
. "$(dirname "$0")/compat-lib.sh"
body() {
	cat <<'EOF'
cp /bin/sleep ./compat-sleeper
./compat-sleeper 60 &
p=$!
ps -o comm= -p $p
pkill -x -P $$ compat-sleeper; echo "pkill: $?"
wait $p; echo "sleeper: $?"
rm compat-sleeper
EOF
}
compat_main
