#!/bin/sh
# Mutation check of integration/spacectl-user.sh: the cap on an owner's
# native spaces, exec -j's U+FFFD, a space name that is not UTF-8.  Each
# mutant names the row that must go red.  Built as mutants/nsplace.sh
# builds (this tree's objects, only the mutated file rebuilt); under a
# minute each.  Usage: sh regress/mutants/spacectl-user.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/integration/spacectl-user.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "^a third: too_many_spaces"
mutant "native create counts no spaces of the owner" worker-ns/ns_ops.c \
    'if (sq->sq_spaces_max > 0 && => if (0 && sq->sq_spaces_max > 0 &&'
mutant_expect "a byte that is not UTF-8 is U.FFFD"
mutant "exec -j loses output that is not UTF-8" \
    supervisor/spacectl/spacectl_output.c \
    'o = json_stringn_nocheck(fixed, out); => o = json_stringn_nocheck("", 0);'
mutant_expect "^create -n with bytes that are not UTF-8"
mutant "a name's bytes taken one by one" common/proto/labels.c \
    'if ((len = utf8_char_len(p + n, all - n)) == 0 || => if ((len = 1) == 0 ||'

mutants_end
