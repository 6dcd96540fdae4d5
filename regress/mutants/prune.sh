#!/bin/sh
# Mutation check of the prune's race with a create (tools_prune.h): a
# create's tools volume kept from a prune from its ensure's answer to
# the create's end, and no longer after it.  Each mutant must turn its
# named check of regress/agent/prune-race.sh red.  Built from this
# tree's objects (mutant_build_quick); about 2 minutes a mutant.
# Usage: sh regress/mutants/prune.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/agent/prune-race.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "leaves the held create's tools volume"
mutant "a prune takes the tools a create was given" \
    worker-docker/tools_volume.c \
    'strcmp(name, keep) == 0 || tools_kept(name) || => strcmp(name, keep) == 0 ||'
mutant_expect "control: a third profile's fill once nothing holds it prunes it"
mutant "a create's tools kept past its end" worker-docker/space_ops.c \
    'tools_unkeep(sp->sq.sq_agent.sa_tools, sp->tools_peer); => (void)0;'
mutants_end
