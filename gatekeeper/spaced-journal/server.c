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
 * The answers of a space's server, and its token file, out of an exec
 * inside the space (DESIGN.md rule 1: only this process parses them).
 * At most SERVER_OUT_MAX and SERVER_ERR_MAX are kept, so a flood costs
 * a bounded buffer; the parse waits for the stream's END and spaced's
 * word on the exec, then answers once and forgets.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "proc.h"
#include "proto.h"
#include "stream.h"
#include "journal_env.h"
#include "journal_worker.h"
#include "server_parse.h"

struct collect {
	TAILQ_ENTRY(collect)	 co_entry;
	uint32_t		 co_peerid;
	struct journal_server_req co_req;
	struct stream_rx	 co_rx;
	int			 co_rx_open;
	int			 co_ended;
	int			 co_exited;
	struct journal_server_exit co_exit;
	uint8_t			*co_out;	/* SERVER_OUT_MAX */
	uint8_t			 co_err[SERVER_ERR_MAX];
	size_t			 co_outlen, co_errlen;
	int			 co_truncated;
	int			 co_kind_next;	/* a chunk's first byte is due */
};

_Static_assert(JOURNAL_TOKEN_MAX == SERVER_TOKEN_MAX, "token size");

static struct collect *
collect_find(uint32_t peerid)
{
	struct collect	*co;

	TAILQ_FOREACH(co, &env->je_collects, co_entry)
		if (co->co_peerid == peerid)
			return co;
	return NULL;
}

static void
collect_free(struct collect *co)
{
	TAILQ_REMOVE(&env->je_collects, co, co_entry);
	if (co->co_rx_open)
		worker_stream_unregister(co->co_rx.sr_id);
	if (co->co_out != NULL)
		explicit_bzero(co->co_out, SERVER_OUT_MAX);
	explicit_bzero(co->co_err, sizeof(co->co_err));
	free(co->co_out);
	explicit_bzero(co, sizeof(*co));
	free(co);
}

static void
keep(struct collect *co, int kind, const uint8_t *p, size_t n)
{
	uint8_t	*buf = kind == 1 ? co->co_out : co->co_err;
	size_t	*len = kind == 1 ? &co->co_outlen : &co->co_errlen;
	size_t	 max = kind == 1 ? SERVER_OUT_MAX : SERVER_ERR_MAX;

	if (n > max - *len) {
		n = max - *len;
		co->co_truncated = 1;
	}
	memcpy(buf + *len, p, n);
	*len += n;
}

/* Both halves are in: the verdict, and the body when it was asked for. */
static void
collect_answer(struct imsgev *iev, struct collect *co)
{
	static struct server_answer	 sa;
	static struct journal_server_body jb;
	struct server_exec_msg		 se;
	struct journal_server_rep	 jr;
	const char			*code = "";
	size_t				 off, n;

	memset(&se, 0, sizeof(se));
	se.se_exit = co->co_exit.jx_exit;
	se.se_timedout = co->co_exit.jx_timedout;
	se.se_truncated = co->co_truncated;
	se.se_outlen = co->co_outlen;
	se.se_errlen = co->co_errlen;
	memset(&jr, 0, sizeof(jr));
	if (co->co_req.js_kind == JOURNAL_SERVER_TOKEN) {
		jr.jr_verdict = server_token_parse(&se, co->co_out,
		    jr.jr_token, &code) == 0 ? SERVER_ANSWER : SERVER_UNREADABLE;
	} else {
		jr.jr_verdict = server_answer_parse(&se, co->co_out,
		    co->co_err, &sa, &code);
		if (jr.jr_verdict == SERVER_ANSWER) {
			code = "";
			jr.jr_status = sa.sa_status;
			if (co->co_req.js_ready_status != 0)
				jr.jr_ready = server_ready(&sa, co->co_out,
				    co->co_req.js_ready_status,
				    co->co_req.js_ready_field[0] != '\0' ?
				    co->co_req.js_ready_field : NULL);
			for (off = 0; co->co_req.js_body &&
			    off < sa.sa_bodylen; off += n) {
				n = sa.sa_bodylen - off;
				if (n > sizeof(jb.jb_data))
					n = sizeof(jb.jb_data);
				memset(&jb, 0, sizeof(jb));
				jb.jb_len = n;
				memcpy(jb.jb_data, co->co_out + sa.sa_body + off,
				    n);
				imsg_compose_event(iev,
				    IMSG_JOURNAL_SERVER_BODY, co->co_peerid, 0,
				    -1, &jb, sizeof(jb));
			}
			if (co->co_req.js_body)
				jr.jr_bodylen = sa.sa_bodylen;
		}
	}
	if (jr.jr_verdict != SERVER_ANSWER)
		strlcpy(jr.jr_code, code, sizeof(jr.jr_code));
	imsg_compose_event(iev, IMSG_JOURNAL_SERVER_REP, co->co_peerid, 0, -1,
	    &jr, sizeof(jr));
	explicit_bzero(&jr, sizeof(jr));
	collect_free(co);
}

static void
collect_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct collect	*co = arg;
	const uint8_t	*data;
	size_t		 len;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&co->co_rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		/* One chunk: its kind, then its bytes (place_proto.h). */
		if (len == 0 || (data[0] != 1 && data[0] != 2))
			fatalx("%s: a chunk of no kind", __func__);
		keep(co, data[0], data + 1, len - 1);
		if (stream_rx_consumed(&co->co_rx, &iev->ibuf, len) == -1)
			fatal("%s: credit", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&co->co_rx, imsg) == -1)
			fatal("%s: end", __func__);
		worker_stream_unregister(co->co_rx.sr_id);
		co->co_rx_open = 0;
		co->co_ended = 1;
		/* An output that broke off is no whole answer. */
		if (co->co_rx.sr_status != 0)
			co->co_truncated = 1;
		if (co->co_exited)
			collect_answer(iev, co);
		break;
	default:
		fatalx("%s: message %u on a server stream", __func__,
		    imsg_get_type(imsg));
	}
}

void
journal_server(struct imsgev *iev, struct imsg *imsg)
{
	struct collect	*co;
	uint32_t	 peerid = imsg_get_peerid(imsg);

	if (imsg_get_type(imsg) == IMSG_JOURNAL_SERVER_EXIT) {
		if ((co = collect_find(peerid)) == NULL || co->co_exited ||
		    imsg_get_data(imsg, &co->co_exit, sizeof(co->co_exit)) ==
		    -1 || co->co_exit.jx_timedout > 1)
			fatalx("%s: bad exit for request %u", __func__, peerid);
		co->co_exited = 1;
		/* The place may have failed before its stream began. */
		if (co->co_ended)
			collect_answer(iev, co);
		return;
	}
	if (collect_find(peerid) != NULL)
		fatalx("%s: request %u collects twice", __func__, peerid);
	if ((co = calloc(1, sizeof(*co))) == NULL ||
	    (co->co_out = malloc(SERVER_OUT_MAX)) == NULL)
		fatal("%s", __func__);
	if (imsg_get_data(imsg, &co->co_req, sizeof(co->co_req)) == -1 ||
	    co->co_req.js_stream == 0 ||
	    (co->co_req.js_kind != JOURNAL_SERVER_ANSWER &&
	    co->co_req.js_kind != JOURNAL_SERVER_TOKEN) ||
	    co->co_req.js_body > 1 || co->co_req.js_reserved != 0 ||
	    memchr(co->co_req.js_ready_field, '\0',
	    sizeof(co->co_req.js_ready_field)) == NULL)
		fatalx("%s: bad server request", __func__);
	co->co_peerid = peerid;
	TAILQ_INSERT_TAIL(&env->je_collects, co, co_entry);
	stream_rx_init(&co->co_rx, co->co_req.js_stream);
	/* Only spaced's bug, as an ingest's (journal.c): collect_free lets go. */
	if (worker_stream_register(co->co_req.js_stream, collect_stream, co) ==
	    -1)
		fatalx("%s: stream %u", __func__, co->co_req.js_stream);
	co->co_rx_open = 1;
}

int
journal_server_cancel(uint32_t peerid)
{
	struct collect	*co;

	if ((co = collect_find(peerid)) == NULL)
		return 0;
	collect_free(co);
	return 1;
}
