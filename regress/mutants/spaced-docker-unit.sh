#!/bin/sh
# Mutation check of the Docker client: each mutant removes or weakens one
# protection in worker-docker/, and the named unit tests must go red.
# Builds by hand in a temp dir from copies; the tree is never modified.
# Usage: sh regress/mutants/spaced-docker-unit.sh   (needs a Docker daemon for
# the live tests).  Prints one line per mutant and "N killed, N survived";
# exits 1 when a mutant survives or the unmutated sources fail.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CF="-std=gnu11 -O0 -g -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
    -I. -Icommon/lib -Icommon/proto -Iworker-docker -Iregress/lib \
    $(pkg-config --cflags libbsd-overlay libevent jansson libseccomp)"
LIBS="$(pkg-config --libs libbsd-overlay libevent jansson libseccomp openssl) -lpthread"
# The async suite drives a worker binary: the mutant's own, built below.
make -s binaries build/regress/tools/fake_engine >/dev/null || exit 1
export FAKE_ENGINE_BIN="$PWD/build/regress/tools/fake_engine"
export SPACED_DOCKER_BIN="$tmp/spaced-docker"
# The place's own tests in regress/unit/spaced-docker (not the harden
# and tools ones, which link the same objects), and their helper.
DOCKER_TESTS="regress/unit/spaced-docker/async.c regress/unit/spaced-docker/check.c
regress/unit/spaced-docker/frames.c regress/unit/spaced-docker/inproc.c
regress/unit/spaced-docker/live.c regress/unit/spaced-docker/parse.c
regress/unit/spaced-docker/req.c regress/lib/worker_harness.c"
killed=0
survived=0

# build <file to mutate or -> <"old" => "new" [@@ "old" => "new" ...]>
build() {
	mkdir -p "$tmp/src"
	cp worker-docker/docker_*.c worker-docker/space_*.c \
	    worker-docker/tools_*.c worker-docker/listing_parse.c \
	    worker-docker/create_parse.c "$tmp/src/"
	if [ "$1" != - ]; then
		python3 - "worker-docker/$1" "$2" <<'PY' >"$tmp/src/$1" || return 1
import sys
src = open(sys.argv[1]).read()
for pair in sys.argv[2].split("@@"):
    old, new = pair.split("=>")
    old = old.strip().encode().decode("unicode_escape")
    new = new.strip().encode().decode("unicode_escape")
    if src.count(old) != 1:
        sys.exit("mutation anchor not found once: %r" % old)
    src = src.replace(old, new)
sys.stdout.write(src)
PY
	fi
	# shellcheck disable=SC2086
	cc $CF -o "$tmp/t" "$tmp"/src/*_*.c worker-docker/docker.c \
	    worker-docker/sandbox.c $DOCKER_TESTS build/libcommon.a \
	    $LIBS $(pkg-config --libs criterion) 2>"$tmp/cc.log" &&
	cc $CF -o "$tmp/spaced-docker" "$tmp"/src/*_*.c \
	    worker-docker/docker.c worker-docker/sandbox.c worker-docker/main.c \
	    build/libcommon.a $LIBS 2>>"$tmp/cc.log"
}

# mutant <label> <file> <replacement> <criterion filter>
mutant() {
	if ! build "$2" "$3"; then
		echo "BROKEN mutant: $1"; cat "$tmp/cc.log"; exit 1
	fi
	if "$tmp/t" --timeout 30 --filter "$4" >"$tmp/run.log" 2>&1; then
		echo "SURVIVED: $1"
		survived=$((survived + 1))
	else
		echo "killed: $1 ($(grep -c '^\[FAIL\]' "$tmp/run.log") failing)"
		killed=$((killed + 1))
	fi
}

build - "" || { cat "$tmp/cc.log"; exit 1; }
"$tmp/t" --timeout 30 >"$tmp/run.log" 2>&1 || {
	echo "unmutated sources fail"; grep -A3 FAIL "$tmp/run.log"; exit 1; }

mutant "no header block cap" docker_parse.c \
    "++p->dp_hdr_bytes > DOCKER_HDR_MAX => ++p->dp_hdr_bytes > (size_t)-1" \
    "parse/header_block_cap"
mutant "no trailer block cap" docker_parse.c \
    "if (++p->dp_hdr_bytes > DOCKER_HDR_MAX) => if (p->dp_state != ST_TRAILER && ++p->dp_hdr_bytes > DOCKER_HDR_MAX)" \
    "parse/trailer_block_cap"
mutant "no body cap while reading" docker_parse.c \
    "if (n > p->dp_body_cap - p->dp_body_len)\n\t\treturn \"body over cap\"; => (void)0;" \
    "parse/body_cap"
mutant "announced length not checked against cap" docker_parse.c \
    "if ((uint64_t)p->dp_length > p->dp_body_cap) => if (0)" \
    "parse/body_cap"
mutant "disagreeing Content-Length accepted" docker_parse.c \
    "p->dp_length != -1 && p->dp_length != n => 0" \
    "parse/duplicate_content_length"
mutant "Content-Length digits unbounded" docker_parse.c \
    "++digits > LENGTH_DIGITS_MAX => ++digits > 1000" \
    "parse/bad_content_length"
mutant "sign accepted in Content-Length" docker_parse.c \
    "if (!isdigit((unsigned char)*v)) => if (*v == '+') continue; if (!isdigit((unsigned char)*v))" \
    "parse/bad_content_length"
mutant "both CL and TE accepted" docker_parse.c \
    "p->dp_seen_te && p->dp_length != -1 => 0" \
    "parse/framing_conflicts"
mutant "any Transfer-Encoding taken as chunked" docker_parse.c \
    "p->dp_seen_te || strcasecmp(value, \"chunked\") != 0 => 0" \
    "parse/framing_conflicts"
mutant "chunk size overflow unchecked" docker_parse.c \
    "++digits > CHUNK_HEX_DIGITS_MAX => ++digits > 1000" \
    "parse/bad_chunk_size"
mutant "junk after chunk size accepted" docker_parse.c \
    "if (*s != '\\\\0' && *s != ';')\n\t\treturn fail(p, \"bad chunk size\"); => (void)0;" \
    "parse/bad_chunk_size"
mutant "chunk data not followed by CRLF" docker_parse.c \
    "if (b[i++] != '\\\\r') => if (b[i++] == 0)" \
    "parse/bad_chunk_size"
mutant "bare LF accepted" docker_parse.c \
    "if (n == 0 || p->dp_line[n - 1] != '\\\\r')\n\t\t\treturn -1; => if (n > 0 && p->dp_line[n - 1] == '\\\\r') n--;" \
    "parse/line_endings_and_fields"
mutant "obs-fold accepted" docker_parse.c \
    "return fail(p, \"obsolete header folding\"); => return DP_NEED_MORE;" \
    "parse/line_endings_and_fields"
mutant "status line not required" docker_parse.c \
    "return fail(p, \"no HTTP/1.x status line\"); => { p->dp_state = ST_HEADER; return DP_NEED_MORE; }" \
    "parse/missing_or_bad_status_line"
mutant "HTTP/1.0 keeps the connection" docker_parse.c \
    "\t\tp->dp_close = 1;\n\t\tif (p->dp_seen_te) => \t\tif (p->dp_seen_te)" \
    "parse/http10"
mutant "EOF mid-body is complete" docker_parse.c \
    "return fail(p, \"answer truncated\"); => return DP_COMPLETE;" \
    "parse/*"
mutant "duplicate JSON keys accepted" docker_check.c \
    "root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err); => root = json_loadb(body, len, 0, &err);" \
    "check/duplicate_keys"
mutant "overlong fields truncated" docker_check.c \
    "if (n == 0 || n >= dstlen) => if (n == 0) @@ if (strlcpy(dst, s, dstlen) >= dstlen) => if (strlcpy(dst, s, dstlen) >= dstlen && 0)" \
    "check/fields_refused_not_truncated"
mutant "control characters in fields" docker_check.c \
    "if (s[i] < 0x20 || s[i] > 0x7e) => if (0)" \
    "check/fields_refused_not_truncated"
mutant "no minimum API" docker_check.c \
    "if (api_cmp(&t, &lo) < 0) => if (0)" "check/too_old"
mutant "API compared as strings" docker_check.c \
    "if (api_cmp(&t, &lo) < 0) => if (strcmp(theirs, DOCKER_API_OURS_MIN) < 0)" \
    "negotiate/*"
mutant "their minimum ignored" docker_check.c \
    "if (api_cmp(&tmin, &hi) > 0) => if (0)" "check/too_new"
mutant "ours max ignored" docker_check.c \
    "use = api_cmp(&t, &hi) < 0 ? t : hi; => use = t;" "negotiate/*"
mutant "non-200 /version accepted" docker_ops.c \
    "if (p->dp_status != 200) {\n\t\tlog_warnx(\"docker: GET /version => if (0) {\n\t\tlog_warnx(\"docker: GET /version" "check/not_200"
mutant "no deadline" docker_req.c \
    "if (evtimer_add(rq->rq_timer, &tv) == -1) => if (0)" \
    "check/slow_engine_times_out"
mutant "the op's deadline, not the request's" docker_req.c \
    "if (timeout_ms <= 0) => if (1)" "check/slow_engine_times_out"
mutant "unsafe path sent" docker_http.c \
    "if (*s <= 0x20 || *s >= 0x7f)\n\t\t\treturn 0; => (void)0;" \
    "http/request_head"
mutant "closed-at-once reported as unreadable" docker_req.c \
    "if (rq->rq_got == 0) { => if (0) {" "check/closes_early"
mutant "one request at a time (waits for its answer)" docker_req.c \
    "#include <errno.h> => #include <errno.h>\n#include <poll.h> @@ return rq_send(rq, &cl);\n} => if (rq_send(rq, &cl) == -1) return -1; { struct pollfd pf = { fd, POLLIN, 0 }; poll(&pf, 1, -1); } return 0; }" \
    "async/ten_*"
mutant "cancel keeps the fd" docker_req.c \
    "if (rq->rq_fd != -1)\n\t\tclose(rq->rq_fd);\n\tif (rq->rq_timer != NULL) => if (rq->rq_timer != NULL)" \
    "req/cancel_frees*"
mutant "cancel keeps the timer" docker_req.c \
    "if (rq->rq_timer != NULL)\n\t\tevent_free(rq->rq_timer); => (void)0;" \
    "req/cancel_frees*"
mutant "cancel answers" docker_req.c \
    "\t\t\trq_free(rq);\n\t\t\tn++; => \t\t\tmemset(&cl, 0, sizeof(cl)); (void)rq->rq_op->op_fail(rq, \"x\", 0, &cl); rq_free(rq);\n\t\t\tn++;" \
    "req/cancel_frees*"
mutant "no in-flight cap" docker_req.c \
    "if (env->de_nreqs > DOCKER_REQ_MAX) { => if (0) {" "req/in_flight_cap*"
mutant "second call after the engine closes" docker_req.c \
    "if (rq->rq_answer.dp_close || rq->rq_answer.dp_upgraded) { => if (0) {" \
    "req/no_second_call_after_close"
mutant "bytes before asking taken as the answer" docker_req.c \
    "if (evbuffer_get_length(bufferevent_get_input(rq->rq_bev)) > 0) { => if (0) {" \
    "req/bytes_before_asking_refused"
mutant "answers carry no peerid" docker_req.c \
    "env->de_reply(rq->rq_op->op_rep, rq->rq_peerid, data, len); => env->de_reply(rq->rq_op->op_rep, 0, data, len);" \
    "async/hostile*"
mutant "non-sockets taken" docker_req.c \
    "!S_ISSOCK(sb.st_mode) || => " "check/not_a_socket"
mutant "unversioned /version path" docker_ops.c \
    "strlcpy(cl->cl_path, \"/version\", => strlcpy(cl->cl_path, \"/v1.41/version\"," "check/*"
mutant "check reports a foreign value" docker_check.c \
    "copy_field(root, \"ApiVersion\", out->dc_api_version, => copy_field(root, \"MinAPIVersion\", out->dc_api_version," \
    "live/*"

echo "$killed killed, $survived survived"
[ "$survived" -eq 0 ]
