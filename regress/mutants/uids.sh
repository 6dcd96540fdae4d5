#!/bin/sh
# Mutation check of a uid per space (issue 27, M3): each mutant takes
# one part away, and escape/uids.sh must go red by the test
# mutant_expect names.  About a minute a mutant.
# Usage: sh regress/mutants/uids.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant LABEL FILE CHANGE [SUITE]: escape/uids.sh by default
mutant() { mutant_live "$1" "$2" "$3" "${4:-escape/uids.sh}"; }

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "B still makes an inotify instance"
mutant "every space the range's first uid" worker-docker/docker_harden.c \
    "return first == 0 && v % count == 0 ? 0 : first + v % count; => return first + 0 * (v % count);"
mutant_expect "two spaces are made"
mutant "the folders not given the space's uid" worker-docker/space_verify.c \
    "sp->step = sp->branch ? C_GK_START : C_SP_OWN; => sp->step = sp->branch ? C_GK_START : C_SP_START;"
mutant_expect "exec in A is A's uid"
mutant "exec as the image's user" worker-docker/docker_exec.c \
    "uid = harden_space_uid(sq->sq_id, sq->sq_uid_first, sq->sq_uid_count); => uid = HARDEN_SPACE_UID + 0 * sq->sq_uid_count;"

# A uid another space of the installation has (review 2026-12-06 F5):
# integration/space-uids.sh, a range of two uids.
mutant "$MUTANT_CONTROL" GNUmakefile "" integration/space-uids.sh
mutant_expect "a third is refused: no free uid"
mutant "a listed space's uid is not seen as taken" worker-docker/space_create.c \
    "if (uids[i] == uid) => if (uids[i] == uid && 0)" \
    integration/space-uids.sh

mutants_end
