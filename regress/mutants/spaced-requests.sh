#!/bin/sh
# Mutation check of spaced's request, stream and control tables: each
# mutant removes one protection in supervisor/, and spaced-requests.sh
# must go red.  Builds each mutant in a copy of the tree under a temp dir;
# the tree itself is never modified.  About a minute a mutant.
# Usage: sh regress/mutants/spaced-requests.sh [label-substring]
# (the suite is spaced-requests.sh unless a mutant names another)
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ "old" => "new"...]> [suite]
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries build/regress/tools/hostile-worker \
	    build/regress/tools/fake_engine
	SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/integration/${4:-spaced-requests}.sh" \
	    >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile ""
mutant "$MUTANT_CONTROL" GNUmakefile "" spaced-concurrency
mutant "$MUTANT_CONTROL" GNUmakefile "" spaced-spaces

mutant_expect 'paused, not closed|spaced holds at most a window'
mutant "client output never pauses reading" supervisor/spaced/control.c \
    "imsg_event_pause_read(&cc->cc_iev, queued > CTL_OUT_SOFT); => imsg_event_pause_read(&cc->cc_iev, 0);"
mutant_expect 'outlives the idle timeout'
mutant "idle timer runs while a request is pending" supervisor/spaced/control.c \
    "if (cc->cc_pending > 0 || cc->cc_streams > 0) => if (0)"
# Redundant alone: the row's senders refuse what the waiting bits would
# (and the other way round); each is kept, and removing both must show.
mutant_expect 'spaced stops at the forged answer|the victim never saw the forged answer'
mutant "answers from any worker, due or not, taken" supervisor/spaced/request.c \
    "(ar->ar_senders & PROC_BIT(from)) == 0 || => 0 || @@ if ((r->r_waiting & PROC_BIT(from)) == 0) => if (0)" \
    spaced-concurrency
mutant_expect 'an answer for requests it was never given is fatal|a second answer to one request is fatal'
mutant "answers for no request ignored instead of fatal" supervisor/spaced/request.c \
    "for no pending request\",\\n\\t\\t    __func__, proc_title(from), type);\\n\\t\\treturn -1; => for no pending request\",\\n\\t\\t    __func__, proc_title(from), type);\\n\\t\\treturn 0;"
mutant_expect 'an fd (with an answer on spaced-docker'\''s|on spaced-git'\''s) channel'
mutant "fds with answers taken" supervisor/spaced/request.c \
    "if (imsg->fd != -1) => if (0)"
mutant_expect 'spaced-git is idle once every stream ended|the leaver'\''s request and stream are freed'
mutant "no cancel when the client leaves" supervisor/spaced/request.c \
    "r->r_answered = 1;	/* nobody to answer */ => r->r_answered = 1; r->r_cancelled = 1;"
mutant_expect 'a source that sends past its credit window is fatal'
mutant "streams relayed without their gauge" supervisor/spaced/streams.c \
    "stream_relay(iev, imsg, &s->s_gauge) => stream_relay(iev, imsg, NULL)"
mutant_expect 'a cancelled stream takes an END only from its own spaced-git'
mutant "a cancelled stream takes an END from any spaced-git" \
    supervisor/spaced/streams.c \
    "(want.ep_gone || !ep_equal(want, from))) { => from.ep_proc != want.ep_proc) {"
mutant_expect 'root still connects with every plain slot taken'
mutant "no reserve: plain users may take every control slot" \
    supervisor/spaced/control.c \
    "return uid == 0 || uid == geteuid(); => return 1;"
# The hosts file every space binds at /etc/hosts (supervisor/spaced/runtime.c).
mutant_expect 'a hosts file others may write is refused'
mutant "hosts file others may write taken" supervisor/spaced/runtime.c \
    "(sb.st_mode & 022) != 0 || => " spaced-spaces
mutant_expect 'a hosts file (with another line|that names gatekeeper elsewhere) is refused'
mutant "hosts file of any text taken" supervisor/spaced/runtime.c \
    "memcmp(buf, runtime_hosts_text, (size_t)n) == 0; => 1;" spaced-spaces
mutant_expect 'a hosts file swapped after start is refused'
mutant "the hosts file checked at start only" supervisor/spaced/runtime.c \
    "	if (lstat(rt.hosts_path, &at) == -1 || fstat(rt.hosts_fd, &sb) == -1 || => 	if ((0 && lstat(rt.hosts_path, &at) == -1) || fstat(rt.hosts_fd, &sb) == -1 || @@ sb.st_dev != at.st_dev || sb.st_ino != at.st_ino ||\n\t    !runtime_hosts_usable(rt.hosts_fd)) { => 0) {" \
    spaced-spaces
mutant_expect 'a hosts file in a folder others may write is refused'
mutant "folders on the hosts file's path unchecked" supervisor/spaced/runtime.c \
    "	if ((why = runtime_dirs_why(real)) != NULL) {\n\t\tlog_warnx(\"runtime: %s: %s (space create => 	if (0) {\n\t\tlog_warnx(\"runtime: %s: %s (space create" \
    spaced-spaces
mutant_expect 'no hosts file: refused'
mutant "create without a hosts file goes on" supervisor/spaced/space.c \
    "|| sq->sq_hosts[0] == => || sq->sq_hosts[0] + 1 ==" spaced-spaces

mutants_end
