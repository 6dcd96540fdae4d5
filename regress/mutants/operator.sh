#!/bin/sh
# Mutation check of what an operator's users are told
# (integration/spaced.sh): a permission_denied says who the command is
# for, root's own commands and the docker group's alike, in spaced's
# words (control.c), which spacectl prints.  Built from
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

C=supervisor/spaced/control.c

mutant "$MUTANT_CONTROL" $C ""

# spacectl prints spaced's words: a client table of its own (the one
# it had) would print its words and leave these green.
mutant_expect "refused privileges with permission_denied, told who may"
mutant "spaced words root's commands otherwise" $C \
    "own user only\", op->op_name => own user alone\", op->op_name"
mutant_expect "so is journal 0123456789ab"
mutant "spaced words the space operations otherwise" $C \
    "members of the docker group\", => members of its group\","
mutant_expect "refused privileges with permission_denied, told who may"
mutant "spaced's refusal is the bare code again" $C \
    "peerid, &fw, sizeof(fw)); => peerid, &fw, sizeof(fw.fw_fail));"
mutant_expect "refused privileges with permission_denied, told who may"
mutant "root's commands told the docker group's words" $C \
    "if (op->op_who == WHO_ADMIN) => if (op->op_who != WHO_ADMIN)"
mutants_end
