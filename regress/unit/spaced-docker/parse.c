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

/* The HTTP response parser, fed crafted answers whole and in pieces. */

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "worker-docker/docker_parse.h"

#define CAP	(64 * 1024)

struct outcome {
	enum docker_parse_rv	 rv;
	int			 status;
	int			 close;
	size_t			 consumed;
	size_t			 body_len;
	char			 body[256];
	const char		*errstr;
};

/*
 * Feeds s in the given pieces (cuts are offsets, ascending), then EOF
 * when eof is set and the answer is still open.
 */
static struct outcome
run(const char *s, size_t len, size_t cap, const size_t *cuts, size_t ncuts,
    int eof)
{
	struct docker_parser	*p;
	struct outcome		 o;
	size_t			 at = 0, end, used, k;

	memset(&o, 0, sizeof(o));
	p = malloc(sizeof(*p));
	cr_assert_not_null(p);
	docker_parse_init(p, cap);
	o.rv = DP_NEED_MORE;
	for (k = 0; k <= ncuts && o.rv == DP_NEED_MORE; k++) {
		end = k < ncuts ? cuts[k] : len;
		o.rv = docker_parse_feed(p, s + at, end - at, &used);
		if (o.rv == DP_NEED_MORE)
			cr_assert_eq(used, end - at, "need-more must eat all");
		o.consumed = at + used;
		at = end;
	}
	if (o.rv == DP_NEED_MORE && eof)
		o.rv = docker_parse_eof(p);
	o.status = p->dp_status;
	o.close = p->dp_close;
	o.body_len = p->dp_body_len;
	if (p->dp_body_len > 0 && p->dp_body_len < sizeof(o.body))
		memcpy(o.body, p->dp_body, p->dp_body_len);
	o.errstr = p->dp_errstr;
	docker_parse_free(p);
	free(p);
	return o;
}

static struct outcome
whole(const char *s, size_t cap, int eof)
{
	return run(s, strlen(s), cap, NULL, 0, eof);
}

static void
expect_body(struct outcome o, int status, const char *body)
{
	cr_assert_eq(o.rv, DP_COMPLETE, "rv %d (%s)", o.rv,
	    o.errstr ? o.errstr : "-");
	cr_assert_eq(o.status, status);
	cr_assert_eq(o.body_len, strlen(body));
	cr_assert_str_eq(o.body, body);
}

static void
expect_error(struct outcome o, const char *why)
{
	cr_assert_eq(o.rv, DP_ERROR, "accepted: rv %d", o.rv);
	cr_assert_not_null(o.errstr);
	if (why != NULL)
		cr_assert_str_eq(o.errstr, why);
}

/* The same outcome for every single cut and for one byte at a time. */
static void
expect_split_invariant(const char *s, size_t cap, int eof)
{
	struct outcome	 ref, o;
	size_t		 len = strlen(s), i, *cuts;

	ref = whole(s, cap, eof);
	for (i = 0; i <= len; i++) {
		o = run(s, len, cap, &i, 1, eof);
		cr_assert_eq(o.rv, ref.rv, "cut at %zu", i);
		cr_assert_eq(o.status, ref.status, "cut at %zu", i);
		cr_assert_eq(o.body_len, ref.body_len, "cut at %zu", i);
		cr_assert_eq(memcmp(o.body, ref.body, sizeof(o.body)), 0,
		    "cut at %zu", i);
		if (ref.rv == DP_ERROR)
			cr_assert_str_eq(o.errstr, ref.errstr, "cut at %zu", i);
		else
			cr_assert_eq(o.consumed, ref.consumed, "cut at %zu", i);
	}
	cuts = calloc(len, sizeof(*cuts));
	cr_assert_not_null(cuts);
	for (i = 0; i < len; i++)
		cuts[i] = i;
	o = run(s, len, cap, cuts, len, eof);
	free(cuts);
	cr_assert_eq(o.rv, ref.rv, "byte by byte");
	cr_assert_str_eq(o.body, ref.body, "byte by byte");
	if (ref.rv == DP_ERROR)
		cr_assert_str_eq(o.errstr, ref.errstr, "byte by byte");
	else
		cr_assert_eq(o.consumed, ref.consumed, "byte by byte");
}

#define CL_OK	"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" \
		"Content-Length: 5\r\n\r\nhello"
#define CHUNKED	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" \
		"5;name=val\r\nhello\r\n6 ; x=\"y\"\r\n world\r\n" \
		"B\r\n 0123456789\r\n0\r\nX-Trailer: a\r\nX-More: b\r\n\r\n"
#define EOF_OK	"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close"

Test(parse, content_length)
{
	struct outcome	 o;

	expect_body(whole(CL_OK, CAP, 0), 200, "hello");
	/* bytes after the answer are left for the caller */
	o = whole(CL_OK "EXTRA", CAP, 0);
	expect_body(o, 200, "hello");
	cr_assert_eq(o.consumed, strlen(CL_OK));
	expect_body(whole("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
	    CAP, 0), 404, "");
	/* leading zeros are still the same number */
	expect_body(whole("HTTP/1.1 200 OK\r\nContent-Length: 0005\r\n\r\n"
	    "hello", CAP, 0), 200, "hello");
}

Test(parse, chunked_with_extensions_and_trailers)
{
	expect_body(whole(CHUNKED, CAP, 0), 200, "hello world 0123456789");
	expect_body(whole("HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n"
	    "\r\n000\r\n\r\n", CAP, 0), 200, "");
}

Test(parse, eof_terminated)
{
	struct outcome	 o;

	o = whole(EOF_OK, CAP, 0);
	cr_assert_eq(o.rv, DP_NEED_MORE, "not complete before EOF");
	o = whole(EOF_OK, CAP, 1);
	expect_body(o, 200, "until close");
	cr_assert_eq(o.close, 1);
}

Test(parse, split_at_every_byte)
{
	expect_split_invariant(CL_OK, CAP, 0);
	expect_split_invariant(CL_OK "trailing", CAP, 0);
	expect_split_invariant(CHUNKED, CAP, 0);
	expect_split_invariant(EOF_OK, CAP, 1);
	expect_split_invariant("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
	    "Content-Length: 4\r\n\r\nabcd", CAP, 0);
	expect_split_invariant("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
	    "\r\n\r\n5\r\nhelloXX", CAP, 0);
}

/* A header block of exactly n bytes: status, one X-Pad field, CRLF. */
static char *
header_block(size_t n)
{
	const char	*pre = "HTTP/1.1 204 No Content\r\nX-Pad: ";
	size_t		 fixed = strlen(pre) + 2 + 2, pad = n - fixed;
	char		*s;

	s = malloc(n + 1);
	cr_assert_not_null(s);
	memcpy(s, pre, strlen(pre));
	memset(s + strlen(pre), 'a', pad);
	memcpy(s + strlen(pre) + pad, "\r\n\r\n", 5);
	cr_assert_eq(strlen(s), n);
	return s;
}

Test(parse, header_block_cap)
{
	char	*s;

	s = header_block(DOCKER_HDR_MAX);	/* positive control */
	cr_assert_eq(whole(s, CAP, 0).rv, DP_COMPLETE);
	free(s);
	s = header_block(DOCKER_HDR_MAX + 1);
	expect_error(whole(s, CAP, 0), "header block too large");
	free(s);
}

/* Many short trailer lines: the block is capped, not just each line. */
static char *
trailers(size_t lines)
{
	const char	*pre = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
			    "\r\n\r\n0\r\n";
	const char	*line = "X-T: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
			    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n";
	size_t		 i, n = strlen(pre), l = strlen(line);
	char		*s;

	s = malloc(n + lines * l + 3);
	cr_assert_not_null(s);
	memcpy(s, pre, n);
	for (i = 0; i < lines; i++)
		memcpy(s + n + i * l, line, l);
	memcpy(s + n + lines * l, "\r\n", 3);
	return s;
}

Test(parse, trailer_block_cap)
{
	char	*s;

	s = trailers(100);	/* positive control: 10 KiB */
	cr_assert_eq(whole(s, CAP, 0).rv, DP_COMPLETE);
	free(s);
	s = trailers(200);
	expect_error(whole(s, CAP, 0), "trailer block too large");
	free(s);
}

Test(parse, body_cap)
{
	const char	*cl10 = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"
			    "0123456789";
	const char	*ch = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
			    "\r\n6\r\n012345\r\n5\r\n6789a\r\n0\r\n\r\n";
	const char	*eofb = "HTTP/1.1 200 OK\r\n\r\n0123456789a";

	/* positive controls: at the cap */
	expect_body(whole(cl10, 10, 0), 200, "0123456789");
	expect_body(whole(ch, 11, 0), 200, "0123456789a");
	expect_body(whole(eofb, 11, 1), 200, "0123456789a");
	/* one over */
	expect_error(whole(cl10, 9, 0), "body over cap");
	expect_error(whole(ch, 10, 0), "body over cap");
	expect_error(whole(eofb, 10, 1), "body over cap");
	/* a huge announced length fails at the headers, before any body */
	expect_error(whole("HTTP/1.1 200 OK\r\nContent-Length: "
	    "999999999999\r\n\r\n", DOCKER_BODY_MAX_SMALL, 0), "body over cap");
	expect_error(whole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
	    "\r\n\r\nfffffffff\r\n", DOCKER_BODY_MAX_SMALL, 0),
	    "body over cap");
}

Test(parse, bad_chunk_size)
{
#define TE "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	expect_error(whole(TE "zz\r\nhello\r\n0\r\n\r\n", CAP, 0),
	    "bad chunk size");
	expect_error(whole(TE "\r\n", CAP, 0), "bad chunk size");
	expect_error(whole(TE "-1\r\n", CAP, 0), "bad chunk size");
	expect_error(whole(TE "0x5\r\nhello\r\n", CAP, 0), "bad chunk size");
	expect_error(whole(TE "5 5\r\nhello\r\n", CAP, 0), "bad chunk size");
	expect_error(whole(TE "5\r\nhelloXX", CAP, 0),
	    "chunk not followed by CRLF");
	expect_error(whole(TE "5\r\nhelloX\n0\r\n\r\n", CAP, 0),
	    "chunk not followed by CRLF");
	expect_error(whole(TE "5\r\nhello\rX0\r\n\r\n", CAP, 0),
	    "chunk not followed by CRLF");
	expect_error(whole(TE "5\nhello\r\n", CAP, 0), "bad chunk size line");
	expect_error(whole(TE "10000000000000000\r\n", (size_t)-1, 0),
	    "chunk size overflow");
	/* leading zeros do not overflow */
	expect_body(whole(TE "0000000000000000000005\r\nhello\r\n0\r\n\r\n",
	    CAP, 0), 200, "hello");
	/* a truncated chunked body */
	expect_error(whole(TE "5\r\nhel", CAP, 1), "answer truncated");
#undef TE
}

Test(parse, bad_content_length)
{
#define CL(v) "HTTP/1.1 200 OK\r\nContent-Length: " v "\r\n\r\nhello"
	expect_error(whole(CL("-1"), CAP, 0), "bad Content-Length");
	expect_error(whole(CL("+5"), CAP, 0), "bad Content-Length");
	expect_error(whole(CL("5, 5"), CAP, 0), "bad Content-Length");
	expect_error(whole(CL("0x5"), CAP, 0), "bad Content-Length");
	expect_error(whole(CL(""), CAP, 0), "empty Content-Length");
	expect_error(whole(CL("18446744073709551621"), (size_t)-1, 0),
	    "Content-Length overflow");
	expect_error(whole(CL("9223372036854775813"), (size_t)-1, 0),
	    "Content-Length overflow");
	/* truncated before the length is reached */
	expect_error(whole(CL("6"), CAP, 1), "answer truncated");
#undef CL
}

Test(parse, duplicate_content_length)
{
	expect_error(whole("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
	    "Content-Length: 4\r\n\r\nabcd", CAP, 0),
	    "conflicting Content-Length");
	/* the same value twice is one length (RFC 9110 8.6) */
	expect_body(whole("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n"
	    "content-length: 4\r\n\r\nabcd", CAP, 0), 200, "abcd");
}

Test(parse, framing_conflicts)
{
	expect_error(whole("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", CAP, 0),
	    "both Content-Length and Transfer-Encoding");
	expect_error(whole("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, "
	    "chunked\r\n\r\n", CAP, 0), "unsupported Transfer-Encoding");
	expect_error(whole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n", CAP, 0),
	    "unsupported Transfer-Encoding");
}

Test(parse, missing_or_bad_status_line)
{
	expect_error(whole("Content-Length: 5\r\n\r\nhello", CAP, 0),
	    "no HTTP/1.x status line");
	expect_error(whole("\r\nHTTP/1.1 200 OK\r\n\r\n", CAP, 0),
	    "no HTTP/1.x status line");
	expect_error(whole("HTTP/2 200 OK\r\n\r\n", CAP, 0),
	    "no HTTP/1.x status line");
	expect_error(whole("HTTP/1.2 200 OK\r\n\r\n", CAP, 0),
	    "no HTTP/1.x status line");
	expect_error(whole("HTTP/1.1 20 OK\r\n\r\n", CAP, 0),
	    "bad status code");
	expect_error(whole("HTTP/1.1 2000 OK\r\n\r\n", CAP, 0),
	    "bad status code");
	expect_error(whole("HTTP/1.1 099 Low\r\n\r\n", CAP, 0),
	    "bad status code");
	expect_error(whole("", CAP, 1), "answer truncated");
	expect_error(whole("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n", CAP, 1),
	    "answer truncated");
	/* a reason phrase is optional */
	expect_body(whole("HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx", CAP, 0),
	    200, "x");
}

Test(parse, http10)
{
	struct outcome	 o;

	o = whole("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nOK", CAP, 0);
	expect_body(o, 200, "OK");
	cr_assert_eq(o.close, 1, "no reuse after HTTP/1.0");
	expect_body(whole("HTTP/1.0 200 OK\r\n\r\nbody", CAP, 1), 200, "body");
	expect_error(whole("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n"
	    "\r\n4\r\nbody\r\n0\r\n\r\n", CAP, 0),
	    "Transfer-Encoding in HTTP/1.0");
}

Test(parse, line_endings_and_fields)
{
	expect_error(whole("HTTP/1.1 200 OK\nContent-Length: 0\n\n", CAP, 0),
	    "bad line ending or character");
	expect_error(whole("HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n", CAP, 0),
	    "bad line ending or character");
	expect_error(run("HTTP/1.1 200 OK\r\nX: a\0b\r\n\r\n", 28, CAP, NULL,
	    0, 0), "bad line ending or character");
	expect_error(whole("HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", CAP, 0),
	    "obsolete header folding");
	expect_error(whole("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n"
	    "hello", CAP, 0), "malformed header field");
	expect_error(whole("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", CAP, 0),
	    "malformed header field");
	expect_error(whole("HTTP/1.1 200 OK\r\n: empty\r\n\r\n", CAP, 0),
	    "malformed header field");
	expect_error(whole("HTTP/1.1 200 OK\r\nX: a\x01\r\n\r\n", CAP, 0),
	    "malformed header field");
	/* value whitespace is trimmed */
	expect_body(whole("HTTP/1.1 200 OK\r\nContent-Length: \t 2 \t\r\n"
	    "\r\nok", CAP, 0), 200, "ok");
}

Test(parse, status_without_body)
{
	struct docker_parser	*p = malloc(sizeof(*p));
	const char		*head = "HTTP/1.1 101 UPGRADED\r\n"
				    "Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n";
	char			 s[128];
	size_t			 used;

	expect_body(whole("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n"
	    "\r\n", CAP, 0), 204, "");
	expect_body(whole("HTTP/1.1 304 Not Modified\r\n\r\n", CAP, 0), 304,
	    "");
	expect_error(whole("HTTP/1.1 100 Continue\r\n\r\n", CAP, 0),
	    "unexpected interim response");

	/* 101: complete at the headers, the stream bytes left unread */
	cr_assert_not_null(p);
	docker_parse_init(p, CAP);
	memcpy(s, head, strlen(head));
	memcpy(s + strlen(head), "\x01\0\0\0\0\0\0\x02hi", 10);
	cr_assert_eq(docker_parse_feed(p, s, strlen(head) + 10, &used),
	    DP_COMPLETE);
	cr_assert_eq(p->dp_upgraded, 1);
	cr_assert_eq(used, strlen(head));
	docker_parse_free(p);
	free(p);
}

Test(parse, connection_close)
{
	cr_assert_eq(whole("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close"
	    "\r\nContent-Length: 0\r\n\r\n", CAP, 0).close, 1);
	cr_assert_eq(whole("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n"
	    "Content-Length: 0\r\n\r\n", CAP, 0).close, 0);
}

Test(parse, dead_parser_stays_dead)
{
	struct docker_parser	*p = malloc(sizeof(*p));
	size_t			 used;

	cr_assert_not_null(p);
	docker_parse_init(p, CAP);
	cr_assert_eq(docker_parse_feed(p, "HTTP/9", 6, &used), DP_NEED_MORE);
	cr_assert_eq(docker_parse_feed(p, " x\r\n", 4, &used), DP_ERROR);
	cr_assert_eq(docker_parse_feed(p, CL_OK, strlen(CL_OK), &used),
	    DP_ERROR);
	cr_assert_eq(docker_parse_eof(p), DP_ERROR);
	docker_parse_free(p);
	free(p);
}
