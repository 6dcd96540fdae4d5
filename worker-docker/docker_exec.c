/*
 * Copyright (c) 2026 The spaced developers
 *
 * Permission to use, copy, modify, and distribute this software for any
 * purpose with or without fee is hereby granted, provided that the above
 * copyright notice and this permission notice appear in all copies.
 *
 * THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 * WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 * MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 * ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 * WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 * ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 * OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
 */

/*
 * exec: argv in a space or its gatekeeper, as the image's user, through
 * the Engine's exec and its hijacked stream (docker_exec_stream.c),
 * after the target's labels were checked.  A command past -T, or whose
 * client left, is ended from inside the space (docker_execcall.h).
 */

#include <sys/types.h>

#include <errno.h>
#include <event2/buffer.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "stream.h"
#include "docker_check.h"
#include "docker_execcall.h"
#include "docker_frames.h"
#include "docker_harden.h"
#include "docker_parse.h"
#include "docker_channel.h"
#include "docker_engine.h"
#include "docker_ops.h"
#include "docker_exec.h"

#define EX_SMALL_CAP		(256 * 1024)
#define EX_NO_DEADLINE_MS	(7 * 24 * 3600 * 1000)	/* a week */
#define EX_EXIT_POLL_MS		20
#define EX_EXIT_POLLS		250	/* 5 s for the engine to reap */

static void
ex_done(struct docker_req *rq, const char *code, const char *message,
    int exit_code)
{
	struct ex		*ex = docker_req_state(rq);
	struct space_done	 sd;

	ex_first_flush(ex, ex->never_ran ? EXEC_OUT_STDERR : EXEC_OUT_STDOUT);
	docker_channel_tx_end(&ex->tx, &ex->tx_open, code[0] == '\0');
	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	if (message != NULL)
		strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	sd.sd_exit = exit_code;
	docker_req_reply(rq, &sd, sizeof(sd));
}

/* --- the calls -------------------------------------------------------- */

static int
ex_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct ex	*ex = docker_req_state(rq);
	size_t		 i, n;

	memcpy(&ex->req, data, sizeof(ex->req));
	ex->rq = rq;
	if ((ex->held = evbuffer_new()) == NULL)
		fatal("%s: evbuffer_new", __func__);
	frame_reader_init(&ex->fr);
	/* spaced built it; still, an argv is only what it says it is */
	if (!space_owner_valid(ex->req.se_space.sq_owner) ||
	    !space_id_valid(ex->req.se_space.sq_id) ||
	    ex->req.se_argc == 0 || ex->req.se_argc > SPACE_EXEC_ARGC_MAX ||
	    ex->req.se_argv_len == 0 ||
	    ex->req.se_argv_len > SPACE_EXEC_ARGV_MAX ||
	    ex->req.se_argv[ex->req.se_argv_len - 1] != '\0' ||
	    ex->req.se_stdin_len > SPACE_EXEC_STDIN_MAX ||
	    ex->req.se_tty > 1)
		return -1;
	ex->tty.want_rows = ex->req.se_rows;
	ex->tty.want_cols = ex->req.se_cols;
	for (i = n = 0; i < ex->req.se_argv_len; i++)
		if (ex->req.se_argv[i] == '\0')
			n++;
	if (n != ex->req.se_argc)
		return -1;
	/*
	 * The streams first: their messages may come at once.  A full
	 * table (an exec's streams stay while its -T kill runs) is busy,
	 * never bad_request.
	 */
	if (ex->req.se_out_stream != 0) {
		stream_tx_init(&ex->tx, ex->req.se_out_stream);
		if (worker_stream_register(ex->req.se_out_stream,
		    ex_stream_msg, ex) == -1)
			goto refused;
		ex->tx_open = 1;
	}
	if (ex->req.se_in_stream != 0) {
		stream_rx_init(&ex->rx, ex->req.se_in_stream);
		if (worker_stream_register(ex->req.se_in_stream,
		    ex_stream_msg, ex) == -1)
			goto refused;
		ex->rx_open = 1;
	}
	if (ex->req.se_stdin_len > 0)
		ex_stdin_write(ex, ex->req.se_stdin, ex->req.se_stdin_len);
	if (ex->req.se_in_stream == 0)
		ex->stdin_done = 1;
	if (ex->req.se_target != EXEC_TARGET_SPACE &&
	    ex->req.se_target != EXEC_TARGET_GATEKEEPER)
		return -1;
	/* The command's own limit; a timeout kills our end, not its process. */
	if (ex->req.se_timeout_ms > 0)
		docker_req_deadline(rq, ex->req.se_timeout_ms);
	ex->step = E_VERSION;
	cl->cl_method = "GET";
	if (docker_api_cached() != NULL) {
		strlcpy(ex->api, docker_api_cached(), sizeof(ex->api));
		strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	} else
		strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	return 0;
refused:
	ex->refused = errno == ENOSPC ? ERR_BUSY : ERR_INTERNAL;
	log_warnx("exec: stream %u or %u: %s", ex->req.se_out_stream,
	    ex->req.se_in_stream, strerror(errno));
	return -1;
}

static void
container_name(struct ex *ex, char *buf, size_t len)
{
	if (space_resource_name(buf, len, ex->req.se_space.sq_id,
	    ex->req.se_target == EXEC_TARGET_SPACE ? ROLE_SPACE :
	    ROLE_GATEKEEPER) == -1)
		fatalx("%s: bad id", __func__);
}

/*
 * The engine answers 126 for any command it could not start (its Pid
 * 0); a shell, and the native place, say 127 when it is not there.  A
 * name without '/' was looked for in PATH, executables only: not
 * found.  A path is asked of the engine (a stat, no byte of the space);
 * a relative one from the container's folder (its inspect's WorkingDir:
 * the space's own, / in the gatekeeper), where every exec begins.
 * 1: that HEAD is in next; 0: *code is the answer.
 */
static int
ex_missing(struct ex *ex, struct docker_call *next, int *code)
{
	const char	*argv0 = ex->req.se_argv;
	char		 name[SPACE_RESOURCE_MAX], path[DOCKER_PATH_MAX / 2];
	char		 full[DOCKER_PATH_MAX / 2];
	int		 n;

	if (strchr(argv0, '/') == NULL) {
		*code = 127;
		return 0;
	}
	if (argv0[0] == '/')
		n = snprintf(full, sizeof(full), "%s", argv0);
	else
		n = snprintf(full, sizeof(full), "%s/%s", ex->workdir, argv0);
	if (n < 0 || (size_t)n >= sizeof(full) ||
	    docker_urlencode(full, path, sizeof(path)) == -1)
		return 0;
	container_name(ex, name, sizeof(name));
	ex->step = E_WHICH;
	docker_call_fmt(next, ex->api, "HEAD", EX_SMALL_CAP,
	    "/containers/%s/archive?path=%s", name, path);
	return 1;
}

/* Where the engine starts the command, without its last '/': / is "". */
static void
ex_workdir(struct ex *ex, json_t *inspect)
{
	const char	*wd;
	size_t		 n;

	wd = json_string_value(json_object_get(json_object_get(inspect,
	    "Config"), "WorkingDir"));
	if (wd == NULL || wd[0] != '/' || strlcpy(ex->workdir, wd,
	    sizeof(ex->workdir)) >= sizeof(ex->workdir))
		ex->workdir[0] = '\0';
	n = strlen(ex->workdir);
	while (n > 0 && ex->workdir[n - 1] == '/')
		ex->workdir[--n] = '\0';
}

/* In the space, as the space's own uid, whatever its image says. */
static int
ex_user(struct ex *ex, char *user, size_t len)
{
	const struct space_req	*sq = &ex->req.se_space;
	uint32_t		 uid;

	if (ex->req.se_target != EXEC_TARGET_SPACE)
		return strlcpy(user, HARDEN_GK_USER, len) < len ? 0 : -1;
	uid = harden_space_uid(sq->sq_id, sq->sq_uid_first, sq->sq_uid_count);
	return uid == 0 ? -1 : harden_user(user, len, uid);
}

static json_t *
exec_body(struct ex *ex)
{
	json_t			*argv;
	const char		*a = ex->req.se_argv;
	const char		*end = a + ex->req.se_argv_len;
	char			 user[HARDEN_USER_MAX];
	json_t			*o;

	if (ex_user(ex, user, sizeof(user)) == -1)
		return NULL;
	/* The gatekeeper has no shell to end a command with. */
	if (ex->req.se_target == EXEC_TARGET_SPACE)
		docker_exec_mark(ex->mark, sizeof(ex->mark));
	if ((argv = json_array()) == NULL)
		return NULL;
	for (; a < end; a += strlen(a) + 1)
		json_array_append_new(argv, json_string(a));
	if (ex->wrap && (argv = docker_exec_wrap(argv)) == NULL)
		return NULL;
	o = docker_exec_body(argv, user, ex->mark[0] != '\0' ?
	    docker_exec_mark_env(ex->mark) : NULL);
	if (o != NULL && ex->req.se_tty &&
	    json_object_set_new(o, "Tty", json_true()) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * The size wanted goes out when the exec exists and no resize is in
 * flight; one that came meanwhile follows the answer.  The first
 * spawns the resize child; it keeps its connection and waits for the
 * next, so a flood of sizes costs the engine one connection.
 */
static void
ex_resize_next(struct docker_req *rq)
{
	struct ex		*ex = docker_req_state(rq);
	struct exec_tty		*t = &ex->tty;
	struct docker_req	*child;
	struct exec_resize_req	 rz;

	if (!ex->req.se_tty || t->busy || ex->exec_id[0] == '\0' ||
	    ex->stream_over || t->want_rows == 0 || t->want_cols == 0 ||
	    (t->want_rows == t->sent_rows && t->want_cols == t->sent_cols))
		return;
	if ((child = docker_req_child(rq)) != NULL) {
		if (docker_exec_resize_more(child) == -1)
			log_warnx("exec: resize: its connection is gone");
		return;
	}
	memset(&rz, 0, sizeof(rz));
	strlcpy(rz.rz_api, ex->api, sizeof(rz.rz_api));
	strlcpy(rz.rz_exec_id, ex->exec_id, sizeof(rz.rz_exec_id));
	rz.rz_tty = t;
	(void)docker_req_spawn(rq, &docker_exec_resize_op, &rz, sizeof(rz));
}

/* spaced passed on the client's new window size. */
void
docker_exec_resize(uint32_t peerid, const struct space_exec_resize *er)
{
	struct docker_req	*rq;
	struct ex		*ex;

	if ((rq = docker_req_find(peerid, &docker_exec_op)) == NULL)
		return;	/* it ended while the size came */
	ex = docker_req_state(rq);
	ex->tty.want_rows = er->er_rows;
	ex->tty.want_cols = er->er_cols;
	ex_resize_next(rq);
}

/*
 * A child answered.  Without a terminal it is the held first frame's
 * question (docker_exec_started.c): a yes makes the bytes the
 * command's.  With one, the resize child ended (its connection broke,
 * or a deadline): logged, the terminal goes on; a later size spawns
 * another.
 */
static enum docker_next
ex_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct ex		*ex = docker_req_state(rq);
	struct space_done	 sd;
	int			 started;

	if (!ex->req.se_tty) {
		if (len == sizeof(started)) {
			memcpy(&started, data, sizeof(started));
			if (started == 1)
				ex_first_started(ex);
		}
		return DOCKER_WAIT;
	}
	if (len == sizeof(sd)) {
		memcpy(&sd, data, sizeof(sd));
		sd.sd_code[sizeof(sd.sd_code) - 1] = '\0';
		if (sd.sd_code[0] != '\0')
			log_warnx("exec: resize: %s", sd.sd_code);
	}
	ex_resize_next(rq);
	return DOCKER_WAIT;
}

static unsigned int
ex_seconds(struct ex *ex)
{
	return (ex->req.se_timeout_ms + 999) / 1000;
}

/*
 * Ends the command from inside the space (docker_execcall.h): a second
 * exec, on the new connection next is for.  0 when it cannot be: the
 * gatekeeper (no shell), or no command was started.
 */
static int
ex_kill(struct ex *ex, struct docker_call *next, const char *why)
{
	char	 name[SPACE_RESOURCE_MAX], user[HARDEN_USER_MAX];

	if (ex->mark[0] == '\0' || ex->exec_id[0] == '\0' ||
	    ex_user(ex, user, sizeof(user)) == -1)
		return 0;
	/* Its stdin and output stop here: the connection is the kill's. */
	ex->streaming = 0;
	ex->stream_over = 1;
	ex->kill_why = why;
	ex->polls = 0;
	ex->step = E_KILL_CREATE;
	container_name(ex, name, sizeof(name));
	docker_call_fmt(next, ex->api, "POST", EX_SMALL_CAP,
	    "/containers/%s/exec", name);
	return (next->cl_body = docker_exec_kill_body(user, ex->mark)) !=
	    NULL;
}

/* The kill's exit status (-1: it did not run), and the last word. */
static enum docker_next
ex_killed(struct docker_req *rq, int status)
{
	struct ex	*ex = docker_req_state(rq);
	char		 msg[160];

	if (strcmp(ex->kill_why, ERR_TIMEOUT) != 0) {
		ex_done(rq, ex->kill_why, NULL, -1);
		return DOCKER_DONE;
	}
	snprintf(msg, sizeof(msg), "the command ran past its time (%u s); %s",
	    ex_seconds(ex), status == 0 ? "it was ended in the space" :
	    status == EXEC_KILL_NONE ? "no process of it was left in the "
	    "space to end" : "ending it in the space failed: it may still "
	    "run there");
	ex_done(rq, ERR_TIMEOUT, msg, -1);
	return DOCKER_DONE;
}

static enum docker_next
ex_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct ex		*ex = docker_req_state(rq);
	struct docker_check_msg	 dc;
	char			 name[SPACE_RESOURCE_MAX], msg[160], use[16];
	const char		*code, *why;
	json_t			*o;
	int			 running, exit_code;

	switch (ex->step) {
	case E_VERSION:
		if (p->dp_status == 200 && ex->api[0] != '\0')
			goto inspect;	/* the cached version, after /_ping */
		if (p->dp_status != 200 ||
		    (code = docker_version_parse(p->dp_body, p->dp_body_len,
		    &dc)) != NULL || (code = docker_api_negotiate(
		    dc.dc_api_version, dc.dc_min_api_version, use,
		    sizeof(use))) != NULL) {
			ex_done(rq, ERR_DOCKER_UNREADABLE, "GET /version", -1);
			return DOCKER_DONE;
		}
		snprintf(ex->api, sizeof(ex->api), "/v%s", use);
		docker_api_remember(ex->api);
inspect:
		ex->step = E_INSPECT;
		container_name(ex, name, sizeof(name));
		docker_call_fmt(next, ex->api, "GET", EX_SMALL_CAP,
		    "/containers/%s/json", name);
		return DOCKER_CALL;
	case E_INSPECT:
		if (p->dp_status == 404 &&
		    ex->req.se_target == EXEC_TARGET_SPACE) {
			/* exec renames nothing: only start repairs a move */
			ex->step = E_ASIDE;
			if (space_aside_name(name, sizeof(name),
			    ex->req.se_space.sq_id) == -1)
				fatalx("%s: bad id", __func__);
			docker_call_fmt(next, ex->api, "GET", EX_SMALL_CAP,
			    "/containers/%s/json", name);
			return DOCKER_CALL;
		}
		if (p->dp_status == 404) {
			/* gatekeeper_missing only for a space of the caller's */
			ex->step = E_GK_SPACE;
			engine_inspect_space_call(next, ex->api, EX_SMALL_CAP,
			    ex->req.se_space.sq_id);
			return DOCKER_CALL;
		}
		if (p->dp_status != 200 ||
		    (o = harden_json_parse(p->dp_body, p->dp_body_len)) ==
		    NULL) {
			ex_done(rq, ERR_DOCKER_FAILED, "inspect", -1);
			return DOCKER_DONE;
		}
		why = space_labels_check(json_object_get(json_object_get(o,
		    "Config"), "Labels"), ex->req.se_space.sq_owner,
		    ex->req.se_space.sq_id, ex->req.se_target ==
		    EXEC_TARGET_SPACE ? ROLE_SPACE : ROLE_GATEKEEPER);
		running = json_is_true(json_object_get(json_object_get(o,
		    "State"), "Running"));
		ex_workdir(ex, o);
		ex->wrap = ex->req.se_target == EXEC_TARGET_SPACE &&
		    docker_exec_wraps(o, ex->req.se_space.sq_runtime_key);
		json_decref(o);
		if (why != NULL) {
			/* Another owner's space is no space of the caller's. */
			log_debug("exec: %s: %s", ex->req.se_space.sq_id, why);
			ex_done(rq, ERR_SPACE_NOT_FOUND, NULL, -1);
			return DOCKER_DONE;
		}
		if (!running) {
			ex_done(rq, ERR_SPACE_NOT_RUNNING, NULL, -1);
			return DOCKER_DONE;
		}
		ex->step = E_CREATE;
		container_name(ex, name, sizeof(name));
		docker_call_fmt(next, ex->api, "POST", EX_SMALL_CAP,
		    "/containers/%s/exec", name);
		if ((next->cl_body = exec_body(ex)) == NULL) {
			ex_done(rq, ERR_BAD_REQUEST, "no uid for the space", -1);
			return DOCKER_DONE;
		}
		return DOCKER_CALL;
	case E_ASIDE:
		if (engine_inspect_ours(p, ex->req.se_space.sq_owner,
		    ex->req.se_space.sq_id, ROLE_SPACE))
			ex_done(rq, ERR_SPACE_MOVE_UNFINISHED, "only the old "
			    "container of a move is there: start the space", -1);
		else
			ex_done(rq, ERR_SPACE_NOT_FOUND, NULL, -1);
		return DOCKER_DONE;
	case E_CREATE:
		if (docker_exec_created(p, ex->exec_id,
		    sizeof(ex->exec_id)) == -1) {
			engine_message(p, msg, sizeof(msg));
			ex_done(rq, ERR_DOCKER_FAILED, msg, -1);
			return DOCKER_DONE;
		}
		ex->step = E_START;
		docker_call_fmt(next, ex->api, "POST", EX_SMALL_CAP,
		    "/exec/%s/start", ex->exec_id);
		next->cl_body = json_pack("{s:b, s:b}", "Detach", 0, "Tty",
		    ex->req.se_tty ? 1 : 0);
		/* the engine applies it once the command started */
		ex_resize_next(rq);
		next->cl_upgrade = 1;
		return DOCKER_CALL;
	case E_START:
		if (p->dp_status != 101 || !p->dp_upgraded) {
			engine_message(p, msg, sizeof(msg));
			ex_done(rq, ERR_DOCKER_FAILED, msg, -1);
			return DOCKER_DONE;
		}
		ex->streaming = 1;
		return DOCKER_STREAM;
	case E_EXIT:
		if (docker_exec_exited(p, &exit_code) == 1) {
			ex->never_ran = docker_exec_never_ran(p);
			if (exit_code == 126 && ex->never_ran &&
			    ex_missing(ex, next, &exit_code))
				return DOCKER_CALL;
			ex_done(rq, "", NULL, exit_code);
			return DOCKER_DONE;
		}
		if (p->dp_status != 200 || ++ex->polls > EX_EXIT_POLLS) {
			ex_done(rq, ERR_DOCKER_FAILED, "no exit code", -1);
			return DOCKER_DONE;
		}
		docker_call_fmt(next, ex->api, "GET", EX_SMALL_CAP,
		    "/exec/%s/json", ex->exec_id);
		next->cl_delay_ms = EX_EXIT_POLL_MS;
		return DOCKER_CALL;
	case E_WHICH:
		ex_done(rq, "", NULL, p->dp_status == 404 ? 127 : 126);
		return DOCKER_DONE;
	case E_KILL_CREATE:
		if (docker_exec_created(p, ex->exec_id,
		    sizeof(ex->exec_id)) == -1)
			return ex_killed(rq, -1);
		ex->step = E_KILL_START;
		docker_call_fmt(next, ex->api, "POST", EX_SMALL_CAP,
		    "/exec/%s/start", ex->exec_id);
		next->cl_body = json_pack("{s:b, s:b}", "Detach", 1, "Tty", 0);
		return DOCKER_CALL;
	case E_KILL_START:
	case E_KILL_WAIT:
		if (ex->step == E_KILL_START && p->dp_status != 200)
			return ex_killed(rq, -1);
		if (ex->step == E_KILL_WAIT &&
		    docker_exec_exited(p, &exit_code) == 1)
			return ex_killed(rq, exit_code);
		if (++ex->polls > EX_EXIT_POLLS)
			return ex_killed(rq, -1);
		ex->step = E_KILL_WAIT;
		docker_call_fmt(next, ex->api, "GET", EX_SMALL_CAP,
		    "/exec/%s/json", ex->exec_id);
		next->cl_delay_ms = EX_EXIT_POLL_MS;
		return DOCKER_CALL;
	case E_GK_SPACE:
		ex_done(rq, engine_inspect_ours(p, ex->req.se_space.sq_owner,
		    ex->req.se_space.sq_id, ROLE_SPACE) ?
		    ERR_GATEKEEPER_MISSING : ERR_SPACE_NOT_FOUND, NULL, -1);
		return DOCKER_DONE;
	}
	fatalx("%s: step %d", __func__, ex->step);
}

/* The stream began: what stdin was held goes first. */
static int
ex_stream_read(struct docker_req *rq, struct evbuffer *in)
{
	struct ex	*ex = docker_req_state(rq);
	size_t		 n;

	if ((n = evbuffer_get_length(ex->held)) > 0) {
		docker_req_stream_write(rq, evbuffer_pullup(ex->held, -1), n);
		ex->unwritten += ex->rx_open ? n : 0;
		evbuffer_drain(ex->held, n);
	}
	if (ex->stdin_done && !ex->req.se_tty)
		docker_req_stream_shutdown(rq);
	return ex_pump(rq, in);
}

static enum docker_next
ex_stream_end(struct docker_req *rq, int error, struct docker_call *next)
{
	struct ex	*ex = docker_req_state(rq);

	ex->stream_over = 1;
	if (error != 0 || (!ex->req.se_tty && !frame_at_boundary(&ex->fr)))
		log_warnx("exec: the stream ended %s",
		    error != 0 ? "on an error" : "inside a frame");
	/* The command is done with its output: now its exit code. */
	ex->step = E_EXIT;
	docker_call_fmt(next, ex->api, "GET", EX_SMALL_CAP, "/exec/%s/json",
	    ex->exec_id);
	return DOCKER_CALL_NEW;
}

static enum docker_next
ex_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct ex	*ex = docker_req_state(rq);
	char		 msg[128];

	if (ex->refused != NULL)
		code = ex->refused;
	/* -T: the engine has no way to end an exec's process; we do. */
	if (strcmp(code, ERR_TIMEOUT) == 0 && ex->req.se_timeout_ms > 0 &&
	    ex->step < E_KILL_CREATE) {
		if (next != NULL && ex_kill(ex, next, ERR_TIMEOUT))
			return DOCKER_CALL;
		snprintf(msg, sizeof(msg), "the command ran past its time "
		    "(%u s); the engine cannot end it: it may still run in "
		    "the space", ex_seconds(ex));
		ex_done(rq, code, msg, -1);
		return DOCKER_DONE;
	}
	if (ex->step >= E_KILL_CREATE)
		return ex_killed(rq, -1);
	ex_done(rq, code, NULL, -1);
	return DOCKER_DONE;
}

/*
 * The client left (spacectl ended, its pipe closed): the command is
 * ended in the space as on the native place, not left to run without
 * a reader.  spaced has let go of the streams: no word more on them.
 */
static enum docker_next
ex_cancel(struct docker_req *rq, struct docker_call *next)
{
	struct ex	*ex = docker_req_state(rq);

	if (ex->tx_open)
		worker_stream_unregister(ex->tx.st_id);
	if (ex->rx_open)
		worker_stream_unregister(ex->rx.sr_id);
	ex->tx_open = ex->rx_open = 0;
	if (ex->step >= E_KILL_CREATE)
		return DOCKER_WAIT;	/* the kill of -T goes on */
	if (ex_kill(ex, next, ERR_CANCELLED))
		return DOCKER_CALL_NEW;
	ex_done(rq, ERR_CANCELLED, NULL, -1);
	return DOCKER_DONE;
}

static void
ex_free(void *state)
{
	struct ex	*ex = state;

	/* Inline stdin holds tokens (the token's write, curl's config). */
	explicit_bzero(ex->req.se_stdin, sizeof(ex->req.se_stdin));
	if (ex->tx_open)
		worker_stream_unregister(ex->tx.st_id);
	if (ex->rx_open)
		worker_stream_unregister(ex->rx.sr_id);
	if (ex->held != NULL)
		evbuffer_free(ex->held);
}

const struct docker_op docker_exec_op = {
	.op_name = "exec",
	.op_req = IMSG_SPACE_EXEC_REQ,
	.op_rep = IMSG_SPACE_DONE,
	.op_len = sizeof(struct space_exec_req),
	.op_fd = 1,
	.op_timeout_ms = EX_NO_DEADLINE_MS,
	.op_state_size = sizeof(struct ex),
	.op_start = ex_start,
	.op_answer = ex_answer,
	.op_fail = ex_fail,
	.op_free = ex_free,
	.op_stream_read = ex_stream_read,
	.op_stream_end = ex_stream_end,
	.op_stream_drained = ex_drained,
	.op_child = ex_child,
	.op_cancel = ex_cancel,
	.op_cleanup_ms = 30000,
};
