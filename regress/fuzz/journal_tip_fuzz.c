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
 * fuzz-link: gatekeeper/spaced-journal/tip_parse.c gatekeeper/spaced-journal/chain.c gatekeeper/spaced-journal/journal_parse.c common/proto/labels.c common/lib/log.c
 *
 * spaced-journal's tip file as a torn write or a root's hand can leave
 * it: the input is the file's bytes, given to store_tip_parse, and each
 * space-free run of it to store_number.  Invariants: a tip taken is the
 * text tip_write makes of what was taken, byte for byte (so no sign,
 * letter, leading zero or overflow made a position), one refused leaves
 * nothing; a number taken prints back as itself, and one refused that
 * is only digits, no leading zero and at most 20 of them is past 2^64-1.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/store.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_number(const char *s, size_t len)
{
	char		 back[32];
	uint64_t	 v = 7;
	size_t		 i;
	int		 digits = len > 0;

	if (store_number(s, len, &v) == 0) {
		snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
		if (strlen(back) != len || memcmp(back, s, len) != 0)
			abort();
		return;
	}
	if (v != 7)
		abort();	/* a refusal writes nothing */
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			digits = 0;
	if (digits && len <= STORE_NUMBER_MAX && (s[0] != '0' || len == 1) &&
	    (len < 20 || memcmp(s, "18446744073709551615", 20) <= 0))
		abort();
}

static void
check_tip(const char *s, size_t len)
{
	static const struct store_tip	 zero;
	struct store_tip		 tp;
	char				 hex[2 * CHAIN_MAC_LEN + 1];
	char				 back[STORE_TIP_MAX * 2];
	size_t				 i, spaces = 0;
	int				 n;

	if (store_tip_parse(s, len, &tp) != 1) {
		if (memcmp(&tp, &zero, sizeof(tp)) != 0)
			abort();
		return;
	}
	if (len > STORE_TIP_MAX)
		abort();
	for (i = 0; i < len; i++)
		spaces += s[i] == ' ';
	if (memchr(tp.stp_rat, '\0', sizeof(tp.stp_rat)) == NULL)
		abort();
	chain_hex(tp.stp_mac, hex);
	if (spaces == 1)
		n = snprintf(back, sizeof(back), "%llu %s\n",
		    (unsigned long long)tp.stp_seq, hex);
	else if (spaces == 3)
		n = snprintf(back, sizeof(back), "%llu %s %s %llu\n",
		    (unsigned long long)tp.stp_seq, hex,
		    tp.stp_rat[0] != '\0' ? tp.stp_rat : "-",
		    (unsigned long long)tp.stp_restarts);
	else
		abort();
	if (n < 0 || (size_t)n != len || memcmp(back, s, len) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data, *p, *sp;

	/* libFuzzer's copy is exact: ASan sees a read past its end. */
	check_tip(s, size);
	for (p = s; p < s + size; p = sp + 1) {
		if ((sp = memchr(p, ' ', s + size - p)) == NULL)
			sp = s + size;
		check_number(p, sp - p);
	}
	return 0;
}
