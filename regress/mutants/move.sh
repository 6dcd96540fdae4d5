#!/bin/sh
# Mutation check of the move to new tools at the next start: each mutant
# removes one protection, and the live suite regress/integration/move.sh
# must go red.  Built in a copy of the tree under a temp dir; the tree
# itself is never modified.  About four minutes a mutant.
# Usage: sh regress/mutants/move.sh [label-substring]
. "$(dirname "$0")/lib.sh"

mutant() { mutant_live "$@" integration/move.sh; }

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect 'the old container survives under its name, on B'
mutant "move by name instead of id (the undo removes the plain name)" \
    worker-docker/space_move.c \
    "\"/containers/%s?force=1&v=0\", sp->mv.mv_new); => \"/containers/%s?force=1&v=0\", plain);"
mutant_expect 'the old container is back under its name, on A, alone'
mutant "the undo does not give the old container its name back" \
    worker-docker/space_move.c \
    "\"/containers/%s/rename?name=%s\", sp->mv.mv_old, plain); => \"/containers/%s/rename?name=%s\", sp->mv.mv_old, aside);"
# With the mutant the start tries the move, which fails on the running
# container and is undone: the start's answer is what goes red.
mutant_expect 'start of a running space on an old key succeeds|a running space is not moved by a new key'
mutant "a running space is moved" worker-docker/space_move.c \
    "strcmp(sp->sp_state, \"running\") == 0 ||\n\t    !move_ours => !move_ours @@ return strcmp(sp->sp_state, \"running\") != 0 && sp->move; => return sp->move;"
mutant_expect 'tamper-inspect-id: the move fails with space_verify_failed'
mutant "the new container is not verified" worker-docker/space_move.c \
    "if (sp->report.hr_n > 0 || sp->report.hr_truncated) {\n\t\t\tsend_violations(rq, &sp->report);\n\t\t\treturn move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,\n\t\t\t    \"the new => if (0) {\n\t\t\tsend_violations(rq, &sp->report);\n\t\t\treturn move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,\n\t\t\t    \"the new"
mutant_expect 'start repairs and moves|the unfinished container is gone'
mutant "start does not repair a half-done move" worker-docker/space_ops.c \
    "sp->step = P_ASIDE; => sp->step = V_SP;"
mutant_expect 'the move to an empty C fails and the old one is back'
mutant "spaced does not undo a move whose server never got ready" \
    supervisor/spaced/server.c \
    "if (move_send(r, IMSG_SPACE_MOVE_UNDO_REQ) == 0)\n\t\t\treturn; => (void)0;"
mutant_expect 'the second start shared the run|both starts answer the same'
mutant "calls of start do not share one run" supervisor/spaced/space.c \
    "if ((sr = startrun_find(owner, sv->id)) != NULL) { => if (0) {"
mutant_expect 'the stop waits for the start under way|the stop waited and stopped it'
mutant "stop does not wait for a start under way" supervisor/spaced/space.c \
    "	if (start_busy(sq.sq_owner, sv->id)) { => 	if (0 && start_busy(sq.sq_owner, sv->id)) {"
mutant_expect 'long Id: no call names a cut of it'
mutant "a create's Id too long for its room is kept cut" \
    worker-docker/docker_engine.c \
    "if (id != NULL && docker_plain_ref(v) && strlen(v) < idlen)\n\t\tmemcpy(id, v, strlen(v) + 1); => if (id != NULL && docker_plain_ref(v))\n\t\tstrlcpy(id, v, idlen);"
mutant_expect 'the prune removed A'
mutant "no prune of the old tools after a move" worker-docker/space_move.c \
    "if (sp->sq.sq_agent.sa_tools[0] == '\\\\0') { => if (1) {"

mutants_end
