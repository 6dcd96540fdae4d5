#!/bin/sh
# Mutation check of the server inside a space: each mutant removes one
# protection and its test (regress/agent/server.sh, offline) must go red.
# Built in a copy of the tree under a temp dir; the tree itself is never
# modified.  About 2 minutes a mutant; the deadline one about 4.
# Usage: sh regress/mutants/agent.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"> <suite | unit/NAME>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build "$1" binaries
	case "$4" in unit/*)
		mutant_build "$1" SANITIZE=1 "build-san/regress/$4"
		"$tmp/src/build-san/regress/$4" >"$tmp/run.log" 2>&1
		;;
	*)
		SPACED_BUILD="$tmp/src/build" sh "$tmp/src/regress/$4" \
		    >"$tmp/run.log" 2>&1
		;;
	esac
	mutant_judge "$1" $? '^not ok|Failing: [1-9]|FAIL'
}

# The controls: each way of running, on the unmutated tree.
mutant "$MUTANT_CONTROL" GNUmakefile "" agent/server.sh
mutant "$MUTANT_CONTROL" GNUmakefile "" unit/spaced

mutant_expect 'with it, server still answers the server'\''s own body'
mutant "curl reads the space user's ~/.curlrc (--disable dropped)" \
    common/proto/space_server.h '"--disable", => ' agent/server.sh
mutant_expect 'start of a server that never answers: space_server_not_ready|a create whose server is never ready: space_server_not_ready'
mutant "readiness without a deadline" supervisor/spaced/server.c \
    "if (waited(r) + pause / 1000.0 > agent_profile()->ag_ready_wait) { => if (0) {" \
    agent/server.sh
mutant_expect 'the token file is 0600 in a 0700 folder'
mutant "the token file readable by all (no umask)" common/proto/space_agent.h \
    "umask 077; => " agent/server.sh
mutant_expect 'a token'\''s write the engine refuses fails the create'
mutant "a token's write that failed is ignored (the create stands)" \
    worker-docker/space_create.c \
    "return sp->writes_token && sp->token_done && => return 0 && sp->writes_token && sp->token_done &&" \
    agent/server.sh
mutant_expect 'a huge token file: space_token_unreadable'
mutant "a token of any length taken" gatekeeper/spaced-journal/server_parse.c \
    "n < SERVER_TOKEN_MIN || n > SERVER_TOKEN_MAX) => 0)" agent/server.sh
mutant_expect 'a client that leaves while the server is awaited: its space is removed'
mutant "a create whose client left is not undone after the place" \
    supervisor/spaced/server.c "	if (sv->op != SV_OP_CREATE)
		return 0; => 	return 0;" agent/server.sh
mutant_expect 'and in no request: no Env, Cmd, label, path or header holds it'
mutant "the token in the exec's environment (every exec's stdin as Env)" \
    worker-docker/docker_exec.c \
    "docker_exec_mark_env(ex->mark) : NULL); => json_pack(\"[s+#]\", \"SPACED_STDIN=\", (const char *)ex->req.se_stdin, (int)ex->req.se_stdin_len) : NULL);" \
    agent/server.sh
mutant_expect 'password_variable_never_set_by_the_host'
mutant "a profile sets the password variable (the token in the container's env)" \
    common/proto/agent.c \
    "return \"the password variable is set from the token\"; => (void)0;" \
    unit/spaced
mutant_expect 'author_named_secrets_still_refused'
mutant "the author's exception a prefix (GIT_TOKEN passes)" \
    common/proto/agent.c \
    "\"GIT_AUTHOR_NAME\", \"GIT_AUTHOR_EMAIL\", \"GIT_AUTHOR_DATE\", NULL => \"GIT_\", NULL @@ if (strlen(agent_env_not_secret[j]) == n && => if (strlen(agent_env_not_secret[j]) <= n &&" \
    unit/spaced
mutant_expect 'author_named_secrets_still_refused'
mutant "no exception for the author (GIT_AUTHOR_NAME refused)" \
    common/proto/agent.c \
    "\"GIT_AUTHOR_NAME\", \"GIT_AUTHOR_EMAIL\", \"GIT_AUTHOR_DATE\", NULL => NULL" \
    unit/spaced
mutants_end
