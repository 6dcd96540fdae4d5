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
 * The gatekeeper's request head parser and chunked body scanner
 * (gatekeeper/spaced-gatekeeper/gk_http.c): what every listener reads from a space first.
 * Each refusal has a positive control next to it that differs only in
 * the byte the rule is about.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gatekeeper/spaced-gatekeeper/gk_http.h"

static struct gk_http_head	h;

static enum gk_http_status
parse(const char *s)
{
	return gk_http_parse(s, strlen(s), &h);
}

Test(gk_http, connect_head)
{
	const char	*s = "CONNECT example.com:443 HTTP/1.1\r\n"
	    "Host: example.com:443\r\n\r\nTLS";

	cr_assert_eq(parse(s), GK_HTTP_COMPLETE);
	cr_assert(gk_http_method_is(&h, "CONNECT"));
	cr_assert_eq(h.hh_targetlen, 15);
	cr_assert_eq(memcmp(h.hh_target, "example.com:443", 15), 0);
	cr_assert_eq(h.hh_minor, 1);
	cr_assert_eq(h.hh_headlen, strlen(s) - 3, "tunnel bytes are not head");
	cr_assert_eq(h.hh_nfields, 1);
	cr_assert(gk_http_field_is(&h.hh_fields[0], "HOST"));
	cr_assert_eq(h.hh_fields[0].hf_valuelen, 15);
}

Test(gk_http, every_prefix_needs_more)
{
	const char	*s = "GET /x HTTP/1.1\r\nA: b\r\n\r\n";
	size_t		 i;

	for (i = 0; i < strlen(s); i++)
		cr_assert_eq(gk_http_parse(s, i, &h), GK_HTTP_NEED_MORE,
		    "prefix %zu", i);
	cr_assert_eq(parse(s), GK_HTTP_COMPLETE);
}

Test(gk_http, bare_lf_lines)
{
	cr_assert_eq(parse("GET / HTTP/1.0\nHost: a\n\n"), GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_minor, 0);
	cr_assert_eq(h.hh_nfields, 1);
}

Test(gk_http, value_blanks_trimmed)
{
	cr_assert_eq(parse("GET / HTTP/1.1\r\nX-A: \t v w \t\r\n\r\n"),
	    GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_fields[0].hf_valuelen, 3);
	cr_assert_eq(memcmp(h.hh_fields[0].hf_value, "v w", 3), 0);
}

Test(gk_http, malformed_request_lines)
{
	static const char *bad[] = {
		"\r\nGET / HTTP/1.1\r\n\r\n",		/* leading blank line */
		"GET  / HTTP/1.1\r\n\r\n",		/* empty target */
		"GET / HTTP/2.0\r\n\r\n",
		"GET / HTTP/1.1 \r\n\r\n",
		"GET / http/1.1\r\n\r\n",
		"GET /\x01 HTTP/1.1\r\n\r\n",
		"G(T / HTTP/1.1\r\n\r\n",		/* not a token */
		"GET /\r\n\r\n",
		"GET / HTTP/1.1\rX\r\n\r\n",		/* bare CR */
	};
	size_t	 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(parse(bad[i]), GK_HTTP_MALFORMED, "%zu", i);
	cr_assert_eq(parse("GET / HTTP/1.1\r\n\r\n"), GK_HTTP_COMPLETE);
}

Test(gk_http, malformed_fields)
{
	static const char *bad[] = {
		"GET / HTTP/1.1\r\nNoColon\r\n\r\n",
		"GET / HTTP/1.1\r\n: empty-name\r\n\r\n",
		"GET / HTTP/1.1\r\nBad Name: v\r\n\r\n",
		"GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",	/* obs-fold */
		"GET / HTTP/1.1\r\nA: b\x01\r\n\r\n",
		"GET / HTTP/1.1\r\nA: b\x7f\r\n\r\n",
	};
	size_t	 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(parse(bad[i]), GK_HTTP_MALFORMED, "%zu", i);
	/* Obs-text is a value byte. */
	cr_assert_eq(parse("GET / HTTP/1.1\r\nA: b\xe9\r\n\r\n"),
	    GK_HTTP_COMPLETE);
}

Test(gk_http, head_cap)
{
	char	*s;
	size_t	 n = GK_HTTP_HEAD_MAX + 100;

	s = malloc(n + 1);
	cr_assert_not_null(s);
	memset(s, 'a', n);
	memcpy(s, "GET / HTTP/1.1\r\nX: ", 19);
	s[n] = '\0';
	/* No blank line within the cap: refused, however much follows. */
	cr_assert_eq(gk_http_parse(s, GK_HTTP_HEAD_MAX, &h), GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse(s, n, &h), GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse(s, GK_HTTP_HEAD_MAX - 1, &h),
	    GK_HTTP_NEED_MORE);
	/* Ended past the cap, with the whole of it at hand: still refused. */
	memcpy(s + GK_HTTP_HEAD_MAX + 50, "\r\n\r\n", 4);
	cr_assert_eq(gk_http_parse(s, n, &h), GK_HTTP_MALFORMED);
	/* The same head ended just inside the cap is complete. */
	memcpy(s + GK_HTTP_HEAD_MAX - 4, "\r\n\r\n", 4);
	cr_assert_eq(gk_http_parse(s, n, &h), GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_headlen, GK_HTTP_HEAD_MAX);
	free(s);
}

Test(gk_http, field_count_cap)
{
	char	 buf[8192];
	size_t	 off, i;

	off = snprintf(buf, sizeof(buf), "GET / HTTP/1.1\r\n");
	for (i = 0; i < GK_HTTP_FIELDS_MAX; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "A%zu: v\r\n", i);
	snprintf(buf + off, sizeof(buf) - off, "\r\n");
	cr_assert_eq(parse(buf), GK_HTTP_COMPLETE);
	snprintf(buf + off, sizeof(buf) - off, "Z: v\r\n\r\n");
	cr_assert_eq(parse(buf), GK_HTTP_MALFORMED);
}

static int
framing(const char *s, enum gk_body_kind *k, uint64_t *len)
{
	cr_assert_eq(parse(s), GK_HTTP_COMPLETE, "%s", s);
	return gk_http_body_framing(&h, k, len);
}

Test(gk_http, body_framing)
{
	enum gk_body_kind	 k;
	uint64_t		 n;

	cr_assert_eq(framing("GET / HTTP/1.1\r\n\r\n", &k, &n), 0);
	cr_assert_eq(k, GK_BODY_NONE);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n",
	    &k, &n), 0);
	cr_assert_eq(k, GK_BODY_LENGTH);
	cr_assert_eq(n, 12);
	cr_assert_eq(framing("POST / HTTP/1.1\r\ncontent-length: 3\r\n"
	    "Content-Length: 3\r\n\r\n", &k, &n), 0);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked"
	    "\r\n\r\n", &k, &n), 0);
	cr_assert_eq(k, GK_BODY_CHUNKED);

	/* Two framings, or one the upstream could read differently. */
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: 3\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n", &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: 3\r\n"
	    "Content-Length: 4\r\n\r\n", &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\n",
	    &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: +3\r\n\r\n",
	    &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nContent-Length: \r\n\r\n",
	    &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, "
	    "chunked\r\n\r\n", &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
	    "\r\nTransfer-Encoding: chunked\r\n\r\n", &k, &n), -1);
	cr_assert_eq(framing("POST / HTTP/1.0\r\nTransfer-Encoding: chunked"
	    "\r\n\r\n", &k, &n), -1);
}

static enum gk_http_status
scan(const char *s, size_t *used)
{
	struct gk_chunk	 ck;

	gk_chunk_init(&ck);
	return gk_chunk_scan(&ck, s, strlen(s), used);
}

Test(gk_http, chunks)
{
	const char	*body = "5;name=v\r\nhello\r\n10\r\n0123456789abcdef\r\n"
	    "0\r\nTrailer: x\r\n\r\n";
	char		 buf[256];
	size_t		 used, i, total = 0;
	struct gk_chunk	 ck;
	enum gk_http_status st = GK_HTTP_NEED_MORE;

	/* The end is found exactly; what follows is not the body's. */
	snprintf(buf, sizeof(buf), "%sGET /next HTTP/1.1\r\n\r\n", body);
	cr_assert_eq(scan(buf, &used), GK_HTTP_COMPLETE);
	cr_assert_eq(used, strlen(body));

	/* Fed one byte at a time, the same end. */
	gk_chunk_init(&ck);
	for (i = 0; i < strlen(buf) && st == GK_HTTP_NEED_MORE; i++) {
		st = gk_chunk_scan(&ck, buf + i, 1, &used);
		total += used;
	}
	cr_assert_eq(st, GK_HTTP_COMPLETE);
	cr_assert_eq(total, strlen(body));

	cr_assert_eq(scan("0\r\n\r\n", &used), GK_HTTP_COMPLETE);
	cr_assert_eq(scan("5\r\nhel", &used), GK_HTTP_NEED_MORE);
	cr_assert_eq(used, 6);
}

Test(gk_http, chunks_malformed)
{
	static const char *bad[] = {
		"\r\n",				/* no size */
		"x\r\n",
		"5\nhello\r\n0\r\n\r\n",	/* bare LF after the size */
		"5\r\nhelloX\r\n",		/* data longer than its size */
		"5\r\nhello\n0\r\n\r\n",
		"5\r\nhello\n\n0\r\n\r\n",		/* LF LF after the data */
		"1000000000000000\r\n",		/* 16 hex digits */
		"0\r\nT: a\nb\r\n\r\n",
	};
	size_t	 i, used;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(scan(bad[i], &used), GK_HTTP_MALFORMED, "%zu", i);
	cr_assert_eq(scan("5\r\nhello\r\n0\r\n\r\n", &used), GK_HTTP_COMPLETE);
	cr_assert_eq(scan("fffffffffffffff\r\n", &used), GK_HTTP_NEED_MORE);
}

Test(gk_http, response_heads)
{
	const char	*s = "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n"
	    "Content-Length: 2\r\n\r\nok";

	cr_assert_eq(gk_http_parse_response(s, strlen(s), &h),
	    GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_status, 200);
	cr_assert_eq(h.hh_nfields, 2);
	cr_assert_eq(h.hh_headlen, strlen(s) - 2);
	s = "HTTP/1.1 204\r\n\r\n";
	cr_assert_eq(gk_http_parse_response(s, strlen(s), &h),
	    GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_status, 204);
	s = "HTTP/1.1 100 Continue\r\n\r\n";
	cr_assert_eq(gk_http_parse_response(s, strlen(s), &h),
	    GK_HTTP_COMPLETE);
	cr_assert_eq(h.hh_status, 100);

	cr_assert_eq(gk_http_parse_response("HTTP/1.1 20 OK\r\n\r\n", 19, &h),
	    GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse_response("HTTP/1.1 099 X\r\n\r\n", 20, &h),
	    GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse_response("HTTP/1.1 200OK\r\n\r\n", 20, &h),
	    GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse_response("HTTP/2 200 OK\r\n\r\n", 19, &h),
	    GK_HTTP_MALFORMED);
	/* A request line is not an answer, nor the other way round. */
	cr_assert_eq(gk_http_parse_response("GET / HTTP/1.1\r\n\r\n", 18, &h),
	    GK_HTTP_MALFORMED);
	cr_assert_eq(gk_http_parse("HTTP/1.1 200 OK\r\n\r\n", 19, &h),
	    GK_HTTP_MALFORMED);
}
