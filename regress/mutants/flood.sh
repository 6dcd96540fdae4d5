#!/bin/sh
# Mutation check of the engine requests a caller may hold (issue 27,
# M5): each mutant removes one protection in spaced, and
# integration/spaced-flood.sh must go red by the test mutant_expect
# names.  Under a minute a mutant.
# Usage: sh regress/mutants/flood.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/integration/spaced-flood.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "root creates a space during a docker-group|at most 32 of the docker-group"
mutant "no cap of engine requests a uid" supervisor/spaced/place.c \
    "if (r->r_uid != 0 && r->r_uid != geteuid() && => if (0 && r->r_uid != geteuid() &&"
mutant_expect "reach the engine a few times, from a cache"
mutant "plain users' checks not from the cache" supervisor/spaced/admin.c \
    "if (CTL_ADMIN(r->r_cc) || r->r_cc->cc_docker) => if (1)"
mutant_expect "reach the engine a few times, from a cache"
mutant "plain users' checks do not wait for the one in flight" \
    supervisor/spaced/admin.c "if (check_cache.fetcher == 0 || => if (1 ||"

mutants_end
