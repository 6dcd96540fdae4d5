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
 * Code out: what spaced remembers of the last check of each space's
 * quarantine, so that an apply of the same tip takes the store the
 * check left instead of bringing the work out again (docs/privsep.md,
 * "The quarantine's store between review and apply").
 */

#include <sys/types.h>

#include <string.h>
#include <time.h>

#include "spaced.h"

#define KEPT_MAX	32	/* spaces; the oldest makes room */

static struct codeout_kept	 kept[KEPT_MAX];

static time_t
kept_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* A check that passed: its user, space, repository, base, start, tip. */
void
codeout_kept_set(const struct codeout_kept *k)
{
	struct codeout_kept	*slot = &kept[0];
	size_t			 i;

	for (i = 0; i < KEPT_MAX; i++) {
		if (strcmp(kept[i].ck_id, k->ck_id) == 0) {
			slot = &kept[i];
			break;
		}
		if (kept[i].ck_at < slot->ck_at)
			slot = &kept[i];
	}
	*slot = *k;
	slot->ck_at = kept_now();
}

/* 0 and *k: the space's last check, when it is this one's to take. */
int
codeout_kept_find(uid_t uid, const char *id, const char *dir,
    const char *base, const char *start, struct codeout_kept *k)
{
	size_t	 i;

	for (i = 0; i < KEPT_MAX; i++) {
		if (kept[i].ck_id[0] == '\0' ||
		    strcmp(kept[i].ck_id, id) != 0)
			continue;
		if (kept[i].ck_uid != uid || strcmp(kept[i].ck_dir, dir) ||
		    strcmp(kept[i].ck_base, base) ||
		    strcmp(kept[i].ck_start, start) ||
		    kept_now() - kept[i].ck_at > CODEOUT_KEPT_SECONDS)
			return -1;
		*k = kept[i];
		return 0;
	}
	return -1;
}

/* remove, and a check that failed: nothing of the space is kept. */
void
codeout_kept_forget(const char *id)
{
	size_t	 i;

	for (i = 0; i < KEPT_MAX; i++)
		if (strcmp(kept[i].ck_id, id) == 0)
			memset(&kept[i], 0, sizeof(kept[i]));
}
