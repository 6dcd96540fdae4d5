#!/bin/sh
# Mutation check of spaces per owner under creates at once: the mutant
# takes the Docker place's count of creates under way away, and
# integration/spaces-cap.sh must go red by the row mutant_expect names.
# About two minutes a run.
# Usage: sh regress/mutants/spaces-cap.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/spaces-cap.sh; }

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "docker: ten creates at once under a cap of 3 make exactly 3"
mutant "creates under way not counted" worker-docker/space_create.c \
    "while ((id = inflight_next(sp->sq.sq_owner, &cursor)) != NULL) => while (0 && (id = inflight_next(sp->sq.sq_owner, &cursor)) != NULL)"
mutants_end
