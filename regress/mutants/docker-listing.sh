#!/bin/sh
# Mutation check of the Engine's listings and answers as the space and
# tools operations read them (worker-docker/listing_parse.c,
# tools_listing.c, tools_answer.c, create_parse.c, docker_netpool.c,
# docker_engine.c's engine_created):
# each mutant removes one cap or check, and the named test of
# regress/unit/spaced-docker (listing_test.c, tools_listing_test.c,
# tools_answer_test.c, create_parse_test.c, netpool_test.c) must go red.
# Only the suites of the file mutated run ($F): no Docker daemon needed.  Built on this
# tree's build (make build/regress/unit/spaced-docker first): a minute each.
# Usage: sh regress/mutants/docker-listing.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>: the unit tests that
# $F names, against the mutated copy.
mutant() { mutant_unit "$@" spaced-docker "$F"; }

L=worker-docker/listing_parse.c
T=worker-docker/tools_listing.c
A=worker-docker/tools_answer.c
C=worker-docker/create_parse.c
N=worker-docker/docker_netpool.c
E=worker-docker/docker_engine.c
F='*listing*/*'

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

F='tools_answer/*'
mutant_expect "tools_answer::at_most_max_one_shots_of_the_key_whole"
mutant "the sweep takes more one-shots than its room" $A \
    "if (!docker_plain_ref(ref) || n >= max || => if (!docker_plain_ref(ref) ||"
mutant_expect "tools_answer::at_most_max_one_shots_of_the_key_whole"
mutant "the sweep takes a container of any labels" $A \
    "(tools_labels_check(labels, owner, TOOLS_ROLE_FILL, key,\n\t\t    NULL) != NULL && => (0 &&"
mutant_expect "tools_answer::a_made_answer_gives_a_plain_id_whole_or_none"
mutant "a made answer's id is taken past its room" $E \
    "docker_plain_ref(v) && strlen(v) < idlen) => docker_plain_ref(v))"
mutant_expect "tools_answer::a_prune_spares_the_kept_and_takes_at_most_max"
mutant "a prune takes a volume the worker keeps" $A \
    "\t\t    held(name, arg) ||\n => "
mutant_expect "tools_answer::a_prune_spares_the_kept_and_takes_at_most_max"
mutant "a prune takes more volumes than its room" $A \
    "if (n >= max || !docker_plain_ref(name) || => if (!docker_plain_ref(name) ||"

F='create_parse/*'
mutant_expect "create_parse::the_owners_spaces_by_id_each_once"
mutant "the count counts a moved space twice" $C \
    "if (j == 0 || strcmp((*ids)[j - 1], (*ids)[i]) != 0) => "
mutant_expect "create_parse::the_owners_spaces_by_id_each_once"
mutant "the count counts a space of any owner" $C \
    "if (space_labels_check(labels, owner, NULL, ROLE_SPACE) != NULL || => if ("
mutant_expect "create_parse::the_uids_of_the_installations_spaces"
mutant "the uids of another installation's spaces count" $C \
    "strncmp(lowner, owner, k) != 0 || => "
mutant_expect "create_parse::the_runtimes_leftovers_of_the_installation_only"
mutant "a runtime sweep takes more than its room" $C \
    "(strcmp(k, key) == 0) != same_key || n >= max) => (strcmp(k, key) == 0) != same_key)"
mutant_expect "create_parse::the_runtimes_leftovers_of_the_installation_only"
mutant "a runtime sweep takes another installation's" $C \
    "runtime_labels_check(labels, owner, k) != NULL || => "

F='netpool/*'
mutant_expect "netpool::marks_by_bytes_are_the_slots_overlapped"
mutant "the pool's whole bytes are marked one byte too far" $N \
    "memset(&used[s / 8], 0xff, (e + 1 - s) / 8); => memset(&used[s / 8], 0xff, (e + 1 - s) / 8 + (e + 1 < net_pool_slots(np)));"
mutants_end
