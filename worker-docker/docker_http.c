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
 * Request heads for the Engine API.  Method and path are checked before
 * they go into a head: a path with a space or CRLF in it would split one
 * request into two.
 */

#include <stdio.h>
#include <string.h>

#include "docker_http.h"

/* Method: upper-case letters.  Path: origin-form, visible ASCII only. */
static int
request_is_safe(const struct docker_request *rq)
{
	const char	*s;

	if (rq->rq_method == NULL || *rq->rq_method == '\0' ||
	    rq->rq_path == NULL || rq->rq_path[0] != '/')
		return 0;
	for (s = rq->rq_method; *s != '\0'; s++)
		if (*s < 'A' || *s > 'Z')
			return 0;
	for (s = rq->rq_path; *s != '\0'; s++)
		if (*s <= 0x20 || *s >= 0x7f)
			return 0;
	if (rq->rq_type != NULL)
		for (s = rq->rq_type; *s != '\0'; s++)
			if (*s <= 0x20 || *s >= 0x7f)
				return 0;
	return rq->rq_body != NULL || rq->rq_body_len == 0;
}

int
docker_http_head(const struct docker_request *rq, char *buf, size_t len)
{
	int	 n;

	if (!request_is_safe(rq))
		return -1;
	if (rq->rq_body != NULL)
		n = snprintf(buf, len, "%s %s HTTP/1.1\r\n"
		    "Host: docker\r\n"
		    "User-Agent: spaced\r\n"
		    "%s"
		    "Content-Type: %s\r\n"
		    "Content-Length: %zu\r\n"
		    "\r\n", rq->rq_method, rq->rq_path,
		    rq->rq_upgrade ? "Connection: Upgrade\r\nUpgrade: tcp\r\n" : "",
		    rq->rq_type != NULL ? rq->rq_type : "application/json",
		    rq->rq_body_len);
	else
		n = snprintf(buf, len, "%s %s HTTP/1.1\r\n"
		    "Host: docker\r\n"
		    "User-Agent: spaced\r\n"
		    "\r\n", rq->rq_method, rq->rq_path);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}
