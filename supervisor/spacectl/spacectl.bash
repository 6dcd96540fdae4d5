# bash completion for spacectl(8).  The commands come from the binary
# (spacectl help: one a row), so a new command needs no change here; an
# ID comes from spacectl list, a DIR from the file system.
_spacectl()
{
	local cur prev words cword cmd i opts=() sock=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	# The first word that is not an option (or -s's argument): the command.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-s) sock=(-s "${COMP_WORDS[i+1]}"); i=$((i + 1)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ "$prev" = -s ]; then
		COMPREPLY=($(compgen -f -- "$cur"))
		return
	fi
	if [ -z "$cmd" ]; then
		case $cur in
		-*) COMPREPLY=($(compgen -W '-h -j -s' -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(spacectl help 2>/dev/null |
		    awk '/^  [a-z]/ { print $1 }')" -- "$cur")) ;;
		esac
		return
	fi
	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(spacectl help 2>/dev/null |
		    awk '/^  [a-z]/ { print $1 }')" -- "$cur")) ;;
	files|limits)
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	tools)
		COMPREPLY=($(compgen -W 'fill -a' -- "$cur")) ;;
	probe|ping)
		COMPREPLY=($(compgen -W 'docker git journal' -- "$cur")) ;;
	events)
		COMPREPLY=($(compgen -W '-f -j' -- "$cur")) ;;
	create|list|status|privileges|check|verbose|stream-test)
		;;
	review|apply)
		# The options of code out; a reason --allow may name.
		if [ "$prev" = --allow ]; then
			COMPREPLY=($(compgen -W 'gitmodules attributes_driver
			    new_executable large_file' -- "$cur"))
		elif [ "$prev" = -b ]; then
			COMPREPLY=()
		elif [[ $cur == -* ]]; then
			if [ "$cmd" = review ]; then
				COMPREPLY=($(compgen -W '-p' -- "$cur"))
			else
				COMPREPLY=($(compgen -W '-b -w --allow' -- "$cur"))
			fi
		elif [ $((COMP_CWORD - i)) -eq 1 ]; then
			COMPREPLY=($(compgen -W "$(spacectl "${sock[@]}" list \
			    2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur"))
		else
			COMPREPLY=($(compgen -d -- "$cur"))
		fi ;;
	*)
		# The space's ID first, then a folder where one may follow.
		if [ $((COMP_CWORD - i)) -eq 1 ]; then
			COMPREPLY=($(compgen -W "$(spacectl "${sock[@]}" list \
			    2>/dev/null | awk 'NR > 1 { print $1 }')" -- "$cur"))
		else
			COMPREPLY=($(compgen -d -- "$cur"))
		fi ;;
	esac
}
complete -F _spacectl spacectl
