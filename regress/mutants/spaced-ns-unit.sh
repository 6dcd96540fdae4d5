#!/bin/sh
# Mutation check of spaced-ns's unit tests (regress/unit/spaced-ns): a
# filled tools tree made root's without following a link; the exec
# helper's receive leaving no fd open; the times of relay.err lines
# read in one go (ns_stamp_next).  Each mutant must turn the named
# test red.  Seconds.
# Usage: sh regress/mutants/spaced-ns-unit.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" build/regress/unit/spaced-ns
	"$tmp/src/build/regress/unit/spaced-ns" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^\[FAIL\]' 's/^\[FAIL\] //'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "own::swapped_link_not_followed"
mutant "the entry opened following a link" worker-ns/ns_own.c \
    "open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC) => open(path, O_PATH | O_CLOEXEC)"
mutant_expect "own::swapped_link_not_followed"
mutant "a link changed as a file" \
    worker-ns/ns_own.c \
    "else if (!S_ISLNK(st.st_mode)) { => else if (1) {"
mutant_expect "helper_recv::(extra_fd_for_a_pidfd_closed|fds_past_the_buffer_closed)"
mutant "an fd past what is wanted is left open" worker-ns/ns_helper.c \
    "close(fd);\n\t\t\t\tbad = 1; => bad = 1;"
mutant_expect "helper_recv::(extra_fd_for_a_pidfd_closed|fds_past_the_buffer_closed|long_message)"
mutant "a refused message's kept fds are left open" worker-ns/ns_helper.c \
    "\t\t\tclose(fds[i]);\n\t\t*nfds = 0; => \t\t\t;\n\t\t*nfds = 0;"
mutant_expect "stamp::a_burst_read_at_once_counts_each"
mutant "the lines of one read all stamped at the read" worker-ns/ns_gklog.c \
    "\tt.tv_sec -= (time_t)after; => \t(void)after;"
mutant_expect "stamp::a_flood_counts_one_a_second_of_the_pipe"
mutant "a line stamped within a second of the one before" worker-ns/ns_gklog.c \
    "\t\tt = *last;\n\t\tt.tv_sec++; => \t\tt = t;"
mutant_expect "stamp::a_flood_counts_one_a_second_of_the_pipe"
mutant "a line stamped past its read" worker-ns/ns_gklog.c \
    "\tif (t.tv_sec > now->tv_sec || => \tif (0 &&"
mutants_end
