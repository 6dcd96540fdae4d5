#!/bin/sh
# Mutation check of spaced's log (issue 27, finding 2) and of spacectl's
# terminal output (its Low finding on outside bytes): each mutant
# removes one protection and regress/integration/spaced-logs.sh must go
# red in the test named.  Each mutant is built in a copy of the tree
# under a temp dir; the tree itself is never modified.  Needs root.
# Usage: sh regress/mutants/logs.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" \
	    sh "$tmp/src/regress/integration/spaced-logs.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

W=supervisor/spaced/workers.c
L=worker-git/spaced-launch/launch.c
G=worker-git/spaced-git/main.c
LOG=common/lib/log.c

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "worker [0-9]+: fd 2 is not the log"
mutant "workers keep spaced's stdio (no /dev/null, no pipe)" $W \
    "if (dup2(null, STDIN_FILENO) == -1 || => return 0;\n\tif (dup2(null, STDIN_FILENO) == -1 ||"
mutant_expect "spaced-git's fd [0-2] is /dev/null"
mutant "a spaced-git keeps spaced-launch's stdio" $L \
    "if ((null = open(\"/dev/null\", O_RDWR)) == -1) => return 0;\n\tif ((null = open(\"/dev/null\", O_RDWR)) == -1)"
mutant_expect "not dumpable|PTRACE_ATTACH as nobody"
mutant "a spaced-git stays dumpable" $G \
    "if (prctl(PR_SET_DUMPABLE, 0) == -1) => if (0)"
mutant_expect "starts no line of its own"
mutant "log lines go out unescaped" $LOG \
    "escape_bytes(esc, sizeof(esc), msg, backslash); => strlcpy(esc, msg, sizeof(esc));"

mutant_expect "no ESC or BEL reaches it|shows escaped"
mutant "spacectl writes outside bytes raw to a terminal" supervisor/spacectl/spacectl_output.c \
    "if (!isatty(fileno(f))) { => if (1) {"

mutants_end
