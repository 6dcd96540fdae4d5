#!/bin/sh
# Mutation check of the spaced-git instances against a hostile local
# user (issue 27): each mutant removes one protection in gitinst.c or
# spaced-launch, and integration/spaced-gitusers.sh must go red, by the
# test mutant_expect names.  Builds each mutant in a copy of the tree
# under a temp dir; the tree itself is never modified.  About three
# minutes a mutant (the suite waits out spaced's 30 s idle end).
# Usage: sh regress/mutants/gitusers.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" timeout 600 sh "$tmp/src/regress/integration/spaced-gitusers.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "none is left as the user|at most 8 left"
mutant "a freed instance is not killed" supervisor/spaced/gitinst.c \
    "gitlaunch_kill(gi->gi_id, gi->gi_pid);\n\tgi->gi_state = GI_ENDING; => (void)gitlaunch_kill;\n\tgi->gi_state = GI_ENDING;"
mutant_expect "none is left as the user"
mutant "a request it never acknowledged holds an instance" \
    supervisor/spaced/gitinst.c \
    "!(r->r_answered && r->r_cancelled)) => 1)"
mutant_expect "at most 8 left|its ninth is refused|another plain user still lists"
mutant "no cap a caller" supervisor/spaced/gitinst.c \
    "if (c.mine >= GITINST_PER_CALLER) => if (0)"
mutant_expect "12 for plain users in all|the second user.s fifth waits|root lists its repository while"
mutant "no places kept for root" supervisor/spaced/gitinst.c \
    "if (plain && c.plain >= GITINST_PLAIN_MAX) => if (plain && 0)"
mutant_expect "the same answer, word for word"
mutant "spaced-launch stats as root for a plain caller" \
    worker-git/spaced-launch/launch.c \
    "return caller_stat(lg->lg_caller, lg->lg_dir, sb); => return (void)caller_stat, stat(lg->lg_dir, sb);"
mutant_expect "the same answer, word for word"
mutant "the caller's search permission not checked" \
    worker-git/spaced-launch/launch.c \
    "if (!caller_searches(&lk, sb)) { => if (!caller_searches(&lk, sb) && 0) {"
mutant_expect "through the user's group"
mutant "the caller's groups not read" worker-git/spaced-launch/launch.c \
    "if (sb->st_gid == lk->lk_gids[i]) => if (0)"

mutants_end
