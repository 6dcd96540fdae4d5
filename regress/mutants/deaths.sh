#!/bin/sh
# Mutation check of a create or start whose agent's server cannot start
# (space_server_failed), and of the native restart count of lines read
# in one go: each mutant removes one part of the early end or the count,
# and regress/agent/deaths.sh (Docker) or native/deaths.sh (the same
# suite on the native place) must go red.  Built in a copy of the tree
# under a temp dir from this tree's objects; the tree itself is never
# modified.  About a minute a mutant, two and a half when the create
# waits its whole 120 s again.
# Usage: sh regress/mutants/deaths.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]> <suite>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/$4.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# row <the test that must go red> <label> <file> <"old" => "new"[ @@ ...]>
#     <suite>: one mutant
row() {
	mutant_expect "$1"
	shift
	mutant "$@"
}

# The controls: each place, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile "" agent/deaths
mutant "$MUTANT_CONTROL" GNUmakefile "" native/deaths

S=supervisor/spaced/server.c
D=supervisor/spaced/server_deaths.c
P=supervisor/spaced/space.c
for place in Docker:agent native:native; do
	row 'named: space_server_failed' \
	    "the deaths do not end the wait (${place%%:*})" $S \
	    "if (sv_deaths(r, msg, sizeof(msg))) { => if (0) {" \
	    "${place#*:}/deaths"
done
row 'named: space_server_failed' \
    "the create's restarts wait for the collector's turns" $D \
    "collect_restarts_now(r->r_uid, sv->id); => (void)0;" agent/deaths
row 'the memory named' \
    "spaced-docker does not say the kernel killed for memory" \
    worker-docker/space_ops.c \
    "sp->sq.sq_oom ? R_OOM_OWN : R_LIST_C => R_LIST_C" agent/deaths
row 'the memory named' \
    "spaced-ns does not say the kernel killed for memory" worker-ns/ns_ops.c \
    "if (sq->sq_oom)\n\t\tns_cgroup_events(ns.ns_id => if (0)\n\t\tns_cgroup_events(ns.ns_id" \
    native/deaths
row 'never ready: the memory named too' \
    "a create never ready does not ask whether memory killed" $D \
    "return strcmp(code, ERR_SERVER_FAILED) == 0 ||\n\t    strcmp(code, ERR_SERVER_NOT_READY) == 0; => return strcmp(code, ERR_SERVER_FAILED) == 0;" \
    agent/deaths
row 'start: named: space_server_failed' \
    "a start's deaths do not end its wait" $D \
    "if (sv->op != SV_OP_CREATE && sv->op != SV_OP_START)\n\t\treturn 0;\n\tif (!deaths_since => if (sv->op != SV_OP_CREATE)\n\t\treturn 0;\n\tif (!deaths_since" \
    agent/deaths
row 'control: a start after three deaths' \
    "a start counts the deaths of the space's whole life" $D \
    "\t*n = *n > sr->sr_deaths_base ? *n - sr->sr_deaths_base : 0; => \t(void)0;" \
    agent/deaths
row 'control: a start after three deaths' \
    "a start collects nothing before it begins" $P \
    "\t\tcollect_then(r, cs.cs_id, start_counted); => \t\tstart_counted(r);" \
    agent/deaths
row 'control: a start after three deaths' \
    "a start takes no base before it begins (native)" $P \
    "\tsv_deaths_base(r);\n => \tSV(r)->run->sr_deaths_known = 1;\n" \
    native/deaths
row 'start: the memory named' \
    "spaced-docker's stop does not say the kernel killed for memory" \
    worker-docker/space_stop.c \
    "\tif (sp->sq.sq_oom) {\n\t\tsp->step = ST_SP_OOM; => \tif (0) {\n\t\tsp->step = ST_SP_OOM;" \
    agent/deaths
row 'start: the memory named' \
    "spaced-ns's stop does not say the kernel killed for memory" \
    worker-ns/ns_ops.c \
    "\tif (sq->sq_oom)\n\t\tns_cgroup_events(ns->ns_id => \tif (0)\n\t\tns_cgroup_events(ns->ns_id" \
    native/deaths
row 'stopped: its journal counts the three' \
    "relay.err lines read in one go stamped at the read" worker-ns/ns_gklog.c \
    "\t\t\tns_stamp_next(&g->last, &now, --starts, &ts); => \t\t\tts = now; (void)starts;" \
    native/deaths
mutants_end
