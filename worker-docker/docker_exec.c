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
 * the Engine's exec and its hijacked stream, after the target's labels
 * were checked.  Output frames go out as stream chunks, never read here;
 * reading stops while spaced owes credit (docs/notes/
 * spaced-docker-streams.md).
 */

#include <sys/types.h>

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

#define EX_SMALL_CAP		(256 * 1024)
#define EX_NO_DEADLINE_MS	(7 * 24 * 3600 * 1000)	/* a week */
#define EX_EXIT_POLL_MS		20
#define EX_EXIT_POLLS		250	/* 5 s for the engine to reap */

enum ex_step {
	E_VERSION, E_INSPECT, E_CREATE, E_START, E_EXIT,
	E_ASIDE,	/* no space container: only a move's aside one? */
	E_WHICH,	/* the command never ran: is its path there? */
	E_GK_SPACE,	/* no gatekeeper: is there a space of the caller's? */
};

struct ex {
	struct space_exec_req	 req;
	struct docker_req	*rq;
	char			 api[24];
	enum ex_step		 step;
	char			 exec_id[SPACE_RESOURCE_MAX];
	struct frame_reader	 fr;
	int			 streaming;
	struct stream_tx	 tx;		/* output, when asked for */
	int			 tx_open;
	struct stream_rx	 rx;		/* stdin, when it streams */
	int			 rx_open;
	struct evbuffer		*held;		/* stdin before the stream */
	size_t			 unwritten;	/* stdin queued, not credited */
	int			 stdin_done;
	uint64_t		 out_bytes;
	int			 polls;
	/* exec -t: the size wanted, the one sent, and a resize in flight */
	uint16_t		 want_rows, want_cols;
	uint16_t		 sent_rows, sent_cols;
	int			 resizing;
	int			 stream_over;
};

static struct imsgev *
channel(void)
{
	return docker_channel();
}

static void
ex_done(struct docker_req *rq, const char *code, const char *message,
    int exit_code)
{
	struct ex		*ex = docker_req_state(rq);
	struct space_done	 sd;

	/* The output stream ends before the last word. */
	if (ex->tx_open) {
		if (stream_tx_end(&ex->tx, &channel()->ibuf,
		    code[0] == '\0' ? 0 : -1) == -1)
			fatal("%s: stream_tx_end", __func__);
		worker_stream_unregister(ex->tx.st_id);
		ex->tx_open = 0;
		imsg_event_add(channel());
	}
	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	if (message != NULL)
		strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	sd.sd_exit = exit_code;
	docker_req_reply(rq, &sd, sizeof(sd));
}

/* --- the two streams -------------------------------------------------- */

/* Gives stdin to the engine: what was held, then as it comes. */
static void
ex_stdin_write(struct ex *ex, const void *data, size_t len)
{
	if (!ex->streaming) {
		if (evbuffer_add(ex->held, data, len) == -1)
			fatal("%s: evbuffer_add", __func__);
		return;
	}
	docker_req_stream_write(ex->rq, data, len);
	ex->unwritten += len;
}

/*
 * With a terminal the engine ends the output when stdin ends, so a
 * terminal's stdin is never shut: Ctrl-D is a byte its command reads.
 */
static void
ex_stdin_end(struct ex *ex)
{
	ex->stdin_done = 1;
	if (ex->streaming && !ex->req.se_tty)
		docker_req_stream_shutdown(ex->rq);
}

static int	ex_pump(struct docker_req *, struct evbuffer *);

static void
ex_stream_msg(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct ex	*ex = arg;
	const uint8_t	*data;
	size_t		 len;

	if (ex->tx_open && imsg_get_peerid(imsg) == ex->tx.st_id) {
		if (stream_tx_credit(&ex->tx, imsg) == -1)
			fatal("%s: credit", __func__);
		if (ex->streaming) {
			docker_req_stream_pause(ex->rq, 0);
			/* bytes may wait in the input already */
			(void)ex_pump(ex->rq, NULL);
		}
		return;
	}
	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&ex->rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		ex_stdin_write(ex, data, len);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&ex->rx, imsg) == -1)
			fatal("%s: end", __func__);
		worker_stream_unregister(ex->rx.sr_id);
		ex->rx_open = 0;
		ex_stdin_end(ex);
		break;
	default:
		fatalx("%s: message %u on stdin", __func__,
		    imsg_get_type(imsg));
	}
}

/* stdin reached the engine: credit it back, so more may come. */
static void
ex_drained(struct docker_req *rq)
{
	struct ex	*ex = docker_req_state(rq);
	size_t		 queued = docker_req_stream_queued(rq);

	/* What left for the engine; the queue holds only uncredited bytes. */
	if (ex->unwritten <= queued || !ex->rx_open)
		return;
	if (stream_rx_consumed(&ex->rx, &channel()->ibuf, ex->unwritten -
	    queued) == -1)
		fatal("%s: stream_rx_consumed", __func__);
	ex->unwritten = queued;
	imsg_event_add(channel());
}

/*
 * Output: frames in, chunks out.  A chunk is one byte of which stream
 * and at most STREAM_CHUNK - 1 bytes; reading pauses when the window is
 * spent.  in is NULL to go on with what the connection holds.
 */
static int
ex_pump(struct docker_req *rq, struct evbuffer *in)
{
	struct ex		*ex = docker_req_state(rq);
	struct evbuffer_iovec	 v;
	uint8_t			 chunk[STREAM_CHUNK];
	const uint8_t		*data;
	size_t			 slice, used, dlen, avail;
	uint8_t			 type;
	size_t			 before = imsgbuf_queuelen(&channel()->ibuf);
	int			 rv;

	if (in == NULL && (in = docker_req_stream_input(rq)) == NULL)
		return 1;
	while (evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		slice = v.iov_len;
		if (ex->tx_open) {
			avail = stream_tx_avail(&ex->tx);
			if (avail <= 1) {
				docker_req_stream_pause(rq, 1);
				break;
			}
			if (slice > avail - 1)
				slice = avail - 1;
			if (slice > sizeof(chunk) - 1)
				slice = sizeof(chunk) - 1;
		}
		if (ex->req.se_tty) {
			/* A terminal's stream is its bytes, unframed. */
			rv = 1;
			used = dlen = slice;
			data = v.iov_base;
			type = FRAME_STDOUT;
		} else
			rv = frame_feed(&ex->fr, v.iov_base, slice, &used,
			    &type, &data, &dlen);
		if (rv == -1) {
			log_warnx("exec: %s", ex->fr.fr_errstr);
			docker_req_stream_fail(rq, ERR_DOCKER_UNREADABLE);
			return 0;
		}
		if (rv == 1) {
			ex->out_bytes += dlen;
			if (ex->req.se_output_max > 0 &&
			    ex->out_bytes > ex->req.se_output_max) {
				docker_req_stream_fail(rq, ERR_OUTPUT_TOO_LARGE);
				return 0;
			}
			if (ex->tx_open) {
				chunk[0] = type == FRAME_STDERR ?
				    EXEC_OUT_STDERR : EXEC_OUT_STDOUT;
				memcpy(chunk + 1, data, dlen);
				if (stream_tx_send(&ex->tx, &channel()->ibuf,
				    chunk, dlen + 1) == -1)
					fatal("%s: stream_tx_send", __func__);
			}
		}
		evbuffer_drain(in, used);
	}
	if (ex->tx_open)
		stream_write_now(channel(), before);
	return 1;
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
	ex->want_rows = ex->req.se_rows;
	ex->want_cols = ex->req.se_cols;
	for (i = n = 0; i < ex->req.se_argv_len; i++)
		if (ex->req.se_argv[i] == '\0')
			n++;
	if (n != ex->req.se_argc)
		return -1;
	/* The streams first: their messages may come at once. */
	if (ex->req.se_out_stream != 0) {
		stream_tx_init(&ex->tx, ex->req.se_out_stream);
		if (worker_stream_register(ex->req.se_out_stream,
		    ex_stream_msg, ex) == -1)
			return -1;
		ex->tx_open = 1;
	}
	if (ex->req.se_in_stream != 0) {
		stream_rx_init(&ex->rx, ex->req.se_in_stream);
		if (worker_stream_register(ex->req.se_in_stream,
		    ex_stream_msg, ex) == -1)
			return -1;
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
 * a relative one in the space from its folder, where every exec begins.
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
	else if (ex->req.se_target == EXEC_TARGET_SPACE)
		n = snprintf(full, sizeof(full), "%s/%s/%s",
		    HARDEN_WORK_PARENT, ex->req.se_space.sq_id, argv0);
	else
		return 0;
	if (n < 0 || (size_t)n >= sizeof(full) ||
	    docker_urlencode(full, path, sizeof(path)) == -1)
		return 0;
	container_name(ex, name, sizeof(name));
	ex->step = E_WHICH;
	docker_call_fmt(next, ex->api, "HEAD", EX_SMALL_CAP,
	    "/containers/%s/archive?path=%s", name, path);
	return 1;
}

static json_t *
exec_body(struct ex *ex)
{
	const struct space_req	*sq = &ex->req.se_space;
	json_t			*argv;
	const char		*a = ex->req.se_argv;
	const char		*end = a + ex->req.se_argv_len;
	char			 user[HARDEN_USER_MAX];
	uint32_t		 uid;
	json_t			*o;

	/* In the space, as the space's own uid, whatever its image says. */
	strlcpy(user, HARDEN_GK_USER, sizeof(user));
	if (ex->req.se_target == EXEC_TARGET_SPACE) {
		uid = harden_space_uid(sq->sq_id, sq->sq_uid_first,
		    sq->sq_uid_count);
		if (uid == 0 || harden_user(user, sizeof(user), uid) == -1)
			return NULL;
	}
	if ((argv = json_array()) == NULL)
		return NULL;
	for (; a < end; a += strlen(a) + 1)
		json_array_append_new(argv, json_string(a));
	o = docker_exec_body(argv, user, NULL);
	if (o != NULL && ex->req.se_tty &&
	    json_object_set_new(o, "Tty", json_true()) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * The size wanted goes out when the exec exists and no resize is in
 * flight; one that came meanwhile follows the answer.
 */
static void
ex_resize_next(struct docker_req *rq)
{
	struct ex		*ex = docker_req_state(rq);
	struct exec_resize_req	 rz;

	if (!ex->req.se_tty || ex->resizing || ex->exec_id[0] == '\0' ||
	    ex->stream_over || ex->want_rows == 0 || ex->want_cols == 0 ||
	    (ex->want_rows == ex->sent_rows && ex->want_cols == ex->sent_cols))
		return;
	memset(&rz, 0, sizeof(rz));
	strlcpy(rz.rz_api, ex->api, sizeof(rz.rz_api));
	strlcpy(rz.rz_exec_id, ex->exec_id, sizeof(rz.rz_exec_id));
	rz.rz_rows = ex->sent_rows = ex->want_rows;
	rz.rz_cols = ex->sent_cols = ex->want_cols;
	if (docker_req_spawn(rq, &docker_exec_resize_op, &rz, sizeof(rz)) ==
	    0)
		ex->resizing = 1;
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
	ex->want_rows = er->er_rows;
	ex->want_cols = er->er_cols;
	ex_resize_next(rq);
}

/* A resize answered: a failed one is logged, the terminal goes on. */
static enum docker_next
ex_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct ex		*ex = docker_req_state(rq);
	struct space_done	 sd;

	ex->resizing = 0;
	if (len == sizeof(sd)) {
		memcpy(&sd, data, sizeof(sd));
		sd.sd_code[sizeof(sd.sd_code) - 1] = '\0';
		if (sd.sd_code[0] != '\0')
			log_warnx("exec: resize: %s", sd.sd_code);
	}
	ex_resize_next(rq);
	return DOCKER_WAIT;
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
			if (exit_code == 126 && docker_exec_never_ran(p) &&
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

	/* -T: the engine has no way to end an exec's process. */
	if (strcmp(code, ERR_TIMEOUT) == 0 && ex->req.se_timeout_ms > 0) {
		snprintf(msg, sizeof(msg), "the command ran past its time "
		    "(%u s); the engine cannot end it: it may still run in "
		    "the space", (unsigned)((ex->req.se_timeout_ms + 999) /
		    1000));
		ex_done(rq, code, msg, -1);
		return DOCKER_DONE;
	}
	ex_done(rq, code, NULL, -1);
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
};
