#!/bin/bash
# Under systemd, violations reach the journal with structured fields
# (SBX_SESSION, SBX_KIND, SBX_TARGET, SBX_RULE, SBX_RULE_ID, SBX_LAYER):
# sbxd runs as a transient service whose stderr is the journal. Skipped
# where there is no service manager or journal to run it under.
. "$(dirname "$0")/lib.sh"
command -v systemd-run >/dev/null && command -v journalctl >/dev/null ||
	skip "systemd-run or journalctl not installed"
[ -S /run/systemd/journal/socket ] || skip "no journal running on this machine"
if [ "$(id -u)" -eq 0 ]; then
	scope=() unitflag=-u
else
	scope=(--user) unitflag=--user-unit
fi
systemctl "${scope[@]}" is-system-running >/dev/null 2>&1 ||
	[ $? -eq 1 ] || skip "no systemd ${scope[*]} manager to run sbxd under"
unit=sbx-test-journal-$$
# Type=notify: systemd-run returns once sbxd says READY.
systemd-run "${scope[@]}" --quiet --collect --unit="$unit" -p Type=notify \
	--setenv=XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" \
	"$BIN/sbxd" --socket "$SOCK" ||
	skip "systemd-run cannot start a service here"
stop_unit() { systemctl "${scope[@]}" stop "$unit" 2>/dev/null; cleanup; }
trap stop_unit EXIT
cd "$WS"
sbx run -q -- "$BIN/sbx-probe" bpf >/dev/null
# Read until the entry is there (journalctl -f blocks; no polling).
entry=$(timeout 20 journalctl "$unitflag" "$unit" -o json -f -n all |
	grep -m1 '"SBX_KIND"')
field() { "$PY" -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1" <<<"$entry"; }
expect_eq "SBX_KIND" "$(field SBX_KIND)" syscall
expect_eq "SBX_TARGET" "$(field SBX_TARGET)" bpf
expect_eq "SBX_RULE" "$(field SBX_RULE)" "builtin seccomp deny set"
expect_eq "SBX_RULE_ID" "$(field SBX_RULE_ID)" seccomp.bpf
expect_eq "SBX_LAYER" "$(field SBX_LAYER)" builtin
check "SBX_SESSION" [ "$(field SBX_SESSION)" -gt 0 ]
check "MESSAGE" grep -q "blocked syscall bpf" <<<"$(field MESSAGE)"
done_test
