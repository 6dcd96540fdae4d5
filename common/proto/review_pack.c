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
 * A review's record packed to its used length: its head, then rr_a and
 * rr_b as two strings, each with its NUL.  The quarantine sends its
 * records to spaced so, several a message, and spaced sends each on to
 * the client so (git_proto.h).
 */

#include <stdint.h>
#include <string.h>

#include "git_proto.h"
#include "review_pack.h"

/* rr into buf: its packed size, or 0 when it does not fit in len. */
size_t
review_rec_pack(const struct git_review_rec *rr, uint8_t *buf, size_t len)
{
	size_t	 a = strnlen(rr->rr_a, sizeof(rr->rr_a) - 1) + 1;
	size_t	 b = strnlen(rr->rr_b, sizeof(rr->rr_b) - 1) + 1;

	if (len < REVIEW_HEAD_SIZE + a + b)
		return 0;
	memcpy(buf, rr, REVIEW_HEAD_SIZE);
	memcpy(buf + REVIEW_HEAD_SIZE, rr->rr_a, a - 1);
	buf[REVIEW_HEAD_SIZE + a - 1] = '\0';
	memcpy(buf + REVIEW_HEAD_SIZE + a, rr->rr_b, b - 1);
	buf[REVIEW_HEAD_SIZE + a + b - 1] = '\0';
	return REVIEW_HEAD_SIZE + a + b;
}

/*
 * The packed record at p, of the len bytes left: *rr (its strings
 * ended, the rest of them unset) and its size, or 0 when it is cut
 * short or a string does not fit its field.
 */
size_t
review_rec_unpack(const uint8_t *p, size_t len, struct git_review_rec *rr)
{
	const char	*s = (const char *)p + REVIEW_HEAD_SIZE;
	size_t		 a, b;

	if (len < REVIEW_HEAD_SIZE + 2)
		return 0;
	len -= REVIEW_HEAD_SIZE;
	if ((a = strnlen(s, len)) == len || a >= sizeof(rr->rr_a))
		return 0;
	if ((b = strnlen(s + a + 1, len - a - 1)) == len - a - 1 ||
	    b >= sizeof(rr->rr_b))
		return 0;
	memcpy(rr, p, REVIEW_HEAD_SIZE);
	memcpy(rr->rr_a, s, a + 1);
	memcpy(rr->rr_b, s + a + 1, b + 1);
	return REVIEW_HEAD_SIZE + a + 1 + b + 1;
}
