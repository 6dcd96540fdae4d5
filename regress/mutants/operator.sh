#!/bin/sh
# Mutation check of what an operator's users are told
# (integration/spaced.sh): a permission_denied says who the command is
# for, root's own commands and the docker group's alike.  Built from
# this tree's objects (mutant_build_quick); about a minute each.
# Usage: sh regress/mutants/operator.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 sh \
	    "$tmp/src/regress/integration/spaced.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

O=supervisor/spacectl/spacectl_output.c

mutant "$MUTANT_CONTROL" $O ""

mutant_expect "so is journal 0123456789ab"
mutant "permission_denied said bare but for the space operations" $O \
    'strcmp(code, ERR_PERMISSION_DENIED) == 0) => strcmp(code, ERR_PERMISSION_DENIED) == 1)'
mutant_expect "refused privileges with permission_denied, told who may"
mutant "root's commands told the docker group's words" $O \
    'return buf; => break;'
mutants_end
