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
 * A store line: seq, at, listener, host, port, decision, count, boot,
 * gkseq and mac, tab-separated.  The MAC is HMAC-SHA256 under the
 * installation's key of the previous line's MAC and this line's body
 * (all before the last tab), so a line edited, removed, moved or added
 * without the key breaks the chain where it stands.
 */

#include <sys/types.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "journal_parse.h"

static void
chain_mac(const uint8_t *key, const uint8_t *prev, const void *body,
    size_t len, uint8_t *out)
{
	uint8_t		 msg[CHAIN_MAC_LEN + CHAIN_LINE_MAX];
	unsigned int	 n = CHAIN_MAC_LEN;

	if (len > CHAIN_LINE_MAX)
		abort();
	memcpy(msg, prev, CHAIN_MAC_LEN);
	memcpy(msg + CHAIN_MAC_LEN, body, len);
	if (HMAC(EVP_sha256(), key, CHAIN_KEY_LEN, msg, CHAIN_MAC_LEN + len,
	    out, &n) == NULL || n != CHAIN_MAC_LEN)
		abort();	/* a digest of bytes in memory cannot fail */
}

void
chain_anchor(const uint8_t *key, const char *name, uint8_t *out)
{
	static const uint8_t	 zero[CHAIN_MAC_LEN];
	char			 body[256];
	int			 n;

	n = snprintf(body, sizeof(body), "spaced-journal chain 1 %s", name);
	if (n < 0 || (size_t)n >= sizeof(body))
		abort();
	chain_mac(key, zero, body, n, out);
}

void
chain_hex(const uint8_t *mac, char *out)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;

	for (i = 0; i < CHAIN_MAC_LEN; i++) {
		out[2 * i] = hex[mac[i] >> 4];
		out[2 * i + 1] = hex[mac[i] & 0xf];
	}
	out[2 * CHAIN_MAC_LEN] = '\0';
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
chain_unhex(const char *s, size_t len, uint8_t *mac)
{
	size_t	 i;
	int	 hi, lo;

	if (len != 2 * CHAIN_MAC_LEN)
		return -1;
	for (i = 0; i < CHAIN_MAC_LEN; i++) {
		if ((hi = hexval(s[2 * i])) == -1 ||
		    (lo = hexval(s[2 * i + 1])) == -1)
			return -1;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int
chain_fmt(const uint8_t *key, const uint8_t *prev, struct chain_rec *cr,
    char *buf, size_t len)
{
	const struct journal_entry	*je = &cr->cr_entry;
	const char			*errstr;
	int				 n;

	if (journal_entry_valid(je, &errstr) == -1 || je->je_count == 0)
		return -1;
	n = snprintf(buf, len, "%llu\t%s\t%s\t%s\t%u\t%s\t%u\t%lld\t%llu\t",
	    (unsigned long long)je->je_seq, je->je_at, je->je_listener,
	    je->je_host, (unsigned)je->je_port, je->je_decision,
	    (unsigned)je->je_count, (long long)cr->cr_boot,
	    (unsigned long long)cr->cr_gkseq);
	if (n < 0 || (size_t)n + 2 * CHAIN_MAC_LEN >= len)
		return -1;
	chain_mac(key, prev, buf, n, cr->cr_mac);
	chain_hex(cr->cr_mac, buf + n);
	return 0;
}

/* The next tab-ended field (or the line's end when last) of [*p, end). */
static int
next_field(const char **p, const char *end, const char **f, size_t *flen,
    int last)
{
	const char	*t;

	if (last)
		t = end;
	else if ((t = memchr(*p, '\t', end - *p)) == NULL)
		return -1;
	*f = *p;
	*flen = t - *p;
	*p = last ? t : t + 1;
	return memchr(*f, '\0', *flen) == NULL ? 0 : -1;
}

static int
field_str(const char *f, size_t n, char *buf, size_t size)
{
	if (n >= size)
		return -1;
	memcpy(buf, f, n);
	buf[n] = '\0';
	return 0;
}

/* Decimal digits, no sign, no leading zero, at most max. */
static int
field_u64(const char *f, size_t n, uint64_t max, uint64_t *v)
{
	size_t	 i;

	*v = 0;
	if (n == 0 || n > 20 || (f[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (f[i] < '0' || f[i] > '9' ||
		    *v > (max - (uint64_t)(f[i] - '0')) / 10)
			return -1;
		*v = *v * 10 + (uint64_t)(f[i] - '0');
	}
	return 0;
}

int
chain_scan(const char *line, size_t len, struct chain_rec *cr,
    const char **errstr)
{
	struct journal_entry	*je = &cr->cr_entry;
	const char		*p = line, *end = line + len, *f;
	size_t			 n;
	uint64_t		 v;

	memset(cr, 0, sizeof(*cr));
	*errstr = "not a store line";
	if (len > CHAIN_LINE_MAX)
		goto bad;
	if (next_field(&p, end, &f, &n, 0) == -1 ||
	    field_u64(f, n, INT64_MAX, &je->je_seq) == -1 ||
	    next_field(&p, end, &f, &n, 0) == -1 ||
	    field_str(f, n, je->je_at, sizeof(je->je_at)) == -1 ||
	    next_field(&p, end, &f, &n, 0) == -1 ||
	    field_str(f, n, je->je_listener, sizeof(je->je_listener)) == -1 ||
	    next_field(&p, end, &f, &n, 0) == -1 ||
	    field_str(f, n, je->je_host, sizeof(je->je_host)) == -1 ||
	    next_field(&p, end, &f, &n, 0) == -1 ||
	    field_u64(f, n, 65535, &v) == -1)
		goto bad;
	je->je_port = (uint32_t)v;
	if (next_field(&p, end, &f, &n, 0) == -1 ||
	    field_str(f, n, je->je_decision, sizeof(je->je_decision)) == -1 ||
	    next_field(&p, end, &f, &n, 0) == -1 ||
	    field_u64(f, n, UINT32_MAX, &v) == -1 || v == 0)
		goto bad;
	je->je_count = (uint32_t)v;
	if (next_field(&p, end, &f, &n, 0) == -1 ||
	    field_u64(f, n, INT64_MAX, &v) == -1)
		goto bad;
	cr->cr_boot = (int64_t)v;
	if (next_field(&p, end, &f, &n, 0) == -1 ||
	    field_u64(f, n, UINT64_MAX, &cr->cr_gkseq) == -1 ||
	    next_field(&p, end, &f, &n, 1) == -1 ||
	    chain_unhex(f, n, cr->cr_mac) == -1)
		goto bad;
	if (journal_entry_valid(je, errstr) == -1)
		goto bad;
	return 0;
bad:
	memset(cr, 0, sizeof(*cr));
	return -1;
}

int
chain_check(const uint8_t *key, const uint8_t *prev, const char *line,
    size_t len)
{
	uint8_t		 want[CHAIN_MAC_LEN], got[CHAIN_MAC_LEN];
	size_t		 body;

	if (len < 2 * CHAIN_MAC_LEN + 1 ||
	    line[len - 2 * CHAIN_MAC_LEN - 1] != '\t')
		return 0;
	body = len - 2 * CHAIN_MAC_LEN;
	/* A line longer than any record (a root hand's) is no record. */
	if (body > CHAIN_LINE_MAX ||
	    chain_unhex(line + body, 2 * CHAIN_MAC_LEN, got) == -1)
		return 0;
	chain_mac(key, prev, line, body, want);
	return CRYPTO_memcmp(want, got, CHAIN_MAC_LEN) == 0;
}
