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
 * Code out: what spaced remembers of each space's last review, so
 * that the apply after it lands exactly the reviewed tip from the
 * store the review left (docs/privsep.md, "The quarantine's store
 * between review and apply"); and which request holds a space's
 * quarantine folder now.
 */

#include <sys/types.h>

#include <stdint.h>
#include <string.h>

#include "spaced.h"

#define KEPT_MAX	32	/* spaces; an oldest makes room */
#define HOLD_MAX	64	/* code-out requests in flight */

static struct codeout_kept	 kept[KEPT_MAX];
static struct {
	char		 h_id[SPACE_ID_SIZE];
	uint32_t	 h_request;	/* 0: free */
} hold[HOLD_MAX];

/* Many reviews may be kept in one second: the oldest is by this count. */
static uint64_t			 kept_count;

/*
 * A review that passed: its user, space, repository, base, start and
 * tip, until an apply uses it, a newer review, remove, or a restart.
 * The space's slot, else a free one, else this user's oldest (one
 * user's reviews do not push out another's), else the oldest of all.
 */
void
codeout_kept_set(const struct codeout_kept *k)
{
	struct codeout_kept	*slot = NULL, *empty = NULL, *mine = NULL;
	struct codeout_kept	*oldest = &kept[0];
	size_t			 i;

	for (i = 0; i < KEPT_MAX && slot == NULL; i++) {
		if (strcmp(kept[i].ck_id, k->ck_id) == 0)
			slot = &kept[i];
		else if (kept[i].ck_id[0] == '\0') {
			if (empty == NULL)
				empty = &kept[i];
		} else if (kept[i].ck_uid == k->ck_uid &&
		    (mine == NULL || kept[i].ck_order < mine->ck_order))
			mine = &kept[i];
		if (kept[i].ck_order < oldest->ck_order)
			oldest = &kept[i];
	}
	if (slot == NULL)
		slot = empty != NULL ? empty : mine != NULL ? mine : oldest;
	*slot = *k;
	slot->ck_order = ++kept_count;
}

/*
 * The repository's top, the key of a kept review: dir less the folder
 * below the top it names (project), so that a review at the top serves
 * an apply from a subfolder of it, and the other way round.
 */
void
codeout_kept_top(const char *dir, const char *project, char *top,
    size_t len)
{
	size_t	 d = strlen(dir), p = strlen(project);

	strlcpy(top, dir, len);
	if (p > 0 && d > p + 1 && d < len && top[d - p - 1] == '/' &&
	    strcmp(top + d - p, project) == 0)
		top[d - p - 1] = '\0';
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
		    strcmp(kept[i].ck_start, start))
			return -1;
		*k = kept[i];
		return 0;
	}
	return -1;
}

/*
 * remove, a check that failed, an apply: nothing of the space is kept
 * for this user (only the space's owner gets this far).
 */
void
codeout_kept_forget(uid_t uid, const char *id)
{
	size_t	 i;

	for (i = 0; i < KEPT_MAX; i++)
		if (kept[i].ck_uid == uid && strcmp(kept[i].ck_id, id) == 0)
			memset(&kept[i], 0, sizeof(kept[i]));
}

/*
 * One code-out request per space at a time: they share the space's
 * quarantine folder.  0: request holds it until it is freed (a request
 * that is gone frees its slot); -1: another holds it, or no slot.
 */
int
codeout_hold(const char *id, uint32_t request)
{
	size_t	 i, slot = HOLD_MAX;

	for (i = 0; i < HOLD_MAX; i++) {
		if (hold[i].h_request != 0 &&
		    request_find(hold[i].h_request) == NULL)
			hold[i].h_request = 0;
		if (hold[i].h_request == 0) {
			if (slot == HOLD_MAX)
				slot = i;
			continue;
		}
		if (strcmp(hold[i].h_id, id) == 0)
			return -1;
	}
	if (slot == HOLD_MAX)
		return -1;
	strlcpy(hold[slot].h_id, id, sizeof(hold[slot].h_id));
	hold[slot].h_request = request;
	return 0;
}
