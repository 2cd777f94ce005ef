#!/bin/sh
# Checks that dependencies between the daemon's folders point one way
# (docs/development.md, "Source layout"): a subsystem (daemon/policy/,
# proxy/, linux/, seatbelt/, macos/) includes no core header but the leaf
# interfaces below, and no RPC header; the core calls the subsystems
# through their headers and they report back through callbacks the core
# registers at start-up. Pure and fast: reads #include lines only.
# Exit 0 when clean, 1 with one line per offending include otherwise.
cd "$(dirname "$0")/.." || exit 2

# Core headers a subsystem may include: the read-only context and clock
# (daemon.h), the log, the served user's rights, OpenSSL glue, root-only
# files, the backend and service-manager interfaces the platform folders
# implement, the pure violation record and the fd budget. Each includes
# no other core header (checked below), so none leads back into the core.
ALLOWED="daemon.h log.h usercred.h crypto.h admin-file.h sandbox.h svc.h
violation.h fdlimit.h"

SUBSYSTEMS="daemon/policy daemon/proxy daemon/linux daemon/seatbelt
daemon/macos"

allowed() {
	for a in $ALLOWED; do
		[ "$1" = "$a" ] && return 0
	done
	return 1
}

fail=0
# includes FILE: the daemon/... paths FILE includes, one a line.
includes() {
	sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*"daemon/\([^"]*\)".*|\1|p' \
		"$1"
}

for dir in $SUBSYSTEMS; do
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		for inc in $(includes "$f"); do
			case $inc in
			rpc/*)
				echo "layout: $f includes daemon/$inc" \
					"(RPC handlers are the core's)"
				fail=1 ;;
			*/*) ;;	# another subsystem's header: allowed
			*)
				if ! allowed "$inc"; then
					echo "layout: $f includes core header" \
						"daemon/$inc; register a callback" \
						"instead (see ALLOWED)"
					fail=1
				fi ;;
			esac
		done
	done
done

# The allowed headers stay leaves: they include no core header at all.
for a in $ALLOWED; do
	for inc in $(includes "daemon/$a"); do
		echo "layout: daemon/$a, allowed to subsystems," \
			"includes daemon/$inc"
		fail=1
	done
done

# The platform folders never include each other.
for pair in linux:macos macos:linux; do
	from=${pair%:*} to=${pair#*:}
	if grep -l "#include \"daemon/$to/" daemon/"$from"/*.[ch] 2>/dev/null; then
		echo "layout: daemon/$from/ includes daemon/$to/ (files above)"
		fail=1
	fi
done

[ "$fail" -eq 0 ] && echo "layout: ok"
exit "$fail"
