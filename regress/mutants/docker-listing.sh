#!/bin/sh
# Mutation check of the Engine's listings as the space and tools
# operations read them (worker-docker/listing_parse.c, tools_listing.c):
# each mutant removes one cap or check, and the named test of
# regress/unit/spaced-docker (listing_test.c, tools_listing_test.c) must
# go red.  Only those tests run: no Docker daemon needed.  Built on this
# tree's build (make build/regress/unit/spaced-docker first): a minute each.
# Usage: sh regress/mutants/docker-listing.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() { mutant_unit "$@" spaced-docker '*listing*/*'; }

L=worker-docker/listing_parse.c
T=worker-docker/tools_listing.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "listing::at_most_sp_res_max_resources"
mutant "a listing keeps more than SP_RES_MAX resources" $L \
    "if (sp->nres >= SP_RES_MAX)\n\t\treturn NULL; => "
mutant_expect "listing::a_name_or_state_past_its_field_is_never_cut"
mutant "a name past its field is kept cut" $L \
    "strlen(name) >= sizeof(r->r_name) || => "
mutant_expect "listing::a_name_or_state_past_its_field_is_never_cut"
mutant "a state past its field is kept cut" $L \
    "if (state != NULL && strlen(state) < sizeof(r->r_state)) => if (state != NULL)"
mutant_expect "listing::another_owners_or_spaces_are_not_kept"
mutant "a listing keeps what its labels do not make ours" $L \
    "if (space_labels_check(labels, sp->sq.sq_owner, id, -1) !=\n\t\t    NULL)\n\t\t\tcontinue; => "
mutant_expect "tools_listing::at_most_tv_volumes_max_volumes_sorted"
mutant "tools list keeps more than TV_VOLUMES_MAX volumes" $T \
    "tv->nvols >= TV_VOLUMES_MAX || => "
mutant_expect "tools_listing::at_most_tools_mounts_max_spaces_a_volume"
mutant "a volume names more than TOOLS_MOUNTS_MAX spaces" $T \
    "if (vi->tv_nmounts < TOOLS_MOUNTS_MAX) => if (vi->tv_nmounts < TOOLS_MOUNTS_MAX + 2)"
mutants_end
