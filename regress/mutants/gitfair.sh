#!/bin/sh
# Mutation check of the fair share of the plain callers' spaced-git
# instances (review 2026-12-06 F8): the policy (gitinst_fair.c), judged
# by its unit tests, and its use in gitinst.c, judged by
# integration/spaced-gitfair.sh (as root: it makes two users).  Each
# mutant is built in a copy of the tree whose build/ is this tree's (a
# minute), never in the tree itself.
# Usage: sh regress/mutants/gitfair.sh [label-substring]
. "$(dirname "$0")/lib.sh"

F=supervisor/spaced/gitinst_fair.c
G=supervisor/spaced/gitinst.c

# unit <label> <file> <"old" => "new"[ @@ ...]>: the unit tests of fair/
unit() { mutant_unit "$@" spaced 'fair/*'; }

# live <label> <file> <"old" => "new"[ @@ ...]>: spaced-gitfair.sh
live() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/integration/spaced-gitfair.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

unit "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'fair::the_next_is_the_caller_who_holds_the_fewest'
unit "first come, first served: the fair choice gone" $F \
    "if (live[i] < live[best]) => if (0)"
mutant_expect 'fair::room_is_made_from_the_greediest'
unit "room made from the oldest idle instance, not the greediest's" $F \
    "if (live[i] > live[worst]) => if (0)"
mutant_expect 'fair::a_caller_under_its_share_waits_one_at_it_does_not'
unit "a caller at its share waits too: a queue for the greedy" $F \
    "return live + waiting < fair_share(pool, cap, callers); => return 1;"
mutant_expect 'fair::a_caller_under_its_share_waits_one_at_it_does_not'
unit "a caller's own waits do not count against its share" $F \
    "return live + waiting < => return live <"
mutant_expect 'fair::the_share_shrinks_as_plain_callers_come'
unit "the share does not shrink as callers come" $F \
    "share = callers > 0 ? pool / callers : pool; => share = pool;"
mutant_expect 'fair::counts_of_a_list'
unit "a waiting caller is not counted among those who share" $F \
    "if (!fi[i].fi_plain || fi[i].fi_state == FAIR_ENDING) => if (!fi[i].fi_plain || fi[i].fi_state != FAIR_LIVE)"
mutant_expect 'fair::a_caller_over_its_share_yields'
unit "a caller over its share keeps its instances" $F \
    "return c.mine > fair_share(pool, cap, c.callers); => return 0;"

live "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect "a third user's files waits for an instance|no error"
live "no wait: the third user hears busy again (F8)" $G \
    "*wait = c.waiting < GITINST_WAITING_MAX && => *wait = 0 &&"
mutant_expect "the freed instance goes to the third user|no error"
live "freed room goes to nobody who waits" $G \
    "if (gitinst_room(gi->gi_caller) != NULL) { => if (1) {"
mutant_expect "on its own busy instance: busy, not queued"
live "a caller over its share keeps reusing its instances" $G \
    "gi->gi_retired = 1;\n}\n\n/*\n * Freed room => (void)0;\n}\n\n/*\n * Freed room"

mutants_end
