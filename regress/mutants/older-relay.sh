#!/bin/sh
# Mutation check of a bare exec's held first frame (the engine's words
# when it cannot start a command have its shape): each mutant removes
# one part of it and regress/contract/older-relay.sh (a space of an
# older relay, whose commands run bare) must go red.  Built in a copy
# of the tree under a temp dir; the tree itself is never modified.
# About a minute a mutant.
# Usage: sh regress/mutants/older-relay.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/contract/older-relay.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

# The engine is not asked: a command's own first line of that shape
# waits for its next output or its end (the code of before).
mutant_expect 'exec of a bare command: its first line, ending CR LF, is on stdout while the command runs'
mutant "a held first frame waits for the next output or the end" \
    worker-docker/docker_exec_stream.c \
    "if (docker_req_child(ex->rq) != NULL || => if (1 ||"
# The answer not read: the engine's own words go out on stdout as soon
# as the question comes back (before the exit's inspect).
mutant_expect 'exec of a bare command that cannot start: the engine'\''s words on stderr'
mutant "a held first frame passed on stdout whatever the engine answers" \
    worker-docker/docker_exec.c \
    "if (started == 1)\n\t\t\t\tex_first_started(ex); => ex_first_started(ex);"
mutants_end
