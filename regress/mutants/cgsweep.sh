#!/bin/sh
# Mutation check of spaced-ns's sweep of the groups a killed spaced-ns
# left whose state is gone (ns_cgroup.c, native/cgcrash.sh): they go at
# the next start, and a pair with a process or one no process joined
# yet stays.  Built as nsstreams.sh builds (this tree's objects, only
# the mutated file rebuilt); a minute or two each.  And the join that
# keeps another installation's sweep from freeing a space of a limit:
# unit/spaced-ns's cgroup_join tests, seconds.
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
    'else if (cg_exists(controllers[i], limit_file[i])) => else if (limit_file[i] == NULL)'
mutants_end
