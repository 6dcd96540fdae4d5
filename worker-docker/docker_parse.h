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

#ifndef SPACED_DOCKER_PARSE_H
#define SPACED_DOCKER_PARSE_H

/*
 * Incremental parser for one HTTP/1.1 response from the Docker Engine.
 * Pure: it reads only the bytes it is given and keeps its state in the
 * struct.  Feed bytes as they arrive; each call says whether the answer
 * is complete, needs more, or is refused.  Refused means malformed or
 * over a cap; nothing is truncated silently.  For the answer to a HEAD,
 * set dp_head after init: its Content-Length announces no body.
 */

#include <stddef.h>
#include <stdint.h>

#define DOCKER_HDR_MAX		(16 * 1024)	/* status line + headers */
#define DOCKER_CHUNK_LINE_MAX	1024		/* chunk size + extensions */
#define DOCKER_BODY_MAX_SMALL	(1024 * 1024)	/* /version, /_ping */

enum docker_parse_rv {
	DP_ERROR = -1,		/* dp_errstr says why; the parser is dead */
	DP_NEED_MORE = 0,
	DP_COMPLETE = 1,
};

enum docker_body_mode {
	DB_NONE = 0,		/* 1xx, 204, 304, or Content-Length: 0 */
	DB_LENGTH,
	DB_CHUNKED,
	DB_EOF,			/* neither length nor chunked: until close */
};

struct docker_parser {
	/* the answer, valid once complete (status and headers earlier) */
	int			 dp_status;
	int			 dp_minor;	/* HTTP/1.<minor>, 0 or 1 */
	int			 dp_close;	/* server will close after it */
	int			 dp_upgraded;	/* 101: the stream follows raw */
	enum docker_body_mode	 dp_mode;
	int64_t			 dp_length;	/* Content-Length, or -1 */
	uint8_t			*dp_body;	/* decoded body, not NUL-ended */
	size_t			 dp_body_len;
	const char		*dp_errstr;	/* after DP_ERROR */
	int			 dp_head;	/* set by the caller: HEAD */

	/* state, private to docker_parse.c */
	size_t			 dp_body_cap;
	size_t			 dp_body_alloc;
	int			 dp_state;
	int			 dp_seen_te;
	size_t			 dp_hdr_bytes;	/* header or trailer block */
	uint64_t		 dp_chunk_left;
	size_t			 dp_line_len;
	char			 dp_line[DOCKER_HDR_MAX + 1];
};

void	docker_parse_init(struct docker_parser *, size_t body_cap);
void	docker_parse_free(struct docker_parser *);
enum docker_parse_rv docker_parse_feed(struct docker_parser *,
	    const void *buf, size_t len, size_t *consumed);
enum docker_parse_rv docker_parse_eof(struct docker_parser *);
int	docker_parse_headers_done(const struct docker_parser *);

#endif /* SPACED_DOCKER_PARSE_H */
