#!/bin/sh
# Mutation check of the outer networks' pool and the spaces an owner
# may have (issue 27, M4): each mutant takes one part away, and
# integration/spaced-netpool.sh must go red by the test mutant_expect
# names.  A mutant that would put spaces on the engine's default pools
# is caught at the first space, before it could exhaust them.  About
# two minutes a mutant.
# Usage: sh regress/mutants/netpool.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/spaced-netpool.sh; }

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "the first space is made|its outer network is a /29 of the pool"
mutant "no subnet asked for" worker-docker/docker_harden.c \
    "if (p->hp_subnet[0] != '\\\\0' && json_object_set_new(body, \"IPAM\", => if (0 && json_object_set_new(body, \"IPAM\","
mutant_expect "the 35th is refused"
mutant "no cap of spaces an owner" worker-docker/space_create.c \
    "if (sp->sq.sq_spaces_max > 0 && n >= sp->sq.sq_spaces_max) { => if (0) {"
mutants_end
