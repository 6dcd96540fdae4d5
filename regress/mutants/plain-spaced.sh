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

mutant_expect "and warned of, as at start"
mutant "no warning at a reload to a default place it cannot have" \
    supervisor/spaced/reload.c \
    "place_default_warn(); => (void)0;"

# A spaced-git that dies before it reads its channel: its requests hear
# how (the step and errno, the status or signal), not "it went away".
mutant_expect "files, spaced-git missing: the exec that failed"
mutant "its channel's end refuses at once, before the report of how" \
    supervisor/spaced/gitinst.c \
    "if (!gi->gi_reaped && (errno == 0 || => if (0 && (errno == 0 ||"

mutant_expect "files, spaced-git missing: the exec that failed"
mutant "spaced-launch reports no step: the exec's 127 alone" \
    worker-git/spaced-launch/launch.c \
    "le.le_step = env.ln_reports[slot].lp_step; => (void)0;"

mutant_expect "review, spaced-git missing: the quarantine's exec"
mutant "the quarantine's child reports no step" \
    worker-git/spaced-launch/launch.c \
    "qr_child_exec(fd, &lq, uid, gid, &env.ln_reports[slot]); => qr_child_exec(fd, &lq, uid, gid, &env.ln_reports[LAUNCH_CHILDREN_MAX - 1 - slot]);"

mutant_expect "files, spaced-git missing: the exec that failed"
mutant "held requests never hear the report (they wait out their time)" \
    supervisor/spaced/gitinst.c \
    "if (gi->gi_gone)
		gitinst_free(gi, ERR_GIT_WORKER_FAILED, gi->gi_how); => (void)0;"

# The words themselves (gitdeath.c), by its unit tests.
unit() { mutant_unit "$@" spaced 'gitdeath/*'; }
unit "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'gitdeath::a_signal_by_name_and_its_filter_for_sigsys'
unit "a signal by number alone" supervisor/spaced/gitdeath.c \
    "if ((name = sigabbrev_np(sig)) == NULL) => if ((name = \"\") == NULL)"
mutant_expect 'gitdeath::an_exit_status_and_when'
unit "no word of when it died" supervisor/spaced/gitdeath.c \
    "WEXITSTATUS(le->le_status), when); => WEXITSTATUS(le->le_status), \"\");"
mutant_expect 'gitdeath::a_report_out_of_range_is_only_the_status'
unit "a step without an errno is taken (\"Success\")" \
    supervisor/spaced/gitdeath.c \
    "le->le_errno > 0) { => le->le_errno >= 0) {"

mutants_end
