#!/bin/sh
# Mutation check of worker deaths as events (issue 26): a spaced-git
# instance that dies without spaced asking is a worker-died event, and
# integration/spaced-gitinst.sh must go red, by the named test, when
# none is emitted or when a death whose channel ended first is taken
# for one spaced asked for.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/worker-died.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/spaced-gitinst.sh; }

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'events -f: worker-died'
mutant "no event" supervisor/spaced/gitinst.c \
    "if (gis.event != NULL) => if (0)"
mutant_expect 'events -f: worker-died'
mutant "a channel that ended first taken for spaced's own end" \
    supervisor/spaced/gitinst.c "gi->gi_unasked = 1; => ;"
mutant_expect 'no worker-died: the one killed alone'
mutant "an end spaced asked for is an event too" \
    supervisor/spaced/gitinst.c \
    "if (gi->gi_state != GI_ENDING || gi->gi_unasked) => if (1)"

mutants_end
