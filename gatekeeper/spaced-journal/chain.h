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

#ifndef CHAIN_H
#define CHAIN_H

/*
 * The store's line: a record, its place in its space's chain, and the
 * HMAC-SHA256 that links it to the line before under the installation's
 * key (docs/privsep.md, "The journal store").  Pure: no I/O.
 */

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define CHAIN_KEY_LEN		32
#define CHAIN_MAC_LEN		32
/* seq at listener host port decision count boot gkseq mac, and tabs */
#define CHAIN_LINE_MAX		(20 + JOURNAL_AT_LEN + JOURNAL_LISTENER_MAX + \
				    JOURNAL_HOST_MAX + 5 + \
				    JOURNAL_DECISION_MAX + 10 + 20 + 20 + \
				    2 * CHAIN_MAC_LEN + 9)

/* What spaced-journal writes of its own, as listener "journal". */
#define CHAIN_SEGMENT		"journal:segment"	/* host: prev MAC */
#define CHAIN_DROPPED		"journal:dropped"	/* count: first kept */
#define CHAIN_GAP		"journal:gap"		/* count: lost */

struct chain_rec {
	struct journal_entry	 cr_entry;	/* je_seq, je_count too */
	int64_t			 cr_boot;	/* the gatekeeper's cursor */
	uint64_t		 cr_gkseq;
	uint8_t			 cr_mac[CHAIN_MAC_LEN];
};

/* The MAC before a space's first record: the key and the store's name. */
void	 chain_anchor(const uint8_t *key, const char *name, uint8_t *out);
/* cr's line (NUL-terminated, no newline) after prev; sets cr_mac. */
int	 chain_fmt(const uint8_t *key, const uint8_t *prev,
	    struct chain_rec *cr, char *buf, size_t len);
/* A line (no newline) to its fields, the MAC unchecked; -1, *errstr. */
int	 chain_scan(const char *line, size_t len, struct chain_rec *cr,
	    const char **errstr);
/* 1 when line's MAC is the one its body makes after prev; else 0. */
int	 chain_check(const uint8_t *key, const uint8_t *prev,
	    const char *line, size_t len);
/* The 64 hex digits of a MAC, and back (0, or -1 when not one). */
void	 chain_hex(const uint8_t *mac, char *out);
int	 chain_unhex(const char *s, size_t len, uint8_t *mac);

#endif /* CHAIN_H */
