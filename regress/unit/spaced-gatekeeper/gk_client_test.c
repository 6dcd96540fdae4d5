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
 * spaced-gatekeeper -C: what may go into the request line, and how an
 * answer is taken apart (complete, more needed, malformed or cut short).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gatekeeper/spaced-gatekeeper/gatekeeper.h"

Test(gk_client, methods)
{
	cr_assert_eq(client_method_ok("GET"), 0);
	cr_assert_eq(client_method_ok("POST"), 0);
	cr_assert_eq(client_method_ok("DELETE"), 0);
	cr_assert_eq(client_method_ok(""), -1);
	cr_assert_eq(client_method_ok("get"), -1);
	cr_assert_eq(client_method_ok("G T"), -1);
	cr_assert_eq(client_method_ok("GET\r\nX"), -1);
	cr_assert_eq(client_method_ok("G3T"), -1);
	cr_assert_eq(client_method_ok("ABCDEFGHIJKLMNOPQ"), -1);
}

Test(gk_client, paths)
{
	char	 c[4];
	int	 b;

	cr_assert_eq(client_path_ok("/health"), 0);
	cr_assert_eq(client_path_ok("/"), 0);
	cr_assert_eq(client_path_ok("/journal?x=1"), 0);
	cr_assert_eq(client_path_ok(""), -1);
	cr_assert_eq(client_path_ok("health"), -1);
	cr_assert_eq(client_path_ok("http://x/"), -1);
	/* Every byte up to and with the space, and DEL. */
	for (b = 1; b <= 0x20; b++) {
		snprintf(c, sizeof(c), "/%c", b);
		cr_assert_eq(client_path_ok(c), -1, "byte 0x%02x", b);
	}
	cr_assert_eq(client_path_ok("/\x7f"), -1);
	cr_assert_eq(client_path_ok("/\x80"), 0);
}

static int
answer(const char *s, int eof, int *status, char **body, const char **why)
{
	size_t	 off = 0, len = 0;
	int	 rc;

	*why = NULL;
	rc = client_answer(s, strlen(s), eof, status, &off, &len, why);
	if (rc == 1)
		*body = strndup(s + off, len);
	return rc;
}

Test(gk_client, answer_with_length)
{
	const char	*ok = "HTTP/1.1 200 OK\r\ncontent-length: 11\r\n"
	    "connection: close\r\n\r\n{\"ok\":true}";
	const char	*why;
	char		*body = NULL;
	int		 status = 0;

	cr_assert_eq(answer(ok, 0, &status, &body, &why), 1);
	cr_assert_eq(status, 200);
	cr_assert_str_eq(body, "{\"ok\":true}");
	free(body);
	/* Bytes after the body are not part of it. */
	cr_assert_eq(answer("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n"
	    "\r\nabcdef", 1, &status, &body, &why), 1);
	cr_assert_eq(status, 404);
	cr_assert_str_eq(body, "ab");
	free(body);
	/* A length of 0 is a whole answer. */
	cr_assert_eq(answer("HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n"
	    "\r\n", 0, &status, &body, &why), 1);
	cr_assert_str_eq(body, "");
	free(body);
}

Test(gk_client, answer_needs_more_or_is_cut)
{
	const char	*why;
	char		*body = NULL;
	int		 status = 0;

	cr_assert_eq(answer("", 0, &status, &body, &why), 0);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-len", 0, &status,
	    &body, &why), 0);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nab",
	    0, &status, &body, &why), 0);
	cr_assert_eq(answer("", 1, &status, &body, &why), -1);
	cr_assert_not_null(why);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-len", 1, &status,
	    &body, &why), -1);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nab",
	    1, &status, &body, &why), -1);
	cr_assert_str_eq(why, "answer body cut short");
}

Test(gk_client, answer_to_eof)
{
	const char	*why;
	char		*body = NULL;
	int		 status = 0;

	/* No framing: the body is what came before the end. */
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\n\r\nhello", 0, &status, &body,
	    &why), 0);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\n\r\nhello", 1, &status, &body,
	    &why), 1);
	cr_assert_str_eq(body, "hello");
	free(body);
}

Test(gk_client, answer_malformed)
{
	const char	*why;
	char		*body = NULL;
	int		 status = 0;

	cr_assert_eq(answer("SSH-2.0-x\r\n\r\n", 0, &status, &body, &why), -1);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-length: 1\r\n"
	    "content-length: 2\r\n\r\nab", 1, &status, &body, &why), -1);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n", 1,
	    &status, &body, &why), -1);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n"
	    "transfer-encoding: chunked\r\n\r\nabc", 1, &status, &body, &why),
	    -1);
	cr_assert_eq(answer("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n"
	    "\r\n3\r\nabc\r\n0\r\n\r\n", 1, &status, &body, &why), -1);
	cr_assert_str_eq(why, "chunked answer");
	cr_assert_eq(answer("HTTP/1.1 20 OK\r\n\r\n", 1, &status, &body, &why),
	    -1);
}
