#!/bin/sh
# Mutation check of spacectl's unit tests (regress/unit/spacectl): what
# prompt keeps of a turn between two looks is held to TURN_PARTS_MAX
# parts, whatever the space's server names; its other answers (a
# session's id, a failed turn's status and grant) are taken whole or
# not at all.  Each mutant must turn the named test red.  Seconds.
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
A=supervisor/spacectl/spacectl_answer.c
mutant_expect "answer::a_status_is_the_models_only_when_it_is_one"
mutant "a failed turn's status read through an int cast (as before)" $A \
    "w->status = st >= 100 && st <= 999 ? (int)st : 0; => w->status = (int)st;"
mutant_expect "answer::a_session_id_is_taken_whole_of_its_charset_or_not_at_all"
mutant "an empty session id is taken (as before)" $A \
    "(n = strlen(s)) == 0 || => ((n = strlen(s)) && 0) ||"
mutant_expect "answer::a_session_id_is_taken_whole_of_its_charset_or_not_at_all"
mutant "a session id past its room is taken" $A \
    "n >= len || strspn => n > len || strspn"
mutant_expect "answer::a_session_id_is_taken_whole_of_its_charset_or_not_at_all"
mutant "a session id of any characters is taken" $A \
    "strspn(s, ID_CHARS) != n) => 0)"
mutant_expect "answer::the_windows_refusal_names_a_grant_only_of_the_models_url"
mutant "a grant name of any length is named" $A \
    "if (n == 0 || n > TURN_GRANT_MAX) { => if (n == 0) {"
mutants_end
