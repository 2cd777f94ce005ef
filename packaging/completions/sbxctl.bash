# shellcheck shell=bash disable=SC2207 # words from compgen -W hold no spaces
# bash completion for sbxctl(1). Installed as
# share/bash-completion/completions/sbxctl; works with or without the
# bash-completion package. Session IDs are not completed: asking the daemon
# would start one when none is running.

_sbxctl_commands='run attach sandbox ps kill status events describe policy doctor reset shutdown version help'
_sbxctl_policy_commands='push show explain check lint keygen sign'
# Accepted before the command and among its arguments alike.
_sbxctl_globals='--json --socket --no-autostart --connect-timeout --help'

# Signal names as `sbxctl kill ID SIG` takes them (no SIG prefix).
_sbxctl_signals()
{
	local s
	for s in $(compgen -A signal); do
		case $s in SIGRT*) ;; SIG*) printf '%s\n' "${s#SIG}" ;; esac
	done
}

# File and directory names, escaped as such ($cur is the caller's).
_sbxctl_files()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

_sbxctl_dirs()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -d -- "$cur")
}

# The words after `run`, from index $1: its options, then the command and
# that command's own completion.
_sbxctl_run()
{
	local i=$1 cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}

	for ((; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--) break ;;
		-e | -C | --workspace | --timeout | --kill-after | --keep | --sandbox | \
			--allow-domain | --deny-read | --allow-write | --policy | \
			--publish | --socket | --connect-timeout) ((i++)) ;;
		-*) ;;
		*) break ;;
		esac
	done
	if ((i < COMP_CWORD)); then
		[[ ${COMP_WORDS[i]} == -- ]] && ((i++))
		if ((i == COMP_CWORD)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
		elif declare -F _command_offset >/dev/null; then
			_command_offset "$i"
		else
			_sbxctl_files
		fi
		return
	fi
	case $prev in
	-C | --workspace)
		_sbxctl_dirs
		return ;;
	--deny-read | --allow-write | --policy | --socket)
		_sbxctl_files
		return ;;
	-e | --timeout | --kill-after | --keep | --allow-domain | --publish | \
		--connect-timeout)
		return ;;
	esac
	COMPREPLY=($(compgen -W "-t --tty --stream --keep -e -C --workspace --timeout --kill-after
		--allow-domain --deny-read --allow-write --policy --publish --on-ask -q
		--quiet --sandbox $_sbxctl_globals --" -- "$cur"))
}

_sbxctl_policy()
{
	local i=$1 sub='' cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}

	((i < COMP_CWORD)) && sub=${COMP_WORDS[i]}
	if [[ -z $sub ]]; then
		COMPREPLY=($(compgen -W "$_sbxctl_policy_commands" -- "$cur"))
		return
	fi
	case $prev in
	--sig | --key | --out) _sbxctl_files; return ;;
	--workspace) _sbxctl_dirs; return ;;
	--layer) COMPREPLY=($(compgen -W 'org user workspace request' -- "$cur"))
		return ;;
	esac
	local g=$_sbxctl_globals
	case $sub in
	push) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--sig $g" -- "$cur")) ||
		_sbxctl_files ;;
	show) COMPREPLY=($(compgen -W "--workspace $g" -- "$cur")) ;;
	explain) [[ $cur == -* ]] &&
		COMPREPLY=($(compgen -W "--write --workspace $g" -- "$cur")) ||
		_sbxctl_files ;;
	check | lint) [[ $cur == -* ]] &&
		COMPREPLY=($(compgen -W "--layer --workspace --local $g" -- "$cur")) ||
		_sbxctl_files ;;
	keygen) COMPREPLY=($(compgen -W "--out $g" -- "$cur")) ;;
	sign) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--key --out $g" -- "$cur")) ||
		_sbxctl_files ;;
	esac
}

_sbxctl()
{
	local i cmd='' cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}

	# The command is the first word that is neither a global option nor
	# its argument.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--socket | --connect-timeout) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	COMPREPLY=()
	if [[ -z $cmd ]]; then
		if [[ $prev == --socket ]]; then
			_sbxctl_files
		elif [[ $prev == --connect-timeout ]]; then
			return
		elif [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_sbxctl_globals --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_sbxctl_commands" -- "$cur"))
		fi
		return
	fi
	# A global option's value, after the command (not in run's command).
	if [[ $cmd != run ]]; then
		case $prev in
		--socket) _sbxctl_files; return ;;
		--connect-timeout) return ;;
		esac
	fi
	local g=$_sbxctl_globals
	case $cmd in
	run) _sbxctl_run $((i + 1)) ;;
	sandbox)
		# sandbox create|exec ID [run's options]|ls|rm ID
		if ((COMP_CWORD == i + 1)); then
			COMPREPLY=($(compgen -W "create exec ls rm" -- "$cur"))
		elif [[ ${COMP_WORDS[i + 1]} == exec ]] && ((COMP_CWORD > i + 2)); then
			_sbxctl_run $((i + 3))
		elif [[ ${COMP_WORDS[i + 1]} == create ]]; then
			case $prev in
			--workspace | -C) _sbxctl_dirs ;;
			--idle | --lifetime) ;;
			*) COMPREPLY=($(compgen -W "--workspace -C --idle --lifetime $g" -- "$cur")) ;;
			esac
		fi ;;
	policy) _sbxctl_policy $((i + 1)) ;;
	kill)
		# kill ID [SIG]: only the signal can be completed.
		((COMP_CWORD == i + 2)) &&
			COMPREPLY=($(compgen -W "$(_sbxctl_signals)" -- "$cur")) ;;
	events)
		[[ $prev == --session || $prev == --count ]] ||
			COMPREPLY=($(compgen -W "--session --count $g" -- "$cur")) ;;
	doctor)
		if [[ $prev == --scratch ]]; then
			_sbxctl_dirs
		else
			COMPREPLY=($(compgen -W "--scratch $g" -- "$cur"))
		fi ;;
	describe)
		if [[ $prev == --workspace ]]; then
			_sbxctl_dirs
		else
			COMPREPLY=($(compgen -W "--workspace $g" -- "$cur"))
		fi ;;
	reset)
		if [[ $prev == --workspace || $cur != -* ]]; then
			_sbxctl_dirs
		else
			COMPREPLY=($(compgen -W "--workspace $g" -- "$cur"))
		fi ;;
	ps | status | shutdown | version)
		COMPREPLY=($(compgen -W "$g" -- "$cur")) ;;
	help)
		# help COMMAND [SUBCOMMAND]
		if ((COMP_CWORD == i + 1)); then
			COMPREPLY=($(compgen -W "$_sbxctl_commands" -- "$cur"))
		elif ((COMP_CWORD == i + 2)) && [[ ${COMP_WORDS[i + 1]} == policy ]]; then
			COMPREPLY=($(compgen -W "$_sbxctl_policy_commands" -- "$cur"))
		fi ;;
	esac
}

complete -o bashdefault -F _sbxctl sbxctl
