#!/bin/sh
# Mutation check of the corridor's tunnel places: each mutant removes one
# protection and regress/integration/gatekeeper-tunnels.sh must go red.
# Each mutant is built in a copy of the tree under a temp dir; the tree
# itself is never modified.  Needs root (the suite's namespaces).  About
# 45 s each.
# Usage: sh regress/mutants/gatekeeper-tunnels.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/libexec/spaced/spaced-gatekeeper
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/gatekeeper-tunnels.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

TN=gatekeeper/spaced-gatekeeper/tunnel.c
CO=gatekeeper/spaced-gatekeeper/corridor.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect '2,000 tunnels closed one after the other'
mutant "the client's close does not free the place" $TN \
    "if (i == 0)\n\t\ttunnel_closing(tn); => if (i < 0)\n\t\ttunnel_closing(tn);"
mutant_expect '65th tunnel: 503'
mutant "no tunnel cap (the control that the cap still counts)" $CO \
    "if (gk->gk_tunnels >= GK_TUNNEL_CAP) { => if (0) {"
mutants_end
