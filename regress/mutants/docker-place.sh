#!/bin/sh
# Mutation check of the Docker place: each mutant removes one protection
# in worker-docker/, and the contract suite (regress/contract/docker.sh,
# the real engine) must go red.  Built in a copy of the tree under a temp
# dir; the tree itself is never modified.  About a minute and a half a
# mutant.  Usage: sh regress/mutants/docker-place.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]> [suite]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/${4:-contract/docker}.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" faults/docker
mutant "$MUTANT_CONTROL" GNUmakefile "" contract/runtime
mutant "$MUTANT_CONTROL" GNUmakefile "" contract/killrace
mutant "$MUTANT_CONTROL" GNUmakefile "" contract/stdin-gone

mutant_expect 'stop of root'\''s space is refused as an unknown one \(space_not_found\)|root'\''s space is untouched'
mutant "stop acts on a container without this owner's labels" \
    worker-docker/space_stop.c \
    "sp->sq.sq_id, stop_role(sp));\n\tjson_decref(o);\n\tif (why != NULL) { => sp->sq.sq_id, stop_role(sp));\n\tjson_decref(o);\n\tif (0) {"
mutant_expect 'and so is exec'
mutant "exec acts on a container without this owner's labels" \
    worker-docker/docker_exec.c \
    "if (why != NULL) {\n\t\t\t/* Another owner's => if (0) {\n\t\t\t/* Another owner's"
mutant_expect 'exec: runs as the space'\''s own uid'
mutant "exec runs as root" worker-docker/docker_exec.c \
    "return uid == 0 ? -1 : harden_user(user, len, uid); => return uid == 0 ? -1 : (strlcpy(user, \"0:0\", len) < len ? 0 : -1);"
mutant_expect 'start refuses it'
mutant "start starts a space that does not verify" \
    worker-docker/space_verify.c \
    "/* Changed behind our back: named, and not started. */ => sp->report.hr_n = 0; sp->report.hr_truncated = 0;"
mutant_expect 'create prints a 12-hex id alone|verify: empty means verified|loopback alone'
mutant "the space gets a network (the default bridge) instead of none" \
    worker-docker/docker_harden.c \
    "HARDEN_SPACE_TMPFS, \"none\", => HARDEN_SPACE_TMPFS, \"bridge\","
mutant_expect 'create prints a 12-hex id alone|verify: empty means verified'
mutant "the space keeps the engine's network sandbox" \
    worker-docker/docker_harden.c \
    "\"NetworkDisabled\", 1, => \"NetworkDisabled\", 0,"
mutant_expect 'create prints a 12-hex id alone|verify: empty means verified'
mutant "the hosts file bound writable" worker-docker/docker_harden.c \
    "\"Source\", source, \"Target\", target, \"ReadOnly\", 1, => \"Source\", source, \"Target\", target, \"ReadOnly\", 0,"
mutant_expect 'exec: stdin passes through|exec: 4 MiB both ways at once'
mutant "stdin shut with bytes still queued" worker-docker/docker_req.c \
    "if (rq->rq_shutdown == 1 && docker_req_stream_queued(rq) == 0) { => if (rq->rq_shutdown == 1) {"

# The faults suite, for what only a fault shows.
FAULTS_ONLY=killed
export FAULTS_ONLY
mutant_expect 'client killed: nothing (remains|is left)'
mutant "a cancelled create is dropped, not rolled back" \
    worker-docker/space_ops.c \
    "/* docker_req_cancel freed the branch: it makes nothing more */ => done(rq, ERR_CANCELLED, NULL, 0); return DOCKER_DONE;" \
    faults/docker

# The runtime volume between installations (contract/runtime.sh).
mutant_expect "another installation's fill container is not removed"
mutant "runtime: the sweep takes any installation's fill containers of the key" \
    worker-docker/space_runtime.c \
    "runtime_filter(rt->rt_owner, rt->rt_key, f, sizeof(f)); => engine_label_filter(f, sizeof(f), 1, LABEL_ROLE \"=runtime\"); @@ create_runtime_take(p, volumes, rt->rt_owner, => create_runtime_take(p, volumes, volumes ? rt->rt_owner : NULL," \
    contract/runtime
mutant_expect 'the next create fills it again'
mutant "runtime: once ready never looked at again" \
    worker-docker/space_runtime.c \
    "if (docker_runtime_ready(rt->rt_key)) {\n\t\trt->rt_recheck = 1; => if (docker_runtime_ready(rt->rt_key)) {\n\t\treturn to_ready(rt);" \
    contract/runtime

# The engine's words for a command it could not start are its stdout
# frame: on stderr once the exit's inspect says nothing ran (Pid 0).
mutant_expect 'exec -g: a command that cannot start says why on stderr, stdout empty'
mutant "exec: the engine's words for a command it could not start on stdout" \
    worker-docker/docker_exec.c \
    "ex_first_flush(ex, ex->never_ran ? EXEC_OUT_STDERR : EXEC_OUT_STDOUT); => ex_first_flush(ex, EXEC_OUT_STDOUT);"
mutant_expect 'exec -g: a command that cannot start says why on stderr, stdout empty'
mutant "exec: a bare command's first frame not held" \
    worker-docker/docker_exec_stream.c \
    "if (ex->first_state != EX_FIRST_OPEN || ex->wrap || => if (1 || ex->wrap ||"

# A relative path in the space that is not there: 127, as natively;
# the space's exec says it itself (the relay's wrapper: ENOENT).
mutant_expect 'exec: a missing relative path is 127'
mutant "exec of a missing relative path in the space is 126" \
    gatekeeper/spaced-relay/subreaper.c \
    "_exit(saved == ENOENT ? 127 : 126); => _exit(126);"
# The same in the gatekeeper (-g), whose folder is / (the code before).
mutant_expect 'exec -g: a missing relative path is 127'
mutant "exec -g of a missing relative path keeps the engine's 126" \
    worker-docker/docker_exec.c \
    "else\n\t\tn = snprintf(full, sizeof(full), \"%s/%s\", ex->workdir, argv0); => else if (ex->req.se_target == EXEC_TARGET_SPACE)\n\t\tn = snprintf(full, sizeof(full), \"%s/%s\", ex->workdir, argv0);\n\telse\n\t\treturn 0;"

# -T and a client that leaves: the command is ended inside the space
# (the engine cannot end an exec): what holds its mark, its session and
# their descendants, and nothing of another exec.
mutant_expect 'and it no longer runs in the space'
mutant "exec -T leaves the command running in the space" \
    worker-docker/docker_exec.c \
    "if (next != NULL && ex_kill(ex, next, ERR_TIMEOUT)) => if (0)"
mutant_expect 'a command whose client left is ended in the space'
mutant "a client that leaves leaves its command running" \
    worker-docker/docker_exec.c \
    "if (ex_kill(ex, next, ERR_CANCELLED)) => if (0)"
mutant_expect 'its children too'
mutant "the kill ends the command's first process alone" \
    worker-docker/docker_execcall.c \
    "has m\$r \$1 || has l \$3 || has a\$r \$2; => has l \$1;"
mutant_expect 'nor what left its session \(setsid\)'
mutant "the kill ends the command's session alone (no mark, no parent chain)" \
    worker-docker/docker_execcall.c \
    "has m\$r \$1 || has l \$3 || has a\$r \$2; => has l \$3;"
# The mark is the fallback's: under the subreaper a double fork's
# orphan is found by the parent chain, so the mutant runs the command
# bare, as in a space of an older relay.
mutant_expect 'nor what a double fork orphaned'
mutant "the kill finds no marked process outside the session's tree (a bare command)" \
    worker-docker/docker_execcall.c \
    "has m\$r \$1 || has l \$3 => has l \$3 @@ if (runtime_volume_name(want, sizeof(want), key) == -1) => if (1)"
mutant_expect 'nor its child that cleared its environment'
mutant "the kill does not follow the parent chain" \
    worker-docker/docker_execcall.c \
    "has l \$3 || has a\$r \$2; => has l \$3;"
# The subreaper (spaced-relay --exec): without it, an orphan that
# cleared its environment and left the session falls to pid 1, where
# nothing finds it; and a space's exec not wrapped at all.
mutant_expect 'nor an orphan that cleared its environment'
mutant "the exec's wrapper is no subreaper" \
    gatekeeper/spaced-relay/subreaper.c \
    "if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1) { => if (0) {"
mutant_expect 'nor an orphan that cleared its environment'
mutant "a space's exec runs bare, not under the relay's subreaper" \
    worker-docker/docker_exec.c \
    "if (ex->wrap && (argv = docker_exec_wrap(argv)) == NULL) => if (0)"
# The hold: the first process (the subreaper) stopped, not killed,
# until a walk finds nothing else.  Unheld it exits with its command,
# and what a race forks after the first walk read its parent lands on
# pid 1, where no walk finds it (contract/killrace.sh).
mutant_expect 'nothing it forked while it was killed runs on'
mutant "the kill does not hold the first process (no SIGSTOP)" \
    worker-docker/docker_execcall.c \
    "kill -STOP \$p 2>/dev/null && => true &&" contract/killrace
# ... and held before any kill: in the walk's order (by name, 1002
# before 996) the command may die first, and the subreaper with it.
mutant_expect 'nothing it forked runs on \(its first process held before any kill\)'
mutant "the kill holds the first process in the walk's order, after the command's kill" \
    worker-docker/docker_execcall.c \
    "has l \$p && ! has h \$p || continue => has l \$p || { kill -KILL \$p 2>/dev/null && left=1; continue; }; has h \$p && continue" \
    contract/killrace
mutant_expect "another exec's command beside it still runs"
mutant "the kill is not held to the command's mark" \
    worker-docker/docker_execcall.c \
    "EXEC_MARK_VAR \"=\$1 => EXEC_MARK_VAR \"= @@ -lzxsF => -lzsF"

mutant_expect "spaced answers after each of 8 removes under exec -i"
mutant "stdin in flight written after the stream ended" \
    worker-docker/docker_exec_stream.c \
    "if (ex->stream_over)\n\t\treturn;\n\tif (!ex->streaming) { => if (!ex->streaming) {" \
    contract/stdin-gone
mutants_end
