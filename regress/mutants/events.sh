#!/bin/sh
# Mutation check of spacectl events (issue 26): the live suite
# regress/integration/spaced-events.sh must go red, by the named test,
# when a caller is shown every owner's events, a follower that never
# reads is kept, or one uid or plain uids together take every follower.
# Built in a copy of the tree under a temp dir; the tree itself is never
# modified.  About a minute a mutant.
# Usage: sh regress/mutants/events.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/spaced-events.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant_expect 'nothing of root.s space'
mutant "a caller sees every owner's events" supervisor/spaced/events.c \
    "\tif (r->r_cc != NULL && CTL_ADMIN(r->r_cc)) => \tif (1)"
mutant_expect 'never reads is dropped'
mutant "a follower that never reads is kept" supervisor/spaced/events.c \
    "if (r->r_cc->cc_iev.ibuf.outq_bytes > EVENTS_LAG_MAX) { => if (0) {"

mutant_expect 'asks 16 followers'
mutant "a uid's followers are not counted" supervisor/spaced/events.c \
    "if (!CTL_ADMIN(r->r_cc) && (mine >= EVENTS_FOLLOWERS_PER_UID || => if (!CTL_ADMIN(r->r_cc) && (0 ||"
mutant_expect 'a twelfth plain uid is refused'
mutant "plain users together take every follower" supervisor/spaced/events.c \
    "plain >= EVENTS_FOLLOWERS_PLAIN_MAX)) => 0))"
mutant_expect "root's create is still in root's events"
mutant "a plain owner's events take the whole ring" supervisor/spaced/events.c \
    "if (own >= EVENTS_PER_OWNER) => if (own >= EVENTS_RING)"

# An event about no space (a reload that failed) has no space field.
mutant_expect 'reload-failed -j: no space key'
mutant "-j: an event about no space says \"space\":\"\" (as before)" \
    supervisor/spacectl/spacectl_events.c \
    "space[0] != '\\\\0' ? space : NULL, => space,"
mutant_expect "reload-failed: spaced.s own, no space column"
mutant "text: an event about no space prints \"-\" for it (as before)" \
    supervisor/spacectl/spacectl_events.c \
    "\telse\n\t\tabout[0] = '\\\\0'; => \telse\n\t\tsnprintf(about, sizeof(about), \"%-12s \", \"-\");"

mutants_end
