#!/bin/sh
# Mutation check of the space that survives its agent's mistakes: each
# mutant removes one protection and regress/agent/survive.sh must go
# red (the last four: restarts in the journal, and forged lines).  Built in a copy of the tree under a temp dir; the tree itself is
# never modified.  About 2 minutes a mutant.
# Usage: sh regress/mutants/survive.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new">
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/agent/survive.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

K=gatekeeper/spaced-relay/keeper.c

# The control: the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'the same server: the hogs died, not it'
mutant "the agent's commands keep the server's oom_score_adj" $K \
    "keeper_oom_adj(RELAY_OOM_COMMAND); => keeper_oom_adj(\"0\");"
mutant_expect 'a killed server is started again and answers'
mutant "a server that died is not started again" $K \
    "if (stopping || (fork_errno == 0 && => if (1 || (fork_errno == 0 &&"
mutant_expect 'during the bomb the server starts a command within 10 s'
mutant "the agent's commands may take all the space's pids" $K \
    "== 0 ||\n\t    getrlimit(RLIMIT_NPROC => == 0 || 1 ||\n\t    getrlimit(RLIMIT_NPROC"
mutant_expect 'the journal has the restart: listener server'
mutant "the restart record is not written" gatekeeper/spaced-journal/restarts.c \
    "if (store_add_restart(st, &je) == -1) => if (0)"
mutant_expect 'the journal holds no record of the forged line'
mutant "the server's stderr is the container's stderr" $K \
    "if (dup2(STDOUT_FILENO, STDERR_FILENO) == -1) => if (0)"
mutant_expect "the relay's stderr is not the agent's"
mutant "the relay and its keeper stay dumpable" gatekeeper/spaced-relay/main.c \
    "if (prctl(PR_SET_DUMPABLE, 0) == -1) => if (0)"
mutant_expect 'the journal keeps only those a second apart'
mutant "a forger's lines are not held a second apart" \
    gatekeeper/spaced-journal/restarts.c \
    "if (rr.rr_ms - last < RESTART_GAP_MS) => if (0)"
mutants_end
