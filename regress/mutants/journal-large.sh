#!/bin/sh
# Mutation check of a gatekeeper log over one stream window (issue 26):
# the live suite regress/integration/journal-large.sh must go red when
# spaced-docker's log pump leaves what it queued unsent.  Built in a
# copy of the tree under a temp dir; the tree itself is never modified.
# About three minutes a mutant (the suite's hang guard is 120 s).
# Usage: sh regress/mutants/journal-large.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/journal-large.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'journal ends|every line is a record'
mutant "the log pump does not arm the channel's write after a chunk" \
    worker-docker/docker_logs.c \
    "imsg_event_add(docker_channel());\n\treturn 1; => return 1;"

mutants_end
