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
 * The stream of a tools one-shot's exec, a child request on its own
 * connection: stdin in (the fill's framing, then each file from its fd),
 * the output's frames counted against the spec's cap and kept.
 */

#include <errno.h>
#include <stdlib.h>
#include <event2/buffer.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "docker_frames.h"
#include "tools_volume.h"

#define TV_OUTPUT_MAX		(16ULL * 1024 * 1024)	/* the spec's */
#define TV_QUEUE_HIWAT		(512 * 1024)
#define TV_CHUNK		(64 * 1024)

struct tx {
	struct tx_in		 in;
	struct frame_reader	 fr;
	int			 begun;
	size_t			 fi;		/* the file being written */
	uint64_t		 foff;
	int			 shut;
	struct tx_result	 res;
	size_t			 err_len;
};

static int
tx_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct tx	*tx = docker_req_state(rq);

	memcpy(&tx->in, data, sizeof(tx->in));
	frame_reader_init(&tx->fr);
	docker_req_deadline(rq, tx->in.xi_timeout_ms);
	docker_call_fmt(cl, tx->in.xi_api, "POST", TV_CAP, "/exec/%s/start",
	    tx->in.xi_exec);
	cl->cl_body = json_pack("{s:b, s:b}", "Detach", 0, "Tty", 0);
	cl->cl_upgrade = 1;
	return 0;
}

static void
tx_reply(struct docker_req *rq, struct tx *tx, const char *code,
    int interrupted)
{
	strlcpy(tx->res.xr_code, code, sizeof(tx->res.xr_code));
	tx->res.xr_interrupted = interrupted;
	docker_req_reply(rq, &tx->res, sizeof(tx->res));
}

static enum docker_next
tx_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	if (p->dp_status != 101 || !p->dp_upgraded) {
		tx_reply(rq, tx, ERR_DOCKER_FAILED, 0);
		return DOCKER_DONE;
	}
	return DOCKER_STREAM;
}

/* stdin: the prefix, then each file from its fd, a window at a time. */
static int
tx_pump(struct docker_req *rq, struct tx *tx)
{
	uint8_t		 buf[TV_CHUNK];
	uint64_t	 want;
	ssize_t		 n;

	if (!tx->begun) {
		tx->begun = 1;
		if (tx->in.xi_prefix_len > 0)
			docker_req_stream_write(rq, tx->in.xi_prefix,
			    tx->in.xi_prefix_len);
	}
	while (tx->fi < tx->in.xi_nfds &&
	    docker_req_stream_queued(rq) < TV_QUEUE_HIWAT) {
		want = tx->in.xi_sizes[tx->fi] - tx->foff;
		if (want == 0) {
			tx->fi++;
			tx->foff = 0;
			continue;
		}
		if (want > sizeof(buf))
			want = sizeof(buf);
		n = pread(tx->in.xi_fds[tx->fi], buf, want, (off_t)tx->foff);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			log_warn("tools: reading a file from spaced");
			docker_req_stream_fail(rq, ERR_INTERNAL);
			return 0;
		}
		docker_req_stream_write(rq, buf, n);
		tx->foff += (uint64_t)n;
	}
	if (tx->fi >= tx->in.xi_nfds && !tx->shut) {
		tx->shut = 1;
		docker_req_stream_shutdown(rq);
	}
	return 1;
}

static void
tx_keep_err(struct tx *tx, const uint8_t *data, size_t len)
{
	size_t	 i;
	char	 c;

	/* The last TV_ERR_TAIL printable bytes, for the error's message. */
	for (i = 0; i < len; i++) {
		c = (char)data[i];
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			c = '?';
		if (tx->err_len == TV_ERR_TAIL) {
			memmove(tx->res.xr_err, tx->res.xr_err + 1,
			    TV_ERR_TAIL - 1);
			tx->err_len--;
		}
		tx->res.xr_err[tx->err_len++] = c;
		tx->res.xr_err[tx->err_len] = '\0';
	}
}

static int
tx_read(struct docker_req *rq, struct evbuffer *in)
{
	struct tx		*tx = docker_req_state(rq);
	struct evbuffer_iovec	 v;
	const uint8_t		*data;
	size_t			 used, dlen, room;
	uint8_t			 type;
	int			 rv;

	if (!tx->begun && !tx_pump(rq, tx))
		return 0;
	while (evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		rv = frame_feed(&tx->fr, v.iov_base, v.iov_len, &used, &type,
		    &data, &dlen);
		if (rv == -1) {
			log_warnx("tools: %s", tx->fr.fr_errstr);
			docker_req_stream_fail(rq, ERR_DOCKER_UNREADABLE);
			return 0;
		}
		if (rv == 1) {
			tx->res.xr_total += dlen;
			/* The spec's output cap of a fill: 16 MB. */
			if (tx->res.xr_total > TV_OUTPUT_MAX) {
				docker_req_stream_fail(rq,
				    ERR_OUTPUT_TOO_LARGE);
				return 0;
			}
			if (type == FRAME_STDOUT) {
				room = sizeof(tx->res.xr_out) -
				    tx->res.xr_out_len;
				if (dlen > room)
					tx->res.xr_truncated = 1;
				memcpy(tx->res.xr_out + tx->res.xr_out_len,
				    data, dlen < room ? dlen : room);
				tx->res.xr_out_len += dlen < room ? dlen : room;
			} else
				tx_keep_err(tx, data, dlen);
		}
		evbuffer_drain(in, used);
	}
	return 1;
}

static void
tx_drained(struct docker_req *rq)
{
	struct tx	*tx = docker_req_state(rq);

	if (tx->begun)
		(void)tx_pump(rq, tx);
}

static enum docker_next
tx_stream_end(struct docker_req *rq, int error, struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	/* Output cut short is no answer: never read as a marker. */
	if (error != 0 || !frame_at_boundary(&tx->fr)) {
		tx_reply(rq, tx, ERR_DOCKER_UNREADABLE, 1);
		return DOCKER_DONE;
	}
	tx_reply(rq, tx, "", 0);
	return DOCKER_DONE;
}

static enum docker_next
tx_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	tx_reply(rq, tx, code, interrupted);
	return DOCKER_DONE;
}

static void
tx_free(void *state)
{
	struct tx	*tx = state;
	size_t		 i;

	free(tx->in.xi_prefix);
	for (i = 0; i < tx->in.xi_nfds; i++)
		close(tx->in.xi_fds[i]);
}

const struct docker_op tools_stream_op = {
	.op_name = "tools-stream",
	.op_len = sizeof(struct tx_in),
	.op_timeout_ms = TV_FILL_MS,
	.op_state_size = sizeof(struct tx),
	.op_start = tx_start,
	.op_answer = tx_answer,
	.op_fail = tx_fail,
	.op_free = tx_free,
	.op_stream_read = tx_read,
	.op_stream_end = tx_stream_end,
	.op_stream_drained = tx_drained,
};
