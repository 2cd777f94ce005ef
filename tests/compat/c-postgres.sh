#!/bin/bash
# postgres: initdb, pg_ctl start on a Unix socket in the workspace (no TCP),
# psql, pg_ctl stop.
. "$(dirname "$0")/compat-lib.sh"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || compat_skip "no postgresql (tests/deps.sh installs it)"
[ "$(id -u)" -ne 0 ] || compat_skip "initdb and pg_ctl refuse to run as root"
# The cluster's files hold timestamps and ids.
IGNORE='^(pgdata|sock)(/|$)|^pg\.log$'
body() {
	cat <<EOF
set -e
export PATH=$PGBIN:\$PATH
initdb -N -A trust -U postgres -D pgdata >/dev/null
mkdir sock
pg_ctl -D pgdata -l pg.log -w -o "-k \$PWD/sock -c listen_addresses=" start >/dev/null
psql -h \$PWD/sock -U postgres -d postgres -Atc 'create table t (n int); insert into t values (1), (2); select sum(n) from t'
pg_ctl -D pgdata -w -m fast stop >/dev/null
echo stopped
EOF
}
compat_main
