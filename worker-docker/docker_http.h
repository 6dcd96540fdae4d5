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
 * The head of one HTTP/1.1 request to the Engine.  Pure: the bytes go out
 * through docker_req.c.  No libevent evhttp: it closes a pre-connected
 * fd and dials TCP instead.
 */

#include <stddef.h>

#define DOCKER_HEAD_MAX		8192

struct docker_request {
	const char	*rq_method;	/* "GET", "POST", ... */
	const char	*rq_path;	/* "/version", "/v1.41/containers/json" */
	const char	*rq_body;	/* or NULL */
	size_t		 rq_body_len;
	const char	*rq_type;	/* of the body; NULL: JSON */
	int		 rq_upgrade;	/* Connection: Upgrade, Upgrade: tcp */
};

/* Writes the request head into buf; -1 if it does not fit or is unsafe. */
int		 docker_http_head(const struct docker_request *, char *buf,
		    size_t len);

#endif /* SPACED_DOCKER_HTTP_H */
