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
 * The fair share of the plain callers' spaced-git instances (gitinst.c;
 * docs/privsep.md).  A plain caller under its share waits for an
 * instance instead of hearing `busy`, freed room goes to the waiting
 * caller who holds the fewest, and room is made by ending an idle
 * instance of the caller who holds the most.  Pure: no globals, no I/O.
 */

#include <string.h>

#include "gitinst_fair.h"

/* The first of the list that counts its caller among the callers? */
static int
fair_first_of(const struct fair_inst *fi, size_t i)
{
	size_t	 j;

	if (!fi[i].fi_plain || fi[i].fi_state == FAIR_ENDING)
		return 0;
	for (j = 0; j < i; j++)
		if (fi[j].fi_caller == fi[i].fi_caller &&
		    fi[j].fi_state != FAIR_ENDING)
			return 0;
	return 1;
}

void
fair_count(const struct fair_inst *fi, size_t n, uid_t caller, int plain,
    struct fair_counts *c)
{
	size_t	 i;
	int	 asker = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		if (fair_first_of(fi, i)) {
			c->callers++;
			asker |= fi[i].fi_caller == caller;
		}
		if (fi[i].fi_state == FAIR_WAITING) {
			c->waiting++;
			if (fi[i].fi_caller == caller)
				c->mine_waiting++;
			continue;
		}
		c->all++;
		if (fi[i].fi_caller == caller)
			c->mine_all++;
		if (fi[i].fi_state == FAIR_ENDING)
			continue;
		c->live++;
		if (fi[i].fi_plain)
			c->plain++;
		if (fi[i].fi_caller == caller)
			c->mine++;
	}
	if (!asker && plain)
		c->callers++;
}

size_t
fair_live_of(const struct fair_inst *fi, size_t n, uid_t caller)
{
	struct fair_counts	 c;

	fair_count(fi, n, caller, 0, &c);
	return c.mine;
}

size_t
fair_share(size_t pool, size_t cap, size_t callers)
{
	size_t	 share;

	share = callers > 0 ? pool / callers : pool;
	if (share > cap)
		share = cap;
	return share > 0 ? share : 1;
}

/*
 * Instances and waits together under the share: so the callers that
 * wait hold less than the pool between them, and some instance always
 * belongs to a request that runs (and frees it).  A caller at its
 * share, or over it, hears `busy` as before.
 */
int
fair_may_wait(size_t pool, size_t cap, size_t callers, size_t live,
    size_t waiting)
{
	return live + waiting < fair_share(pool, cap, callers);
}

/*
 * While others wait, a caller over its share must give back: reuse of
 * its instances, one request after another, would hold them for ever.
 */
int
fair_yields(const struct fair_inst *fi, size_t n, size_t i, size_t pool,
    size_t cap)
{
	struct fair_counts	 c;

	if (i >= n || !fi[i].fi_plain || fi[i].fi_state != FAIR_LIVE)
		return 0;
	fair_count(fi, n, fi[i].fi_caller, 1, &c);
	return c.mine > fair_share(pool, cap, c.callers);
}

/* The caller who holds the fewest; among equals, the oldest wait. */
size_t
fair_next(const size_t *live, size_t n)
{
	size_t	 i, best = 0;

	for (i = 1; i < n; i++)
		if (live[i] < live[best])
			best = i;
	return best;
}

/* The caller who holds the most; among equals, the oldest instance. */
size_t
fair_victim(const size_t *live, size_t n)
{
	size_t	 i, worst = 0;

	for (i = 1; i < n; i++)
		if (live[i] > live[worst])
			worst = i;
	return worst;
}
