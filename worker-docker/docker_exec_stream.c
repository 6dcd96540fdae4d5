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
 * exec's two streams: stdin from spaced into the engine's hijacked
 * connection, and the command's output frames out as stream chunks,
 * never read here; reading stops while spaced owes credit
 * (docs/notes/spaced-docker-streams.md).
 */

#include <sys/types.h>

#include <event2/buffer.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "proc.h"
#include "docker_channel.h"
#include "docker_exec.h"

static struct imsgev *
channel(void)
{
	return docker_channel();
}

/* Gives stdin to the engine: what was held, then as it comes. */
void
ex_stdin_write(struct ex *ex, const void *data, size_t len)
{
	/*
	 * The engine's stream ended (the command exited, its space was
	 * removed or stopped) or a kill took it: what spaced sent before it
	 * knew has no reader left.  Dropped, not written into a connection
	 * that is no longer the stream.
	 */
	if (ex->stream_over)
		return;
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
void
ex_stdin_end(struct ex *ex)
{
	ex->stdin_done = 1;
	if (ex->streaming && !ex->req.se_tty)
		docker_req_stream_shutdown(ex->rq);
}

void
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
void
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
 * The held first frame goes out, as which stream ex_done knows (the
 * engine's words: stderr); from now on output passes straight on.  It
 * is the first output of the exec, so the window has room for it.
 */
void
ex_first_flush(struct ex *ex, int which)
{
	uint8_t		 chunk[STREAM_CHUNK];
	size_t		 len = ex->first_len;

	ex->first_state = EX_FIRST_PASSED;
	ex->first_len = 0;
	if (len == 0 || !ex->tx_open)
		return;
	chunk[0] = which;
	memcpy(chunk + 1, ex->first, len);
	if (stream_tx_send(&ex->tx, &channel()->ibuf, chunk, len + 1) == -1)
		fatal("%s: stream_tx_send", __func__);
}

/*
 * A bare command's first frame is held: the engine is asked at once
 * whether it started the process, so that the command's own line goes
 * out now, not at its next output or its end.
 * No terminal, so no resize child; an exec that is a child itself (the
 * token's) streams no output and never holds.
 */
static void
ex_first_ask(struct ex *ex)
{
	struct exec_started_req	 es;

	if (docker_req_child(ex->rq) != NULL || ex->exec_id[0] == '\0')
		return;
	memset(&es, 0, sizeof(es));
	strlcpy(es.es_api, ex->api, sizeof(es.es_api));
	strlcpy(es.es_exec_id, ex->exec_id, sizeof(es.es_exec_id));
	(void)docker_req_spawn(ex->rq, &docker_exec_started_op, &es,
	    sizeof(es));
}

/*
 * The engine says the held frame's process started: the bytes were the
 * command's, out now as stdout, outside the pump.
 */
void
ex_first_started(struct ex *ex)
{
	size_t		 before = imsgbuf_queuelen(&channel()->ibuf);

	if (ex->first_state != EX_FIRST_WHOLE || !ex->tx_open)
		return;
	ex_first_flush(ex, EXEC_OUT_STDOUT);
	stream_write_now(channel(), before);
}

/*
 * When the engine cannot start a command it writes why as one stdout
 * frame ending "\r\n" and ends the stream: a bare command's first
 * frame of that shape waits for the next frame, for the engine's word
 * that the process started (ex_first_ask), or for the exit's inspect,
 * whose Pid 0 says the bytes were the engine's (ex_done).  Under the
 * relay's wrapper the engine starts the wrapper, which says its own
 * refusals on stderr; a terminal is one stream.  1: taken.
 */
static int
ex_first_hold(struct ex *ex, uint8_t type, const uint8_t *data, size_t dlen)
{
	if (ex->first_state != EX_FIRST_OPEN || ex->wrap || ex->req.se_tty ||
	    type != FRAME_STDOUT || dlen > sizeof(ex->first) - ex->first_len) {
		ex_first_flush(ex, EXEC_OUT_STDOUT);
		return 0;
	}
	memcpy(ex->first + ex->first_len, data, dlen);
	ex->first_len += dlen;
	if (!frame_at_boundary(&ex->fr))
		return 1;
	if (ex->first_len >= 2 && ex->first[ex->first_len - 2] == '\r' &&
	    ex->first[ex->first_len - 1] == '\n') {
		ex->first_state = EX_FIRST_WHOLE;
		ex_first_ask(ex);
	} else
		ex_first_flush(ex, EXEC_OUT_STDOUT);
	return 1;
}

/*
 * Output: frames in, chunks out.  A chunk is one byte of which stream
 * and at most STREAM_CHUNK - 1 bytes; reading pauses when the window is
 * spent.  in is NULL to go on with what the connection holds.
 */
int
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
			if (ex->tx_open && !ex_first_hold(ex, type, data,
			    dlen)) {
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
