#!/bin/sh
# Mutation check of worker deaths as events (issue 26): a spaced-git
# instance that dies without spaced asking is a worker-died event, and
# integration/spaced-gitinst.sh must go red, by the named test, when
# none is emitted or when a death whose channel ended first is taken
# for one spaced asked for.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/worker-died.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/spaced-gitinst.sh; }
# The same, built from this tree's objects (mutant_build_quick).
mutant_q() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh \
	    "$tmp/src/regress/integration/spaced-gitinst.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'events -f: worker-died'
mutant "no event" supervisor/spaced/gitinst.c \
    "if (gis.event != NULL) => if (0)"
mutant_expect 'events -f: worker-died'
mutant "a channel that ended first taken for spaced's own end" \
    supervisor/spaced/gitinst.c "gi->gi_unasked = 1; => ;"
mutant_expect 'no worker-died: the one killed alone'
mutant "an end spaced asked for is an event too" \
    supervisor/spaced/gitinst.c \
    "if (gi->gi_state != GI_ENDING || gi->gi_unasked) => if (1)"

# A spaced-git's own fatal line (stderr on /dev/null): sent on its
# channel as it dies, kept by spaced, escaped, after how it died.
mutant_expect 'how it died, then its own fatal line'
mutant_q "spaced-git sends no last words" common/lib/proc.c \
    "log_setlast(worker_last_words); => (void)worker_last_words;"
mutant_expect 'how it died, then its own fatal line'
mutant_q "spaced drops the last words it was sent" \
    supervisor/spaced/gitinst.c \
    "return gitlaunch_said(imsg, gi->gi_pid, gi->gi_reaped, gi->gi_how); => return 0;"
mutant_expect 'gitdeath::its_fatal_line_escaped_after_how_it_died'
mutant_unit "the line as it came, unescaped" supervisor/spaced/gitdeath.c \
    "(void)log_escape(esc, len, wf->wf_line); => (void)strlcpy(esc, wf->wf_line, len);" \
    spaced "gitdeath/*"
mutant_expect 'gitdeath::a_fatal_line_without_its_nul_is_refused'
mutant_unit "a line without its NUL taken" supervisor/spaced/gitdeath.c \
    "if (memchr(wf->wf_line, => if (0 && memchr(wf->wf_line," \
    spaced "gitdeath/*"

mutants_end
