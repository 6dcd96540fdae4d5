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

#ifndef RESTART_PARSE_H
#define RESTART_PARSE_H

/*
 * A line of a space's stderr, as the engine gives it with its times:
 * the restart line of spaced-relay (restart_line.h).  Pure (STYLE.md 18).
 */

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "restart_line.h"

/* The engine's time, "2026-12-06T10:11:02.123456789Z", and a space. */
#define RESTART_ENGINE_TIME_LEN	30
/* Real restarts are this far apart at least (the relay's least backoff). */
#define RESTART_GAP_MS		1000

struct restart_rec {
	char		 rr_at[JOURNAL_AT_LEN + 1];	/* the engine's, to ms */
	int64_t		 rr_ms;		/* the same, ms since the epoch */
	char		 rr_what[RESTART_WHAT_MAX + 1];
	char		 rr_how[8];	/* "signal" or "fork" */
	uint32_t	 rr_n, rr_code, rr_backoff;
};

int	 restart_line_parse(const char *line, size_t len, struct restart_rec *,
	    const char **errstr);
int	 restart_at_ms(const char *at, int64_t *ms);
void	 restart_entry(const struct restart_rec *, struct journal_entry *);
void	 restart_detail(const struct restart_rec *, char *, size_t);

#endif /* RESTART_PARSE_H */
