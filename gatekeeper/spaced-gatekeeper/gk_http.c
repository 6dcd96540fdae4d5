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

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "gk_http.h"

/* RFC 9110 tchar. */
static int
gk_http_tchar(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

/* Field value bytes: visible ASCII, obs-text, SP and HTAB. */
static int
gk_http_vchar(unsigned char c)
{
	return c == '\t' || (c >= 0x20 && c != 0x7f);
}

/*
 * The end of the line starting at p: the index of its LF, with *eol the
 * length of the line ending (1 or 2).  -1 when no LF is in [p, end), -2
 * for a CR that is not followed by LF.
 */
static ptrdiff_t
gk_http_line(const char *p, const char *end, size_t *eol)
{
	const char	*q;

	for (q = p; q < end; q++) {
		if (*q == '\n') {
			*eol = 1;
			return q - p;
		}
		if (*q == '\r') {
			if (q + 1 >= end)
				return -1;
			if (q[1] != '\n')
				return -2;
			*eol = 2;
			return q - p;
		}
	}
	return -1;
}

static enum gk_http_status
gk_http_request_line(const char *p, size_t n, struct gk_http_head *h)
{
	const char	*sp1, *sp2, *v;
	size_t		 i;

	sp1 = memchr(p, ' ', n);
	if (sp1 == NULL || sp1 == p)
		return GK_HTTP_MALFORMED;
	for (i = 0; p + i < sp1; i++)
		if (!gk_http_tchar((unsigned char)p[i]))
			return GK_HTTP_MALFORMED;
	h->hh_method = p;
	h->hh_methodlen = sp1 - p;

	sp2 = memchr(sp1 + 1, ' ', n - (sp1 + 1 - p));
	if (sp2 == NULL || sp2 == sp1 + 1)
		return GK_HTTP_MALFORMED;
	for (v = sp1 + 1; v < sp2; v++)
		if ((unsigned char)*v <= 0x20 || (unsigned char)*v >= 0x7f)
			return GK_HTTP_MALFORMED;
	h->hh_target = sp1 + 1;
	h->hh_targetlen = sp2 - (sp1 + 1);

	v = sp2 + 1;
	if ((size_t)(p + n - v) != 8 || memcmp(v, "HTTP/1.", 7) != 0 ||
	    (v[7] != '0' && v[7] != '1'))
		return GK_HTTP_MALFORMED;
	h->hh_minor = v[7] - '0';
	return GK_HTTP_COMPLETE;
}

static enum gk_http_status
gk_http_field_line(const char *p, size_t n, struct gk_http_head *h)
{
	struct gk_http_field	*f;
	const char		*colon, *v, *e;
	size_t			 i;

	colon = memchr(p, ':', n);
	if (colon == NULL || colon == p)
		return GK_HTTP_MALFORMED;
	for (i = 0; p + i < colon; i++)
		if (!gk_http_tchar((unsigned char)p[i]))
			return GK_HTTP_MALFORMED;
	for (v = colon + 1; v < p + n; v++)
		if (!gk_http_vchar((unsigned char)*v))
			return GK_HTTP_MALFORMED;
	if (h->hh_nfields >= GK_HTTP_FIELDS_MAX)
		return GK_HTTP_MALFORMED;
	v = colon + 1;
	e = p + n;
	while (v < e && (*v == ' ' || *v == '\t'))
		v++;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	f = &h->hh_fields[h->hh_nfields++];
	f->hf_name = p;
	f->hf_namelen = colon - p;
	f->hf_value = v;
	f->hf_valuelen = e - v;
	return GK_HTTP_COMPLETE;
}

static enum gk_http_status
gk_http_status_line(const char *p, size_t n, struct gk_http_head *h)
{
	size_t	 i;

	/* HTTP/1.x SP 3DIGIT [SP reason] */
	if (n < 12 || memcmp(p, "HTTP/1.", 7) != 0 ||
	    (p[7] != '0' && p[7] != '1') || p[8] != ' ')
		return GK_HTTP_MALFORMED;
	for (i = 9; i < 12; i++)
		if (p[i] < '0' || p[i] > '9')
			return GK_HTTP_MALFORMED;
	if (p[9] == '0' || (n > 12 && p[12] != ' '))
		return GK_HTTP_MALFORMED;
	for (i = 12; i < n; i++)
		if (!gk_http_vchar((unsigned char)p[i]))
			return GK_HTTP_MALFORMED;
	h->hh_minor = p[7] - '0';
	h->hh_status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
	return GK_HTTP_COMPLETE;
}

static enum gk_http_status
gk_http_parse_head(const char *buf, size_t len, struct gk_http_head *h,
    int response)
{
	const char		*p, *end;
	ptrdiff_t		 n;
	size_t			 eol = 0;
	enum gk_http_status	 st;
	int			 first = 1;

	memset(h, 0, sizeof(*h));
	end = buf + (len > GK_HTTP_HEAD_MAX ? GK_HTTP_HEAD_MAX : len);
	p = buf;
	for (;;) {
		n = gk_http_line(p, end, &eol);
		if (n == -2)
			return GK_HTTP_MALFORMED;
		if (n == -1)
			return len >= GK_HTTP_HEAD_MAX ? GK_HTTP_MALFORMED :
			    GK_HTTP_NEED_MORE;
		if (first) {
			/* No blank lines before the request line: it is ours. */
			if (n == 0)
				return GK_HTTP_MALFORMED;
			st = response ? gk_http_status_line(p, n, h) :
			    gk_http_request_line(p, n, h);
			first = 0;
		} else if (n == 0) {
			h->hh_headlen = p + eol - buf;
			return GK_HTTP_COMPLETE;
		} else if (*p == ' ' || *p == '\t')
			return GK_HTTP_MALFORMED;	/* obs-fold */
		else
			st = gk_http_field_line(p, n, h);
		if (st != GK_HTTP_COMPLETE)
			return st;
		p += n + eol;
	}
}

/*
 * Parse the head at the start of buf.  NEED_MORE while no blank line has
 * arrived and len is under GK_HTTP_HEAD_MAX; MALFORMED for anything that
 * is not a plain HTTP/1.0 or 1.1 request head, or one that does not fit.
 * Lines end in CRLF or a bare LF; obsolete line folding is refused.
 */
enum gk_http_status
gk_http_parse(const char *buf, size_t len, struct gk_http_head *h)
{
	return gk_http_parse_head(buf, len, h, 0);
}

/*
 * The same for a response head (an upstream's answer to the window):
 * "HTTP/1.x NNN reason"; hh_method and hh_target are unset.
 */
enum gk_http_status
gk_http_parse_response(const char *buf, size_t len, struct gk_http_head *h)
{
	return gk_http_parse_head(buf, len, h, 1);
}

int
gk_http_field_is(const struct gk_http_field *f, const char *name)
{
	size_t	 n = strlen(name);

	return f->hf_namelen == n && strncasecmp(f->hf_name, name, n) == 0;
}

const struct gk_http_field *
gk_http_field_get(const struct gk_http_head *h, const char *name)
{
	size_t	 i;

	for (i = 0; i < h->hh_nfields; i++)
		if (gk_http_field_is(&h->hh_fields[i], name))
			return &h->hh_fields[i];
	return NULL;
}

int
gk_http_method_is(const struct gk_http_head *h, const char *m)
{
	size_t	 n = strlen(m);

	return h->hh_methodlen == n && memcmp(h->hh_method, m, n) == 0;
}

static int
gk_http_length(const struct gk_http_field *f, uint64_t *out)
{
	uint64_t	 v = 0;
	size_t		 i;

	if (f->hf_valuelen == 0 || f->hf_valuelen > 18)
		return -1;
	for (i = 0; i < f->hf_valuelen; i++) {
		if (f->hf_value[i] < '0' || f->hf_value[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(f->hf_value[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * How the body after the head is framed: Content-Length (one value, all
 * digits, the same if repeated) or Transfer-Encoding exactly "chunked";
 * both at once, any other coding, or chunked under HTTP/1.0 is -1.
 */
int
gk_http_body_framing(const struct gk_http_head *h, enum gk_body_kind *kind,
    uint64_t *length)
{
	const struct gk_http_field	*f;
	uint64_t			 v, seen = 0;
	size_t				 i;
	int				 nlen = 0, nte = 0;

	*kind = GK_BODY_NONE;
	*length = 0;
	for (i = 0; i < h->hh_nfields; i++) {
		f = &h->hh_fields[i];
		if (gk_http_field_is(f, "content-length")) {
			if (gk_http_length(f, &v) == -1 ||
			    (nlen > 0 && v != seen))
				return -1;
			seen = v;
			nlen++;
		} else if (gk_http_field_is(f, "transfer-encoding")) {
			if (f->hf_valuelen != 7 ||
			    strncasecmp(f->hf_value, "chunked", 7) != 0)
				return -1;
			nte++;
		}
	}
	/* Two framings at once is how requests are smuggled. */
	if ((nlen > 0 && nte > 0) || nte > 1)
		return -1;
	if (nte == 1) {
		if (h->hh_minor == 0)
			return -1;
		*kind = GK_BODY_CHUNKED;
	} else if (nlen > 0) {
		*kind = GK_BODY_LENGTH;
		*length = seen;
	}
	return 0;
}

enum {
	CK_SIZE = 0,	/* hex digits of the size */
	CK_EXT,		/* ;extension up to CR */
	CK_SIZE_LF,
	CK_DATA,
	CK_DATA_CR,
	CK_DATA_LF,
	CK_TRAILER_START,
	CK_TRAILER,
	CK_TRAILER_LF,
	CK_FINAL_LF,
	CK_DONE
};

#define CK_LINE_MAX	4096
#define CK_TRAILERS_MAX	GK_HTTP_HEAD_MAX

void
gk_chunk_init(struct gk_chunk *ck)
{
	memset(ck, 0, sizeof(*ck));
}

static int
gk_chunk_hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Scan len more bytes of the body.  *used is how many belong to it:
 * all of them on NEED_MORE, up to the end of the body on COMPLETE.
 */
enum gk_http_status
gk_chunk_scan(struct gk_chunk *ck, const char *buf, size_t len, size_t *used)
{
	size_t		 i = 0, take;
	unsigned char	 c;
	int		 d;

	while (i < len) {
		if (ck->ck_state == CK_DATA) {
			take = len - i;
			if (take > ck->ck_remaining)
				take = (size_t)ck->ck_remaining;
			ck->ck_remaining -= take;
			i += take;
			if (ck->ck_remaining == 0)
				ck->ck_state = CK_DATA_CR;
			continue;
		}
		c = (unsigned char)buf[i++];
		switch (ck->ck_state) {
		case CK_SIZE:
			if ((d = gk_chunk_hex(c)) != -1) {
				/* 15 hex digits is far past any body we pass. */
				if (++ck->ck_digits > 15)
					goto bad;
				ck->ck_remaining = ck->ck_remaining * 16 +
				    (uint64_t)d;
				break;
			}
			if (ck->ck_digits == 0)
				goto bad;
			if (c == ';')
				ck->ck_state = CK_EXT;
			else if (c == '\r')
				ck->ck_state = CK_SIZE_LF;
			else
				goto bad;
			break;
		case CK_EXT:
			if (++ck->ck_linelen > CK_LINE_MAX)
				goto bad;
			if (c == '\r')
				ck->ck_state = CK_SIZE_LF;
			else if (c == '\n' || (c < 0x20 && c != '\t') ||
			    c == 0x7f)
				goto bad;
			break;
		case CK_SIZE_LF:
			if (c != '\n')
				goto bad;
			ck->ck_linelen = 0;
			ck->ck_digits = 0;
			ck->ck_state = ck->ck_remaining == 0 ?
			    CK_TRAILER_START : CK_DATA;
			break;
		case CK_DATA_CR:
			if (c != '\r')
				goto bad;
			ck->ck_state = CK_DATA_LF;
			break;
		case CK_DATA_LF:
			if (c != '\n')
				goto bad;
			ck->ck_state = CK_SIZE;
			break;
		case CK_TRAILER_START:
			if (c == '\r') {
				ck->ck_state = CK_FINAL_LF;
				break;
			}
			ck->ck_state = CK_TRAILER;
			/* FALLTHROUGH */
		case CK_TRAILER:
			if (++ck->ck_trailerlen > CK_TRAILERS_MAX)
				goto bad;
			if (c == '\r')
				ck->ck_state = CK_TRAILER_LF;
			else if (c == '\n' || (c < 0x20 && c != '\t') ||
			    c == 0x7f)
				goto bad;
			break;
		case CK_TRAILER_LF:
			if (c != '\n')
				goto bad;
			ck->ck_state = CK_TRAILER_START;
			break;
		case CK_FINAL_LF:
			if (c != '\n')
				goto bad;
			ck->ck_state = CK_DONE;
			*used = i;
			return GK_HTTP_COMPLETE;
		default:
			goto bad;
		}
	}
	*used = i;
	return GK_HTTP_NEED_MORE;
 bad:
	ck->ck_state = CK_DONE + 1;
	*used = i;
	return GK_HTTP_MALFORMED;
}
