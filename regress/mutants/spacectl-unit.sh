#!/bin/sh
# Mutation check of spacectl's unit tests (regress/unit/spacectl): what
# prompt keeps of a turn between two looks is held to TURN_PARTS_MAX
# parts, whatever the space's server names.  Each mutant must turn the
# named test red.  Seconds.
# Usage: sh regress/mutants/spacectl-unit.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spacectl
	"$tmp/src/build/regress/unit/spacectl" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^\[FAIL\]' 's/^\[FAIL\] //'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "turn::new_(text|tool)_parts_forever_are_cut_off"
mutant "no cap on the parts a turn keeps" supervisor/spacectl/spacectl_turn.c \
    "t->full = 1;\n\treturn -1; => return 0;"
mutant_expect "turn::new_text_parts_forever_are_cut_off"
mutant "text parts not held to the cap" supervisor/spacectl/spacectl_turn.c \
    "if (len <= done || room(t, t->printed, pid) == -1) => if (len <= done)"
mutant_expect "turn::new_tool_parts_forever_are_cut_off"
mutant "tool parts not held to the cap" supervisor/spacectl/spacectl_turn.c \
    "if ((old != NULL && strcmp(old, st) == 0) ||\n\t    room(t, t->status, pid) == -1) => if (old != NULL && strcmp(old, st) == 0)"
mutant_expect "turn::new_(text|tool)_parts_forever_are_cut_off"
mutant "a full turn goes on" supervisor/spacectl/spacectl_turn.c \
    "if (t->full)\n\t\trv = TURN_UNREADABLE;\n\telse if => if"
mutants_end
