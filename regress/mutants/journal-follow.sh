#!/bin/sh
# Mutation check of collection that loses nothing (issue 26): the live
# suite regress/integration/journal-follow.sh must go red, by the named
# test, when the follow, the collection before a stop or a remove, the
# follow again from the store after a start, or the read of a gone
# space's records is taken out.  Built in a copy of the tree under a
# temp dir; the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/journal-follow.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/journal-follow.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'reaches the store with no journal asked'
mutant "the follow never collects" supervisor/spaced/collect.c \
    "if ((r = collect_start(row, f->f_uid, f->f_id,\n\t\t    f->f_since[row])) == NULL) => if (1)"
mutant_expect 'just before a stop is in the store'
mutant "a stop does not collect first" supervisor/spaced/space.c \
    "collect_then(r, cs.cs_id, stop_resume); => stop_resume(r);"
mutant_expect 'just before a remove is in the store'
mutant "a remove does not collect first" supervisor/spaced/remove.c \
    "collect_then(r, cs.cs_id, remove_go); => remove_go(r);"
mutant_expect 'a restart made just before a remove is in the store'
mutant "a remove collects the gatekeeper's log alone" \
    supervisor/spaced/collect.c \
    "if ((c = collect_start(ROW_RESTARTS, => if (0 && (c = collect_start(ROW_RESTARTS,"
mutant_expect 'collected after its start'
mutant "the spaces the store knows are not followed again" \
    supervisor/spaced/collect.c \
    "\tcollect_follow(js.jst_uid, js.jst_id); => \t(void)js;"
mutant_expect 'with its gatekeeper gone, journal still gives'
mutant "a gone gatekeeper's records are not read" supervisor/spaced/journal.c \
    "js->jr_gone = 1; => js->jr_gone = 0;"
mutant_expect 'network of it .an exec into the gatekeeper|with its gatekeeper gone'
mutant "after a gatekeeper's 404, its own inspect is asked again" \
    worker-docker/docker_engine.c \
    "id, ROLE_SPACE) == -1) => id, ROLE_GATEKEEPER) == -1)"

mutants_end
