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
 * The restarts of a space's relay into its chain: a line of the space's
 * stderr is kept when it is the relay's shape and its engine time is
 * past the store's restart cursor by RESTART_GAP_MS at least, so even
 * a forged line (docs/privsep.md) adds one record a second at most.
 */

#include <sys/types.h>

#include <string.h>

#include "restart_parse.h"
#include "journal_worker.h"
#include "store.h"

int
restart_keep(struct store *st, const char *line, size_t len,
    struct journal_restart *jt)
{
	struct restart_rec	 rr;
	struct journal_entry	 je;
	const char		*errstr;
	int64_t			 last;

	if (restart_line_parse(line, len, &rr, &errstr) == -1)
		return RESTART_NOT_ONE;
	if (st->st_rat[0] != '\0' && restart_at_ms(st->st_rat, &last) == 0) {
		if (rr.rr_ms <= last)
			return RESTART_KEPT_BEFORE;
		if (rr.rr_ms - last < RESTART_GAP_MS)
			return RESTART_TOO_SOON;
	}
	restart_entry(&rr, &je);
	if (store_add_restart(st, &je) == -1)
		return RESTART_NOT_KEPT;
	memset(jt, 0, sizeof(*jt));
	strlcpy(jt->jt_at, rr.rr_at, sizeof(jt->jt_at));
	restart_detail(&rr, jt->jt_detail, sizeof(jt->jt_detail));
	jt->jt_new = 1;
	jt->jt_total = st->st_restarts;
	return RESTART_NEW;
}
