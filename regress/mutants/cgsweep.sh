#!/bin/sh
# Mutation check of spaced-ns's sweep of the groups a killed spaced-ns
# left whose state is gone (ns_cgroup.c, native/cgcrash.sh): they go at
# the next start, and a pair with a process or one no process joined
# yet stays.  Built as nsstreams.sh builds (this tree's objects, only
# the mutated file rebuilt); a minute or two each.  And the join that
# keeps another installation's sweep from freeing a space of a limit,
# the start's join that makes a taken group again, and the stamp that
# makes a group made again young: unit/spaced-ns's cgroup_join tests,
# seconds.
# Usage: sh regress/mutants/cgsweep.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/native/cgcrash.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# unit <label> <file> <"old" => "new"[ @@ ...]>
unit() { mutant_unit "$@" spaced-ns 'cgroup_join/*'; }

C=worker-ns/ns_cgroup.c
mutant "$MUTANT_CONTROL" GNUmakefile ""
unit "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect "the crashed space's groups are gone"
mutant "no sweep at start" worker-ns/ns_ops.c \
    'records kept", n);\n\tns_cgroup_sweep(); => records kept", n);'
# A pair being made (no process joined yet) taken for spent.
mutant_expect "a pair no process joined yet stays"
mutant "a group that never held a process is spent" $C \
    'strtoull(buf, NULL, 10) == 0)\n\t\treturn 0; => 0)\n\t\treturn 0;'
# A group with a process taken for spent: the kernel keeps that one,
# but its pair's spent gatekeeper group goes.
mutant_expect "a live pair stays"
mutant "a group with a process is spent" $C \
    "sizeof(buf)) == 0 && buf[0] != '\\\\0')\n\t\t\treturn 0; => sizeof(buf)) == 0 && 0)\n\t\t\treturn 0;"
# A pair judged by one of its groups.
mutant_expect "a live pair stays"
mutant "a pair goes when one group is spent" $C \
    'if (a == 0 || b == 0 || => if ((a == 0 && b == 0) ||'
# A group gone between make and join read as a controller the host
# lacks: the process runs without that limit.
mutant_expect "a_group_taken_before_the_join_fails_it"
unit "a missing group is a controller the host lacks" $C \
    'if (cg_exists(r->cr_ctl, r->cr_file)) { => if (r->cr_file == NULL) {'
# A start's join that finds its group taken fails at once (the user's
# start or create fails) rather than making it again.
mutant_expect "a_start_makes_a_taken_group_again"
unit "a start's join is not tried again" $C \
    'for (i = 0; i < CG_TRIES; i++) { => for (i = 0; i < 1; i++) {'
# A group there already, made again for a start, keeps its old mtime:
# another installation's sweep may take it before the join.
mutant_expect "a_group_made_again_is_young"
unit "a group made again is not made young" $C \
    'if (utimensat(AT_FDCWD, path, NULL, 0) == -1) => if (0)'
# A spent group made in the last seconds (a start's, made again) swept.
mutant_expect "a spent pair made in the last seconds stays"
mutant "a young group is swept" $C \
    'if (st.st_mtime > time(NULL) - CG_YOUNG)\n\t\treturn 0; => if (0)\n\t\treturn 0;'
mutants_end
