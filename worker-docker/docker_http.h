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

#ifndef SPACED_DOCKER_HTTP_H
#define SPACED_DOCKER_HTTP_H

/*
 * One HTTP/1.1 request and its answer over a connected stream socket
 * that the supervisor handed us.  No libevent evhttp: it closes a
 * pre-connected fd and dials TCP instead.  The fd stays open; closing it
 * is the caller's business.
 */

#include <stddef.h>

#include "docker_parse.h"

#define DOCKER_TIMEOUT_MS	10000	/* per request, connect to answer */

struct docker_request {
	const char	*rq_method;	/* "GET", "POST", ... */
	const char	*rq_path;	/* "/version", "/v1.41/containers/json" */
	const char	*rq_body;	/* JSON, or NULL */
	size_t		 rq_body_len;
	size_t		 rq_answer_cap;	/* largest answer body we accept */
	int		 rq_timeout_ms;	/* whole round trip */
};

/*
 * Sends the request and reads one answer into *answer (initialised here;
 * free it with docker_parse_free even on failure).  Returns NULL on a
 * complete answer of any status, or a code from errors.h:
 * ERR_DOCKER_UNREACHABLE (I/O failure, or closed before a byte came back),
 * ERR_DOCKER_UNREADABLE (malformed, truncated or over a cap),
 * ERR_TIMEOUT (the deadline passed), ERR_INTERNAL (a bad request from us).
 */
const char	*docker_http_roundtrip(int fd, const struct docker_request *,
		    struct docker_parser *answer);

/* Writes the request head into buf; -1 if it does not fit or is unsafe. */
int		 docker_http_head(const struct docker_request *, char *buf,
		    size_t len);

#endif /* SPACED_DOCKER_HTTP_H */
