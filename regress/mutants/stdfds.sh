#!/bin/sh
# Mutation check of what a newcomer's trial found in spacectl: the
# standard descriptors a caller closed, opened on /dev/null before the
# control socket is made (contract/docker.sh: exec -i read its own
# socket and hung; the space's output went into spaced's control
# connection), and exec's own failures at 125, not a command's 1
# (integration/spaced-spaces.sh), and output that cannot be written (a
# full disk) failing, saying so (the same suite).  Built as
# mutants/spacectl-user.sh builds (this tree's objects, only the mutated file rebuilt).
# Usage: sh regress/mutants/stdfds.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]> <suite>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 1200 \
	    sh "$tmp/src/regress/$4.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile "" contract/docker
mutant "$MUTANT_CONTROL" GNUmakefile "" integration/spaced-spaces

mutant_expect "^exec -i, our stdin closed|^exec, our stdout closed"
mutant "a closed stdin or stdout left for the control socket to take" \
    supervisor/spacectl/spacectl.c \
    "	stdfds_open();
	if (atexit(out_close) => 	(void)stdfds_open;
	if (atexit(out_close)" contract/docker

mutant_expect "^exec: a bad ID is spacectl's failure|^exec: a bad -T|^exec: no spaced at the socket"
mutant "exec's own failures exit 1, as a command's" \
    supervisor/spacectl/spacectl_output.c \
    "SPACECTL_EXEC_FAILED : 1; => 1 : 1;" integration/spaced-spaces

mutant_expect "^help to a full disk"
mutant "output that cannot be written exits as if written" \
    supervisor/spacectl/spacectl_output.c \
    "if (fflush(stdout) == 0 && !ferror(stdout)) => if (1)" integration/spaced-spaces

mutants_end
