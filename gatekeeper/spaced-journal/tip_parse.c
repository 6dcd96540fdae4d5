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
 * The tip file's text (store.c writes it): a torn write or a root's
 * hand can leave anything there, and the tip says where the chain
 * ends, so a number is taken only as tip_write makes one: digits, no
 * sign, no leading zero, at most 20 of them, no overflow.  Pure, and
 * fuzzed (regress/fuzz/journal_tip_fuzz.c).
 */

#include <stdint.h>
#include <string.h>

#include "store.h"

/* 0 and *v, or -1: s[0..len) is not a number tip_write writes. */
int
store_number(const char *s, size_t len, uint64_t *v)
{
	uint64_t	 n = 0;
	size_t		 i;

	if (len == 0 || len > STORE_NUMBER_MAX || (s[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (n > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	*v = n;
	return 0;
}

/*
 * "seq mac\n", or since restarts are kept "seq mac rat restarts\n" (rat
 * "-" before the first).  1 and *tp, or -1 (tp zeroed).
 */
int
store_tip_parse(const char *buf, size_t len, struct store_tip *tp)
{
	const char	*f[4], *p = buf, *sp, *end = buf + len - 1;
	size_t		 fl[4], nf = 0;

	memset(tp, 0, sizeof(*tp));
	if (len == 0 || len > STORE_TIP_MAX || buf[len - 1] != '\n' ||
	    memchr(buf, '\0', len) != NULL || memchr(buf, '\n', len - 1) !=
	    NULL)
		return -1;
	for (;;) {
		if (nf == 4)
			return -1;
		sp = memchr(p, ' ', end - p);
		f[nf] = p;
		fl[nf++] = (sp != NULL ? sp : end) - p;
		if (sp == NULL)
			break;
		p = sp + 1;
	}
	if ((nf != 2 && nf != 4) ||
	    store_number(f[0], fl[0], &tp->stp_seq) == -1 ||
	    chain_unhex(f[1], fl[1], tp->stp_mac) == -1)
		goto bad;
	if (nf == 2)
		return 1;
	if (fl[2] == 0 || fl[2] >= sizeof(tp->stp_rat) ||
	    store_number(f[3], fl[3], &tp->stp_restarts) == -1)
		goto bad;
	if (fl[2] != 1 || f[2][0] != '-')
		memcpy(tp->stp_rat, f[2], fl[2]);
	return 1;
bad:
	memset(tp, 0, sizeof(*tp));
	return -1;
}
