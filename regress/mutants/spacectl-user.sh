#!/bin/sh
# Mutation check of integration/spacectl-user.sh: the cap on an owner's
# native spaces, exec -j's U+FFFD, a space name that is not UTF-8, and
# the second trial's: another owner's space seen as an unknown one, the
# Docker 127, the grant and domain checks of spacectl, the stream
# table's shares of a uid and of plain users.  Each
# mutant names the row that must go red.  Built as mutants/nsplace.sh
# builds (this tree's objects, only the mutated file rebuilt); under a
# minute each.  Usage: sh regress/mutants/spacectl-user.sh [label-substring]
. "$(dirname "$0")/lib.sh"

# mutant <label> <file> <"old" => "new"[ @@ ...]>
mutant() {
	mutant_apply "$1" "$2" "$3" || return 0
	mutant_build_quick "$1" "$2"
	SPACED_BUILD="$tmp/src/build" timeout 600 \
	    sh "$tmp/src/regress/integration/spacectl-user.sh" >"$tmp/run.log" 2>&1
	mutant_judge "$1" $? '^not ok'
}

mutant "$MUTANT_CONTROL" GNUmakefile ""

mutant_expect "exec -g -T is refused, saying why"
mutant "exec -g -T taken: a command in the gatekeeper runs on past its time" \
    supervisor/spaced/exec.c \
    "if (cx.cx_target == EXEC_TARGET_GATEKEEPER && cx.cx_timeout_ms != 0) { => if (0) {"

mutant_expect "^a third: too_many_spaces"
mutant "native create counts no spaces of the owner" worker-ns/ns_ops.c \
    'if (sq->sq_spaces_max > 0 && => if (0 && sq->sq_spaces_max > 0 &&'
mutant_expect "a byte that is not UTF-8 is U.FFFD"
mutant "exec -j loses output that is not UTF-8" \
    supervisor/spacectl/spacectl_output.c \
    'o = json_stringn_nocheck(fixed, out); => o = json_stringn_nocheck("", 0);'
mutant_expect "^create -n with bytes that are not UTF-8"
mutant "a name's bytes taken one by one" common/proto/labels.c \
    'if ((len = utf8_char_len(p + n, all - n)) == 0 || => if ((len = 1) == 0 ||'

# The second trial's protections and refusals.
mutant_expect "^another owner's space, exec: as an unknown ID"
mutant "native exec says another owner's space exists" worker-ns/ns_exec.c \
    "why = ERR_SPACE_NOT_FOUND;	/* no space of the caller's */ => why = ERR_SPACE_NOT_OURS;"
mutant_expect "nobody's stop did nothing|^another owner's space, stop"
mutant "the native place acts on another owner's space" worker-ns/ns_ops.c \
    'strcmp(ns->ns_owner, sq->sq_owner) != 0) { => 0) {'
mutant_expect "^Docker: journal of an unknown ID"
mutant "Docker: an unknown id's missing gatekeeper is gatekeeper_missing" \
    worker-docker/docker_logs.c \
    'lg_done(lg, engine_inspect_ours(p, lg->req.sl_space.sq_owner, => lg_done(lg, 1 || engine_inspect_ours(p, lg->req.sl_space.sq_owner,'
mutant_expect "^Docker: a path that is not there exits 127"
mutant "Docker: a command never started keeps the engine's 126" \
    worker-docker/docker_exec.c \
    'ex_done(rq, "", NULL, p->dp_status == 404 ? 127 : 126); => ex_done(rq, "", NULL, 126);'
mutant_expect "^grant of a secret with a control byte"
mutant "spacectl sends a secret with a control byte" \
    supervisor/spacectl/spacectl_gk.c \
    'if ((why = secret_why(cg->cg_secret, n)) != NULL) { => if ((why = secret_why(cg->cg_secret, n)) != NULL && 0) {'
mutant_expect "^network allowlist 'bad domain'"
mutant "spacectl sends a name the corridor never takes" \
    supervisor/spacectl/spacectl_gk.c \
    'if ((why = domain_why(argv[i])) != NULL) { => if ((why = domain_why(argv[i])) != NULL && 0) {'
mutant_expect "another owner's space, code-in: as an unknown ID"
mutant "code-in wraps the place's space_not_found as a transfer failure" \
    supervisor/spaced/codein.c \
    'if (strcmp(sd.sd_code, ERR_SPACE_NOT_FOUND) == 0) { => if (0) {'
mutant_expect "prompt -s S ID: the ID comes before the options"
mutant "an option where the ID goes gets the ID's shape alone" \
    supervisor/spacectl/spacectl_args.c \
    "if (id[0] == '-')\n\t\tfailed( => if (0)\n\t\tfailed("
mutant_expect "exec NAME: a space is named by its ID, spacectl list shows them"
mutant "a name where the ID goes gets the ID's shape alone (as before)" \
    supervisor/spacectl/spacectl_args.c \
    "if (id[strspn(id, \"0123456789abcdefABCDEF\")] != '\\\\0') => if (0)"

# One user's streams (review 2026-12-06 F1): the stream table's shares.
mutant_expect "^  root's exec runs meanwhile"
mutant "one uid's requests may hold the whole stream table" \
    supervisor/spaced/streams.c \
    'if (!stream_plain(r)) => if (1)'
mutant_expect "^nobody's 32 execs at once"
mutant "a uid's own streams are not counted" supervisor/spaced/streams.c \
    'return mine < STREAMS_PER_UID && plain < STREAMS_PLAIN_MAX; => return plain < STREAMS_PLAIN_MAX;'
mutant_expect "a fourth plain user's exec answers busy"
mutant "plain users together are not capped" supervisor/spaced/streams.c \
    'return mine < STREAMS_PER_UID && plain < STREAMS_PLAIN_MAX; => return mine < STREAMS_PER_UID;'

mutant_expect "^another owner's space, (code-in|history)"
mutant "code-in and history do not look the space up first" \
    supervisor/spaced/codein.c \
    'if (place_lookup_done(r, from, imsg) == 0)\n\t\t\tcodein_looked(r); => codein_looked(r);'

mutant_expect "^a raw code-in without DIR"
mutant "code-in takes a request without DIR" supervisor/spaced/ctl_check.c \
    "((history && ci->ci_dir[0] == '\\\\0') || => ((ci->ci_dir[0] == '\\\\0') ||"

mutants_end
