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

#ifndef GK_HTTP_H
#define GK_HTTP_H

/*
 * A pure HTTP/1.1 request head parser shared by the corridor, the window
 * and the control channel: const input, no I/O, no globals.  Everything
 * it returns points into the caller's buffer.
 */

#include <stddef.h>
#include <stdint.h>

#define GK_HTTP_HEAD_MAX	16384	/* request line + headers + blank line */
#define GK_HTTP_FIELDS_MAX	100

enum gk_http_status {
	GK_HTTP_NEED_MORE = 0,
	GK_HTTP_COMPLETE,
	GK_HTTP_MALFORMED
};

struct gk_http_field {
	const char	*hf_name;
	size_t		 hf_namelen;
	const char	*hf_value;	/* without surrounding blanks */
	size_t		 hf_valuelen;
};

struct gk_http_head {
	const char	*hh_method;
	size_t		 hh_methodlen;
	const char	*hh_target;
	size_t		 hh_targetlen;
	int		 hh_minor;	/* HTTP/1.<minor>, 0 or 1 */
	int		 hh_status;	/* a response's status, 100-999 */
	size_t		 hh_headlen;	/* bytes up to and with the blank line */
	size_t		 hh_nfields;
	struct gk_http_field hh_fields[GK_HTTP_FIELDS_MAX];
};

enum gk_http_status gk_http_parse(const char *buf, size_t len,
	    struct gk_http_head *);

enum gk_http_status gk_http_parse_response(const char *buf, size_t len,
	    struct gk_http_head *);

/* Case-insensitive comparison of a field name with a NUL-terminated name. */
int	 gk_http_field_is(const struct gk_http_field *, const char *name);
/* The first field of that name, or NULL. */
const struct gk_http_field *gk_http_field_get(const struct gk_http_head *,
	    const char *name);
/* 1 when the method is exactly m. */
int	 gk_http_method_is(const struct gk_http_head *, const char *m);

enum gk_body_kind {
	GK_BODY_NONE = 0,
	GK_BODY_LENGTH,
	GK_BODY_CHUNKED
};

int	 gk_http_body_framing(const struct gk_http_head *, enum gk_body_kind *,
	    uint64_t *length);

/* A streaming scanner for a chunked body, strict about CRLF. */
struct gk_chunk {
	int		 ck_state;
	uint64_t	 ck_remaining;	/* data bytes left in this chunk */
	size_t		 ck_linelen;	/* bytes of the size or trailer line */
	size_t		 ck_trailerlen;	/* bytes of trailers so far */
	int		 ck_digits;
};

void	 gk_chunk_init(struct gk_chunk *);
enum gk_http_status gk_chunk_scan(struct gk_chunk *, const char *buf,
	    size_t len, size_t *used);

#endif /* GK_HTTP_H */
