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
 * logs: a gatekeeper's stdout, or a space's stderr with the engine's
 * times (its relay's restart lines), for spaced-journal, after the
 * container's labels were checked; capped at SPACE_LOGS_MAX.  Frames go out as chunks of the
 * stream spaced named, under its credit, never read here (DESIGN.md
 * rule 1).  The stream ENDs before the DONE.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "stream.h"
#include "docker_check.h"
#include "docker_frames.h"
#include "docker_harden.h"
#include "docker_parse.h"
#include "docker_channel.h"
#include "docker_engine.h"
#include "docker_ops.h"

#define LG_SMALL_CAP		(256 * 1024)
#define LG_TIMEOUT_MS		280000	/* spaced gives up at 300 s */

enum lg_step {
	L_VERSION, L_INSPECT, L_LOGS, L_PUMP,
	L_GK_SPACE	/* no gatekeeper: is there a space of the caller's? */
};

struct lg {
	struct space_logs_req	 req;
	struct docker_req	*rq;
	char			 api[24];
	enum lg_step		 step;
	struct stream_tx	 tx;
	int			 tx_open;
	struct frame_reader	 fr;
	uint8_t			*body;		/* the log, frames */
	size_t			 body_len;
	size_t			 body_off;	/* fed to the frame reader */
	uint64_t		 out_bytes;
	/* Frames are a line each: payloads go out gathered, a chunk full. */
	uint8_t			 pend[STREAM_CHUNK];
	size_t			 pend_len;
};

/* A space's stderr is its relay's: the agent's output is on stdout. */
static int
lg_relay(const struct lg *lg)
{
	return lg->req.sl_what == SPACE_LOGS_RELAY;
}

static uint8_t
lg_stream(const struct lg *lg)
{
	return lg_relay(lg) ? FRAME_STDERR : FRAME_STDOUT;
}

static void
lg_done(struct lg *lg, const char *code, const char *message)
{
	struct space_done	 sd;

	docker_channel_tx_end(&lg->tx, &lg->tx_open, code[0] == '\0');
	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	if (message != NULL)
		strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	sd.sd_exit = -1;
	docker_req_reply(lg->rq, &sd, sizeof(sd));
}

/* What is gathered goes out, when the window has room for it. */
static int
lg_flush(struct lg *lg)
{
	if (lg->pend_len == 0)
		return 1;
	if (stream_tx_avail(&lg->tx) < lg->pend_len)
		return 0;
	if (stream_tx_send(&lg->tx, &docker_channel()->ibuf, lg->pend,
	    lg->pend_len) == -1)
		fatal("%s: stream_tx_send", __func__);
	lg->pend_len = 0;
	/*
	 * Queued is not sent: the pump also runs from the engine socket's
	 * callback, after which nothing else arms the channel's write, and a
	 * window left queued brings no credit back.
	 */
	imsg_event_add(docker_channel());
	return 1;
}

/*
 * Frames in, chunks out, while the window lasts.  Returns 1 when the
 * log went whole (and was answered), 0 when it waits for credit, -1
 * when it was answered with an error.
 */
static int
lg_pump(struct lg *lg)
{
	const uint8_t	*data;
	size_t		 used, dlen, avail, slice;
	uint8_t		 type;
	int		 rv;

	while (lg->body_off < lg->body_len) {
		avail = stream_tx_avail(&lg->tx);
		/* Half a chunk gathered, or no room to gather more: send. */
		if (lg->pend_len >= STREAM_CHUNK / 2 || avail <= lg->pend_len) {
			if (lg->pend_len == 0 || !lg_flush(lg))
				return 0;
			continue;
		}
		slice = lg->body_len - lg->body_off;
		/* a piece of payload is at most the slice fed */
		if (slice > avail - lg->pend_len)
			slice = avail - lg->pend_len;
		if (slice > STREAM_CHUNK - lg->pend_len)
			slice = STREAM_CHUNK - lg->pend_len;
		rv = frame_feed(&lg->fr, lg->body + lg->body_off, slice, &used,
		    &type, &data, &dlen);
		if (rv == -1) {
			log_warnx("logs: %s", lg->fr.fr_errstr);
			lg_done(lg, ERR_DOCKER_UNREADABLE, "the log's frames");
			return -1;
		}
		lg->body_off += used;
		/* one stream was asked for; a frame of the other is dropped */
		if (rv == 1 && type == lg_stream(lg) && dlen > 0) {
			lg->out_bytes += dlen;
			memcpy(lg->pend + lg->pend_len, data, dlen);
			lg->pend_len += dlen;
		}
	}
	if (!lg_flush(lg))
		return 0;
	if (!frame_at_boundary(&lg->fr))
		log_warnx("logs: the log ends inside a frame");
	log_debug("logs: %s: %llu bytes of journal lines", lg->req.sl_space.sq_id,
	    (unsigned long long)lg->out_bytes);
	lg_done(lg, "", NULL);
	return 1;
}

static void
lg_stream_msg(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct lg	*lg = arg;

	if (stream_tx_credit(&lg->tx, imsg) == -1)
		fatal("%s: credit", __func__);
	if (lg->step != L_PUMP)
		return;
	if (lg_pump(lg) != 0)
		docker_req_finish(lg->rq);
}

static int
lg_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct lg	*lg = docker_req_state(rq);

	memcpy(&lg->req, data, sizeof(lg->req));
	lg->rq = rq;
	frame_reader_init(&lg->fr);
	if (!space_owner_valid(lg->req.sl_space.sq_owner) ||
	    !space_id_valid(lg->req.sl_space.sq_id) ||
	    lg->req.sl_stream == 0 || (lg->req.sl_what != SPACE_LOGS_GATEKEEPER &&
	    lg->req.sl_what != SPACE_LOGS_RELAY))
		return -1;
	stream_tx_init(&lg->tx, lg->req.sl_stream);
	if (worker_stream_register(lg->req.sl_stream, lg_stream_msg, lg) ==
	    -1)
		return -1;
	lg->tx_open = 1;
	lg->step = L_VERSION;
	cl->cl_method = "GET";
	if (docker_api_cached() != NULL) {
		strlcpy(lg->api, docker_api_cached(), sizeof(lg->api));
		strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	} else
		strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	return 0;
}

static enum docker_next
lg_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct lg		*lg = docker_req_state(rq);
	struct docker_check_msg	 dc;
	char			 name[SPACE_RESOURCE_MAX], msg[160], use[16];
	const char		*code, *why;
	json_t			*o;

	if (space_resource_name(name, sizeof(name), lg->req.sl_space.sq_id,
	    lg_relay(lg) ? ROLE_SPACE : ROLE_GATEKEEPER) == -1)
		fatalx("%s: bad id", __func__);
	switch (lg->step) {
	case L_VERSION:
		if (p->dp_status == 200 && lg->api[0] != '\0')
			goto inspect;	/* the cached version, after /_ping */
		if (p->dp_status != 200 ||
		    (code = docker_version_parse(p->dp_body, p->dp_body_len,
		    &dc)) != NULL || (code = docker_api_negotiate(
		    dc.dc_api_version, dc.dc_min_api_version, use,
		    sizeof(use))) != NULL) {
			lg_done(lg, ERR_DOCKER_UNREADABLE, "GET /version");
			return DOCKER_DONE;
		}
		snprintf(lg->api, sizeof(lg->api), "/v%s", use);
		docker_api_remember(lg->api);
inspect:
		lg->step = L_INSPECT;
		docker_call_fmt(next, lg->api, "GET", LG_SMALL_CAP,
		    "/containers/%s/json", name);
		return DOCKER_CALL;
	case L_INSPECT:
		if (p->dp_status == 404 && lg_relay(lg)) {
			lg_done(lg, ERR_SPACE_NOT_FOUND, NULL);
			return DOCKER_DONE;
		}
		if (p->dp_status == 404) {
			/* gatekeeper_missing only for a space of the caller's */
			lg->step = L_GK_SPACE;
			engine_inspect_space_call(next, lg->api, LG_SMALL_CAP,
			    lg->req.sl_space.sq_id);
			return DOCKER_CALL;
		}
		if (p->dp_status != 200 ||
		    (o = harden_json_parse(p->dp_body, p->dp_body_len)) ==
		    NULL) {
			lg_done(lg, ERR_DOCKER_FAILED, "inspect");
			return DOCKER_DONE;
		}
		why = space_labels_check(json_object_get(json_object_get(o,
		    "Config"), "Labels"), lg->req.sl_space.sq_owner,
		    lg->req.sl_space.sq_id, lg_relay(lg) ? ROLE_SPACE :
		    ROLE_GATEKEEPER);
		json_decref(o);
		if (why != NULL) {
			/* Another owner's space is no space of the caller's. */
			log_debug("logs: %s: %s", lg->req.sl_space.sq_id, why);
			lg_done(lg, ERR_SPACE_NOT_FOUND, NULL);
			return DOCKER_DONE;
		}
		lg->step = L_LOGS;
		/* The engine's times: the space cannot write them. */
		docker_call_fmt(next, lg->api, "GET", SPACE_LOGS_MAX,
		    "/containers/%s/logs?%s&since=%u", name, lg_relay(lg) ?
		    "stdout=0&stderr=1&timestamps=1" : "stdout=1&stderr=0",
		    lg->req.sl_since);
		return DOCKER_CALL;
	case L_LOGS:
		if (p->dp_status == 404) {
			lg_done(lg, lg_relay(lg) ? ERR_SPACE_NOT_FOUND :
			    ERR_GATEKEEPER_MISSING, NULL);
			return DOCKER_DONE;
		}
		if (p->dp_status != 200) {
			engine_message(p, msg, sizeof(msg));
			lg_done(lg, ERR_DOCKER_FAILED, msg);
			return DOCKER_DONE;
		}
		/* Up to SPACE_LOGS_MAX: taken from the parser, not copied. */
		lg->body = docker_req_body_take(rq, &lg->body_len);
		lg->step = L_PUMP;
		return lg_pump(lg) == 0 ? DOCKER_WAIT : DOCKER_DONE;
	case L_GK_SPACE:
		lg_done(lg, engine_inspect_ours(p, lg->req.sl_space.sq_owner,
		    lg->req.sl_space.sq_id, ROLE_SPACE) ?
		    ERR_GATEKEEPER_MISSING : ERR_SPACE_NOT_FOUND, NULL);
		return DOCKER_DONE;
	case L_PUMP:
		break;
	}
	fatalx("%s: step %d", __func__, lg->step);
}

static enum docker_next
lg_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	lg_done(docker_req_state(rq), code, NULL);
	return DOCKER_DONE;
}

static void
lg_free(void *state)
{
	struct lg	*lg = state;

	if (lg->tx_open)
		worker_stream_unregister(lg->tx.st_id);
	free(lg->body);
}

const struct docker_op docker_logs_op = {
	.op_name = "logs",
	.op_req = IMSG_SPACE_LOGS_REQ,
	.op_rep = IMSG_SPACE_DONE,
	.op_len = sizeof(struct space_logs_req),
	.op_fd = 1,
	.op_timeout_ms = LG_TIMEOUT_MS,
	.op_state_size = sizeof(struct lg),
	.op_start = lg_start,
	.op_answer = lg_answer,
	.op_fail = lg_fail,
	.op_free = lg_free,
};
