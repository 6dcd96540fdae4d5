#!/bin/sh
# Mutation check of a plain user's spaced (integration/plain-spaced.sh):
# spaced-launch of such a spaced runs every spaced-git as that user, so
# it refuses a repository of anyone else's, root's asking included.
# Built from this tree's objects (mutant_build_quick): a minute or two.
# Usage: sh regress/mutants/plain-spaced.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh \
	    "$tmp/src/regress/integration/plain-spaced.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" worker-git/spaced-launch/launch.c ""

mutant_expect "root's repository, through the user's spaced: refused"
mutant "a plain spaced's spaced-git for another owner's repository" \
    worker-git/spaced-launch/launch.c \
    "if (geteuid() != 0 && sb.st_uid != geteuid()) { => if (0) {"

# What a plain user's check and start say (messages, each with a
# check that was red before it).
mutant_expect "check: why, in create's words: permission denied"
mutant "check's unreachable engine without create's words" \
    supervisor/spaced/admin.c \
    "strlcpy(dc.dc_message, place_why(code), => (void)(place_why(code), "

mutant_expect "check: native unavailable \\(sandbox_unavailable\\)"
mutant "a plain spaced's check without its native place's record" \
    supervisor/spaced/admin.c \
    "r->r_list_pending = 2; => r->r_list_pending = 1; if (0)"

mutant_expect "its log warns: default place native needs root"
mutant "no warning at start of a default place it cannot have" \
    supervisor/spaced/spaced.c \
    "place_default_warn(); => (void)0;"

mutants_end
