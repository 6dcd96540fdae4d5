#!/bin/sh
# Mutation check of the native place's own suites (regress/native/):
# a missing limit accepted or refused, the gatekeeper's log turned over,
# exec -t, the agent's tools and server, a stuck exec helper.
# Each mutant names the suite it runs and the row that must go red.
# Built as mutants/native.sh builds (this tree's objects, only the
# mutated file rebuilt); under a minute each.
# Usage: sh regress/mutants/nsplace.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <suite> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$4" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/native/$3" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

O=worker-ns/ns_ops.c
C=worker-ns/ns_cgroup.c
G=worker-ns/ns_gklog.c

mutant "$MUTANT_CONTROL" GNUmakefile limits.sh ""
mutant_expect "create says the disk is full"
mutant "a full disk answered as an internal error" $O limits.sh \
    'full = errno == ENOSPC || errno == EDQUOT; => full = 0;'
mutant "$MUTANT_CONTROL" GNUmakefile gklog.sh ""

mutant_expect "with pids accepted, create makes the space"
mutant "create ignores what spaced.conf accepts" $O limits.sh \
    'ns_limit_first(absent & ~sq->sq_limits_accept) => ns_limit_first(absent)'
mutant_expect "^create -p native refuses"
mutant "create goes on without a limit nobody accepted" $O limits.sh \
    'ns_limit_first(absent & ~sq->sq_limits_accept) => ns_limit_first(0)'
mutant_expect "^verify names the missing limit"
mutant "verify is silent about a missing limit" $O limits.sh \
    'if ((absent & bit) == 0) => if (1)'
mutant_expect "a pids group taken away"
mutant "verify skips whatever a group lacks" $O limits.sh \
    'skip = host & ns_cgroup_absent(ns->ns_id); => skip = ns_cgroup_absent(ns->ns_id);'
mutant_expect "remove leaves none of them"
mutant "processes found through the pids group only" $C limits.sh \
    'cg_read(r->cr_ctl, name, "cgroup.procs",\n\t\t    buf, sizeof(buf)) == 0)\n\t\t\tbreak; => cg_read("pids", name, "cgroup.procs",\n\t\t    buf, sizeof(buf)) == 0)\n\t\t\tbreak;'
mutant_expect "under umask 077 a native space is made"
mutant "spaced-ns keeps spaced's umask (077: its folders root's 0700)" \
    worker-ns/main.c limits.sh 'umask(022); => '
mutant_expect "create naming no place says the default place"
mutant "a create sent native by spaced.conf is not told so" \
    supervisor/spaced/place.c limits.sh \
    'if (!r->r_place_default || r->r_place != PROC_NS || => if (1 ||'
mutant_expect "it says nothing of the default place"
mutant "the default place said where native was asked for" \
    supervisor/spaced/place.c limits.sh \
    'if (!r->r_place_default || r->r_place != PROC_NS || => if ('
mutant_expect "gk.log is under the cap"
mutant "gk.log never turned over" $G gklog.sh \
    'if (g->size + (off_t)n <= g->max) { => if (1) {'
mutant_expect "made its stdout its own"
mutant "the gatekeeper's stdout pipe stays root's" $G gklog.sh \
    'if (fchown(p[1], owner, owner) == -1) => if (0)'
mutant_expect "begins with a whole line"
mutant "turned over mid-line" $G gklog.sh \
    "head = (nl = memrchr(buf, '\\\\n', n)) != NULL ? nl - buf + 1 : 0; => head = 0; (void)nl;"
mutant "$MUTANT_CONTROL" GNUmakefile tty.sh ""
mutant_expect "^tty: a terminal"
mutant "exec -t without a terminal on native" worker-ns/ns_exec.c tty.sh \
    'if (se.se_tty && !se.se_target && socketpair( => if (0 && socketpair('
mutant_expect "^the resize is seen inside"
mutant "resizes go to spaced-docker only" supervisor/spaced/streams.c tty.sh \
    'if (worker_compose(s->s_src.ep_proc, IMSG_SPACE_EXEC_RESIZE, => if (worker_compose(PROC_DOCKER, IMSG_SPACE_EXEC_RESIZE,'
mutant_expect "^SIGKILL: the terminal stays raw"
mutant "a cancelled exec goes on talking on its streams" worker-ns/ns_exec.c tty.sh \
    'x->tx_open = x->rx_open = 0;\n\t\tnx_free(x); => (void)0;'
# The agent on native (agent.sh, its tools from the cache).
mutant "$MUTANT_CONTROL" GNUmakefile agent.sh ""
mutant_expect "^this run's model took a /30 of its own|^prompt: exits 0"
mutant "the model takes the /30 it wishes for, held by another run or not" \
    regress/lib/netblock.sh agent.sh \
    'nb=$(netblock_free "${4##*.}") && => nb=$((${4##*.} / 4 * 4)) &&'
mutant_expect "another owner's space, token: as an unknown ID"
mutant "the token's read says the space does not run for no space of the caller's" \
    supervisor/spaced/server.c agent.sh \
    'ERR_SPACE_NOT_FOUND) == 0 ? "" : "the token " => ERR_SPACE_NOT_FOUND) == 2 ? "" : "the token "'
mutant_expect "prompt before a grant"
mutant "a refused turn says nothing of the grant to give" \
    supervisor/spacectl/spacectl_answer.c agent.sh \
    'if (w->status != 401 && w->status != 403) => if (1)'
mutant_expect "^prompt: exits 0 .*after the refused one"
mutant "the gatekeeper's drain sends no FIN after a refusal (the grant to give)" \
    gatekeeper/spaced-gatekeeper/gk_util.c agent.sh \
    '(void)shutdown(bufferevent_getfd(bev), SHUT_WR); => (void)bev;'
mutant_expect "^read-only$"
mutant "the agent's tools bound read-write" worker-ns/ns_space.c agent.sh \
    'SPACE_TOOLS_DIR, nl->nl_tools_rw, 0) == -1) => SPACE_TOOLS_DIR, 1, 0) == -1)'
mutant_expect "^verify names it: tools_writable"
mutant "the agent's tools' mount unread by verify" worker-ns/ns_ops.c agent.sh \
    'if (tools_writable(pid) == 1) => if (tools_writable(pid) == 2)'
mutant_expect "^a command the server ran could make no user namespace"
mutant "the agent's server without the space filter (pid 1 without it)" \
    worker-ns/ns_space.c agent.sh \
    'if (ns_filter_space() == -1)\n\t\tdie(errfd, "seccomp");\n\t/* The space => /* The space'
mutant_expect "^OpenCode ran the command in the space's folder"
mutant "the agent's server in the space's HOME, not its folder" \
    worker-ns/ns_space.c agent.sh \
    'if (chdir(folder) == -1 && chdir("/home/space") == -1) => if (chdir("/home/space") == -1)'
mutant_expect "the pipe is root's, mode 600"
mutant "the relay's stderr pipe is another uid's" $G agent.sh \
    'gkl_new(id, (uid_t)-1, relay_err, => gkl_new(id, (uid_t)1, relay_err,'
mutant_expect "only the relay and its keeper hold it"
mutant "the space's pid 1 keeps the relay's stderr" worker-ns/ns_space.c \
    agent.sh 'close(errfd);\n\tif (relayerr != -1)\n\t\tclose(relayerr); => close(errfd);'
mutant_expect "the restart is one line of relay.err"
mutant "the relay's stderr stays /dev/null" worker-ns/ns_ops.c agent.sh \
    'nl->nl_restarts = 1; => nl->nl_restarts = 0;'
mutant_expect "^and nothing of the one-shot is left"
mutant "a fill child that dies leaves its one-shot" worker-ns/ns_tools.c \
    agent.sh '(void)ns_end_all(fl.oneshot.ns_id); => return;'

# One space's stuck exec helper and the others (native/helper.sh).
mutant "$MUTANT_CONTROL" GNUmakefile helper.sh ""
mutant_expect "another space's exec completes"
mutant "a send to a space's helper waits for room" worker-ns/ns_helper.c \
    helper.sh 'MSG_NOSIGNAL | MSG_DONTWAIT) == => MSG_NOSIGNAL) =='
mutant_expect "creates whose client left: no space stands unannounced"
mutant "a native create whose client left is cancelled, not undone" \
    supervisor/spaced/server.c helper.sh \
    'if (!sv->made && (sv->step != SV_PLACE || r->r_place != PROC_NS)) => if (!sv->made)'
mutant_expect "the spaces that stand \\([0-9]+\\) are followed"
mutant "a space a create made is not followed (its journal uncollected)" \
    supervisor/spaced/server.c helper.sh \
    'sv->have_info = 1;\n\tcollect_follow(r->r_uid, sv->info.si_id); => sv->have_info = 1;'
mutants_end
