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
 * libFuzzer target for the gatekeeper's request head parser and chunked
 * body scanner (gatekeeper/spaced-gatekeeper/gk_http.c), which read every byte a space
 * sends to the corridor and the window, and the answer heads the window
 * rewrites.
 * fuzz-link: gatekeeper/spaced-gatekeeper/gk_http.c
 *
 * Besides not crashing: a head is found at the same place whatever the
 * prefix it was read from (a slow client gets what a fast one gets),
 * everything returned points inside the input, and the chunk scanner
 * agrees with itself fed in one piece or byte by byte.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-gatekeeper/gk_http.h"

static struct gk_http_head	whole, part;

static void
check_inside(const uint8_t *data, size_t size, const struct gk_http_head *h)
{
	const char	*lo = (const char *)data, *hi = lo + size;
	size_t		 i;

	if (h->hh_method < lo || h->hh_method + h->hh_methodlen > hi ||
	    h->hh_target < lo || h->hh_target + h->hh_targetlen > hi ||
	    h->hh_headlen > size || h->hh_nfields > GK_HTTP_FIELDS_MAX)
		abort();
	for (i = 0; i < h->hh_nfields; i++) {
		const struct gk_http_field *f = &h->hh_fields[i];
		if (f->hf_name < lo || f->hf_name + f->hf_namelen > hi ||
		    f->hf_value < lo || f->hf_value + f->hf_valuelen > hi ||
		    f->hf_namelen == 0)
			abort();
		/* A value never carries a line ending into the upstream. */
		if (memchr(f->hf_value, '\n', f->hf_valuelen) != NULL ||
		    memchr(f->hf_value, '\r', f->hf_valuelen) != NULL ||
		    memchr(f->hf_name, ':', f->hf_namelen) != NULL)
			abort();
	}
	if (memchr(h->hh_target, ' ', h->hh_targetlen) != NULL ||
	    memchr(h->hh_target, '\n', h->hh_targetlen) != NULL)
		abort();
}

static void
check_chunks(const uint8_t *data, size_t size)
{
	struct gk_chunk		 a, b;
	enum gk_http_status	 sa, sb = GK_HTTP_NEED_MORE;
	size_t			 ua = 0, ub = 0, u, i;

	gk_chunk_init(&a);
	sa = gk_chunk_scan(&a, (const char *)data, size, &ua);
	if (ua > size)
		abort();
	gk_chunk_init(&b);
	for (i = 0; i < size && sb == GK_HTTP_NEED_MORE; i++) {
		sb = gk_chunk_scan(&b, (const char *)data + i, 1, &u);
		if (u > 1)
			abort();
		ub += u;
	}
	if (sa != sb || (sa != GK_HTTP_MALFORMED && ua != ub))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum gk_http_status	 st, sp;
	enum gk_body_kind	 kind;
	uint64_t		 len;
	size_t			 cut;

	st = gk_http_parse((const char *)data, size, &whole);
	if (st == GK_HTTP_COMPLETE) {
		check_inside(data, size, &whole);
		(void)gk_http_body_framing(&whole, &kind, &len);
		/* Any prefix holding the head finds the same head. */
		cut = whole.hh_headlen + (size - whole.hh_headlen) / 2;
		sp = gk_http_parse((const char *)data, cut, &part);
		if (sp != GK_HTTP_COMPLETE ||
		    part.hh_headlen != whole.hh_headlen ||
		    part.hh_nfields != whole.hh_nfields)
			abort();
		/* A shorter one is never complete. */
		if (whole.hh_headlen > 0) {
			sp = gk_http_parse((const char *)data,
			    whole.hh_headlen - 1, &part);
			if (sp == GK_HTTP_COMPLETE)
				abort();
		}
		check_chunks(data + whole.hh_headlen, size - whole.hh_headlen);
	} else if (st == GK_HTTP_NEED_MORE && size >= GK_HTTP_HEAD_MAX)
		abort();
	else
		check_chunks(data, size > 4096 ? 4096 : size);

	/* The same bytes as an upstream's answer to the window. */
	st = gk_http_parse_response((const char *)data, size, &whole);
	if (st == GK_HTTP_COMPLETE) {
		if (whole.hh_status < 100 || whole.hh_status > 999 ||
		    whole.hh_headlen > size)
			abort();
		for (cut = 0; cut < whole.hh_nfields; cut++)
			if (memchr(whole.hh_fields[cut].hf_value, '\n',
			    whole.hh_fields[cut].hf_valuelen) != NULL)
				abort();
	}
	return 0;
}
