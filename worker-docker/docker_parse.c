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
 * One HTTP/1.1 response, byte by byte (RFC 9112).  Strict where a lax
 * reading could be steered: CRLF only, no obs-fold, one framing (never
 * both Content-Length and Transfer-Encoding), Content-Length digits only,
 * chunked the only transfer coding.  Every count is checked against a cap
 * before it is used, so a hostile length cannot make us allocate or wait.
 */

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "docker_parse.h"

enum {
	ST_STATUS = 0,
	ST_HEADER,
	ST_BODY_LEN,
	ST_BODY_EOF,
	ST_CHUNK_SIZE,
	ST_CHUNK_DATA,
	ST_CHUNK_CR,
	ST_CHUNK_LF,
	ST_TRAILER,
	ST_DONE,
	ST_DEAD,
};

/* 16 hex digits would overflow the checks below; no body is that big. */
#define CHUNK_HEX_DIGITS_MAX	15
/* Content-Length digits we read before calling it an overflow. */
#define LENGTH_DIGITS_MAX	18

static enum docker_parse_rv
fail(struct docker_parser *p, const char *why)
{
	p->dp_state = ST_DEAD;
	p->dp_errstr = why;
	return DP_ERROR;
}

void
docker_parse_init(struct docker_parser *p, size_t body_cap)
{
	memset(p, 0, sizeof(*p));
	p->dp_length = -1;
	p->dp_body_cap = body_cap;
	p->dp_state = ST_STATUS;
}

void
docker_parse_free(struct docker_parser *p)
{
	free(p->dp_body);
	p->dp_body = NULL;
	p->dp_body_len = p->dp_body_alloc = 0;
}

int
docker_parse_headers_done(const struct docker_parser *p)
{
	return p->dp_state != ST_STATUS && p->dp_state != ST_HEADER &&
	    p->dp_state != ST_DEAD;
}

static int
is_tchar(unsigned char c)
{
	return isalnum(c) || strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Field values and reason phrases: no controls except HTAB. */
static int
is_field_text(const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = *s;
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 1;
}

/* Returns NULL, or why the bytes cannot be kept. */
static const char *
body_append(struct docker_parser *p, const uint8_t *buf, size_t n)
{
	size_t	 need, nalloc;
	uint8_t	*nb;

	if (n > p->dp_body_cap - p->dp_body_len)
		return "body over cap";
	need = p->dp_body_len + n;
	if (need > p->dp_body_alloc) {
		nalloc = p->dp_body_alloc ? p->dp_body_alloc : 4096;
		while (nalloc < need && nalloc <= SIZE_MAX / 2)
			nalloc *= 2;
		if (nalloc < need)
			nalloc = need;
		if (nalloc > p->dp_body_cap)
			nalloc = p->dp_body_cap;
		if ((nb = realloc(p->dp_body, nalloc)) == NULL)
			return "out of memory for the body";
		p->dp_body = nb;
		p->dp_body_alloc = nalloc;
	}
	memcpy(p->dp_body + p->dp_body_len, buf, n);
	p->dp_body_len += n;
	return NULL;
}

/*
 * Collect one CRLF-terminated line.  Returns 1 when dp_line holds a
 * whole line (without CRLF), 0 for more, -1 on a bare CR or LF, a NUL,
 * or a line over max.
 */
static int
line_byte(struct docker_parser *p, char c, size_t max)
{
	size_t	 n = p->dp_line_len;

	if (c == '\n') {
		if (n == 0 || p->dp_line[n - 1] != '\r')
			return -1;
		p->dp_line[n - 1] = '\0';
		p->dp_line_len = 0;
		return 1;
	}
	if (c == '\0' || (n > 0 && p->dp_line[n - 1] == '\r') || n >= max)
		return -1;
	p->dp_line[n] = c;
	p->dp_line_len = n + 1;
	return 0;
}

static enum docker_parse_rv
parse_status(struct docker_parser *p, const char *l)
{
	/* "HTTP/1.1 200 OK": version, one SP, three digits, SP reason. */
	if (strncmp(l, "HTTP/1.", 7) != 0 || (l[7] != '0' && l[7] != '1') ||
	    l[8] != ' ')
		return fail(p, "no HTTP/1.x status line");
	if (!isdigit((unsigned char)l[9]) || !isdigit((unsigned char)l[10]) ||
	    !isdigit((unsigned char)l[11]) || (l[12] != ' ' && l[12] != '\0'))
		return fail(p, "bad status code");
	if (!is_field_text(l + 12))
		return fail(p, "control character in reason phrase");
	p->dp_minor = l[7] - '0';
	p->dp_status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
	if (p->dp_status < 100 || p->dp_status > 599)
		return fail(p, "bad status code");
	p->dp_state = ST_HEADER;
	return DP_NEED_MORE;
}

static enum docker_parse_rv
parse_length(struct docker_parser *p, const char *v)
{
	int64_t	 n = 0;
	size_t	 digits = 0;

	/* Digits only: no sign, no list ("5, 5"), no spaces inside. */
	if (*v == '\0')
		return fail(p, "empty Content-Length");
	for (; *v != '\0'; v++) {
		if (!isdigit((unsigned char)*v))
			return fail(p, "bad Content-Length");
		if (n == 0 && *v == '0' && digits == 0)
			continue;	/* leading zeros do not count */
		if (++digits > LENGTH_DIGITS_MAX)
			return fail(p, "Content-Length overflow");
		n = n * 10 + (*v - '0');
	}
	if (p->dp_length != -1 && p->dp_length != n)
		return fail(p, "conflicting Content-Length");
	p->dp_length = n;
	return DP_NEED_MORE;
}

/* Connection is a comma list of tokens; only "close" matters to us. */
static void
parse_connection(struct docker_parser *p, const char *v)
{
	const char	*s = v, *e;
	size_t		 n;

	while (*s != '\0') {
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		e = s;
		while (*e != '\0' && *e != ',' && *e != ' ' && *e != '\t')
			e++;
		n = e - s;
		if (n == 5 && strncasecmp(s, "close", 5) == 0)
			p->dp_close = 1;
		s = e;
	}
}

/* Splits "name: value"; value is trimmed of SP and HTAB. */
static int
split_field(char *l, char **name, char **value)
{
	char	*colon, *v, *end;
	char	*c;

	if ((colon = strchr(l, ':')) == NULL || colon == l)
		return -1;
	for (c = l; c < colon; c++)
		if (!is_tchar((unsigned char)*c))
			return -1;	/* includes SP before the colon */
	*colon = '\0';
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	end = v + strlen(v);
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (!is_field_text(v))
		return -1;
	*name = l;
	*value = v;
	return 0;
}

static enum docker_parse_rv
headers_end(struct docker_parser *p)
{
	if (p->dp_minor == 0) {
		/* We never reuse a connection after an HTTP/1.0 answer. */
		p->dp_close = 1;
		if (p->dp_seen_te)
			return fail(p, "Transfer-Encoding in HTTP/1.0");
	}
	if (p->dp_seen_te && p->dp_length != -1)
		return fail(p, "both Content-Length and Transfer-Encoding");

	if (p->dp_status == 101) {
		/* The caller takes the raw stream from here on. */
		p->dp_upgraded = 1;
		p->dp_mode = DB_NONE;
		p->dp_state = ST_DONE;
		return DP_COMPLETE;
	}
	if (p->dp_status < 200)
		return fail(p, "unexpected interim response");
	/* An answer to HEAD has no body, whatever its headers announce. */
	if (p->dp_head || p->dp_status == 204 || p->dp_status == 304) {
		p->dp_mode = DB_NONE;
		p->dp_state = ST_DONE;
		return DP_COMPLETE;
	}
	if (p->dp_seen_te) {
		p->dp_mode = DB_CHUNKED;
		p->dp_state = ST_CHUNK_SIZE;
		return DP_NEED_MORE;
	}
	if (p->dp_length != -1) {
		if ((uint64_t)p->dp_length > p->dp_body_cap)
			return fail(p, "body over cap");
		if (p->dp_length == 0) {
			p->dp_mode = DB_NONE;
			p->dp_state = ST_DONE;
			return DP_COMPLETE;
		}
		p->dp_mode = DB_LENGTH;
		p->dp_state = ST_BODY_LEN;
		return DP_NEED_MORE;
	}
	p->dp_mode = DB_EOF;
	p->dp_close = 1;
	p->dp_state = ST_BODY_EOF;
	return DP_NEED_MORE;
}

static enum docker_parse_rv
parse_header(struct docker_parser *p, char *l)
{
	char	*name, *value;

	if (*l == '\0')
		return headers_end(p);
	if (*l == ' ' || *l == '\t')
		return fail(p, "obsolete header folding");
	if (split_field(l, &name, &value) == -1)
		return fail(p, "malformed header field");
	if (strcasecmp(name, "Content-Length") == 0)
		return parse_length(p, value);
	if (strcasecmp(name, "Transfer-Encoding") == 0) {
		/* chunked, once, and nothing layered on top of it */
		if (p->dp_seen_te || strcasecmp(value, "chunked") != 0)
			return fail(p, "unsupported Transfer-Encoding");
		p->dp_seen_te = 1;
	} else if (strcasecmp(name, "Connection") == 0)
		parse_connection(p, value);
	return DP_NEED_MORE;
}

static enum docker_parse_rv
parse_chunk_size(struct docker_parser *p, const char *l)
{
	uint64_t	 n = 0;
	size_t		 digits = 0;
	const char	*s = l;
	int		 v;

	for (; isxdigit((unsigned char)*s); s++) {
		v = isdigit((unsigned char)*s) ? *s - '0' :
		    tolower((unsigned char)*s) - 'a' + 10;
		if (n == 0 && v == 0)
			continue;	/* leading zeros do not count */
		if (++digits > CHUNK_HEX_DIGITS_MAX)
			return fail(p, "chunk size overflow");
		n = n * 16 + v;
	}
	if (s == l)
		return fail(p, "bad chunk size");
	/* Extensions are allowed and ignored: BWS ";" ... */
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0' && *s != ';')
		return fail(p, "bad chunk size");
	if (!is_field_text(s))
		return fail(p, "control character in chunk extension");
	if (n > p->dp_body_cap - p->dp_body_len)
		return fail(p, "body over cap");
	if (n == 0) {
		p->dp_hdr_bytes = 0;
		p->dp_state = ST_TRAILER;
	} else {
		p->dp_chunk_left = n;
		p->dp_state = ST_CHUNK_DATA;
	}
	return DP_NEED_MORE;
}

static enum docker_parse_rv
parse_trailer(struct docker_parser *p, char *l)
{
	char	*name, *value;

	if (*l == '\0') {
		p->dp_state = ST_DONE;
		return DP_COMPLETE;
	}
	/* Trailers are read for framing and dropped. */
	if (*l == ' ' || *l == '\t' || split_field(l, &name, &value) == -1)
		return fail(p, "malformed trailer field");
	return DP_NEED_MORE;
}

/* A line-oriented state consumes one byte. */
static enum docker_parse_rv
line_state(struct docker_parser *p, char c)
{
	size_t	 max;
	int	 r;

	if (p->dp_state == ST_CHUNK_SIZE)
		max = DOCKER_CHUNK_LINE_MAX;
	else {
		if (++p->dp_hdr_bytes > DOCKER_HDR_MAX)
			return fail(p, p->dp_state == ST_TRAILER ?
			    "trailer block too large" : "header block too large");
		max = DOCKER_HDR_MAX;
	}
	if ((r = line_byte(p, c, max)) == -1)
		return fail(p, p->dp_state == ST_CHUNK_SIZE ?
		    "bad chunk size line" : "bad line ending or character");
	if (r == 0)
		return DP_NEED_MORE;
	switch (p->dp_state) {
	case ST_STATUS:
		return parse_status(p, p->dp_line);
	case ST_HEADER:
		return parse_header(p, p->dp_line);
	case ST_CHUNK_SIZE:
		return parse_chunk_size(p, p->dp_line);
	default:
		return parse_trailer(p, p->dp_line);
	}
}

enum docker_parse_rv
docker_parse_feed(struct docker_parser *p, const void *buf, size_t len,
    size_t *consumed)
{
	const uint8_t		*b = buf;
	const char		*why;
	size_t			 i = 0, n;
	enum docker_parse_rv	 rv = DP_NEED_MORE;

	*consumed = 0;
	if (p->dp_state == ST_DEAD)
		return DP_ERROR;
	if (p->dp_state == ST_DONE)
		return DP_COMPLETE;

	while (i < len && rv == DP_NEED_MORE) {
		switch (p->dp_state) {
		case ST_BODY_LEN:
			n = len - i;
			if (n > (uint64_t)p->dp_length - p->dp_body_len)
				n = (uint64_t)p->dp_length - p->dp_body_len;
			if ((why = body_append(p, b + i, n)) != NULL)
				return fail(p, why);
			i += n;
			if (p->dp_body_len == (uint64_t)p->dp_length) {
				p->dp_state = ST_DONE;
				rv = DP_COMPLETE;
			}
			break;
		case ST_BODY_EOF:
			n = len - i;
			if ((why = body_append(p, b + i, n)) != NULL)
				return fail(p, why);
			i += n;
			break;
		case ST_CHUNK_DATA:
			n = len - i;
			if (n > p->dp_chunk_left)
				n = p->dp_chunk_left;
			if ((why = body_append(p, b + i, n)) != NULL)
				return fail(p, why);
			i += n;
			if ((p->dp_chunk_left -= n) == 0)
				p->dp_state = ST_CHUNK_CR;
			break;
		case ST_CHUNK_CR:
			if (b[i++] != '\r')
				return fail(p, "chunk not followed by CRLF");
			p->dp_state = ST_CHUNK_LF;
			break;
		case ST_CHUNK_LF:
			if (b[i++] != '\n')
				return fail(p, "chunk not followed by CRLF");
			p->dp_state = ST_CHUNK_SIZE;
			break;
		default:
			rv = line_state(p, (char)b[i++]);
			break;
		}
	}
	*consumed = i;
	return rv;
}

enum docker_parse_rv
docker_parse_eof(struct docker_parser *p)
{
	switch (p->dp_state) {
	case ST_DEAD:
		return DP_ERROR;
	case ST_BODY_EOF:
		p->dp_state = ST_DONE;
		/* FALLTHROUGH */
	case ST_DONE:
		return DP_COMPLETE;
	default:
		return fail(p, "answer truncated");
	}
}
