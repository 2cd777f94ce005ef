#!/bin/sh
# Shell completion for sbxctl. bash: the file sources cleanly, registers
# itself (`complete -p sbxctl`), and completes commands, run options, the
# command after `--`, signals and policy subcommands. zsh (when installed):
# the function parses, compinit picks it up from $fpath, and the same lines
# complete the same way in a real interactive zsh driven through zpty.
# Global options complete after the command too.
. tests/integration/pkg-lib.sh

need bash
bashfile=packaging/completions/sbxctl.bash
zshfile=packaging/completions/_sbxctl

# Each case: the words on the line (the last one is being completed), then
# after `=>` what must be among the completions.
cases='sbxctl  => run ps kill status events describe policy doctor reset shutdown version help
sbxctl sh => shutdown
sbxctl --connect-timeout 2 v => version
sbxctl help p => policy ps
sbxctl help policy ch => check
sbxctl status --j => --json
sbxctl ps --no => --no-autostart
sbxctl shutdown --j => --json
sbxctl policy check --j => --json
sbxctl run --conn => --connect-timeout
sbxctl r => run
sbxctl --socket /tmp/s st => status
sbxctl run --w => --workspace
sbxctl run -t -- ech => echo
sbxctl kill 7 TE => TERM
sbxctl policy ex => explain
sbxctl policy push --s => --sig
sbxctl doctor --j => --json
sbxctl reset --w => --workspace
sbxctl sandbox e => exec
sbxctl sandbox create --i => --idle
sbxctl sandbox exec 7 --str => --stream'

out=$(bash --norc --noprofile -c '
	. "$1" || exit 1
	complete -p sbxctl
	printf "%s\n" "$2" | while IFS= read -r c; do
		line=${c%% => *} want=${c#* => }
		set -f; COMP_WORDS=($line); set +f
		case $line in *" ") COMP_WORDS+=(""); esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
		COMPREPLY=()
		_sbxctl sbxctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		for w in $want; do
			case " ${COMPREPLY[*]} " in
			*" $w "*) ;;
			*) echo "MISS [$line] wanted $w, got: ${COMPREPLY[*]}" ;;
			esac
		done
	done' bash "$bashfile" "$cases" 2>&1) || fail "bash: sourcing $bashfile failed:
$out"
case $out in
"complete -o bashdefault -F _sbxctl sbxctl"*) ;;
*) fail "bash: complete -p sbxctl does not show the completion function:
$out" ;;
esac
miss=$(printf '%s\n' "$out" | grep -v '^complete ')
[ -z "$miss" ] || fail "bash:
$miss"
note "bash: registered, $(printf '%s\n' "$cases" | wc -l) lines complete as expected"

if ! command -v zsh >/dev/null 2>&1; then
	note "PASS (bash); zsh part skipped: zsh not installed"
	exit 0
fi
zsh -n "$zshfile" || fail "zsh: $zshfile does not parse"
cp "$zshfile" "$pkg_tmp/"

# A fresh interactive zsh per line, in a pty: compinit from a private dump,
# compadd wrapped to record what matched, and a post-completion hook that
# prints a marker the driver reads up to, so nothing waits on a clock.
cat >"$pkg_tmp/drive.zsh" <<'EOF'
zmodload zsh/zpty || exit 2
dir=$1 out=$2
shift 2
for line in "$@"; do
	zpty z zsh -f -i || exit 2
	zpty -w z "PS1= PS2= RPS1=; fpath=($dir \$fpath)"
	zpty -w z "autoload -Uz compinit && compinit -u -d $out.dump"
	zpty -w z "print -r -- \$_comps[sbxctl] >| $out.reg"
	zpty -w z "compadd() { local -a m; builtin compadd -O m \"\$@\"; print -rl -- \$m >>| $out.cur; builtin compadd \"\$@\"; }"
	zpty -w z "__sbx_done() { print -r -- '<<'DONE'>>' }; comppostfuncs=(__sbx_done); bindkey '^I' complete-word"
	: >| $out.cur
	zpty -n -w z "$line"$'\t'
	zpty -r z _ '*<<DONE>>*' || exit 3
	print -r -- "$line => ${(j: :)${(fou)"$(<$out.cur)"}}" >>| $out
	zpty -d z
done
EOF
set --
while IFS= read -r c; do set -- "$@" "${c%% => *}"; done <<EOF
$cases
EOF
timeout 60 zsh -f "$pkg_tmp/drive.zsh" "$pkg_tmp" "$pkg_tmp/zsh.out" "$@" ||
	fail "zsh: completion driver failed ($?)"
[ "$(cat "$pkg_tmp/zsh.out.reg")" = _sbxctl ] ||
	fail "zsh: compinit did not register _sbxctl for sbxctl"
printf '%s\n' "$cases" | while IFS= read -r c; do
	line=${c%% => *} want=${c#* => }
	got=$(awk -v l="$line => " 'index($0, l) == 1 {
		print substr($0, length(l) + 1); exit }' "$pkg_tmp/zsh.out")
	for w in $want; do
		case " $got " in
		*" $w "*) ;;
		*) echo "MISS [$line] wanted $w, got: $got" ;;
		esac
	done
done >"$pkg_tmp/zsh.miss"
[ ! -s "$pkg_tmp/zsh.miss" ] || fail "zsh:
$(cat "$pkg_tmp/zsh.miss")"
note "zsh: registered by compinit, same lines complete as expected"
note "PASS"
