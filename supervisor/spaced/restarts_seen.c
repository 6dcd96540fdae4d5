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
 * The journal's count of each space's agent server restarts, for show:
 * a table of its own, so that the collection (collect.c) and the
 * records of the place (place.c) both reach it without reaching each
 * other.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "spaced.h"

/* By owner and id: a user who follows another's id has a row of their own. */
struct seen {
	TAILQ_ENTRY(seen)	 s_entry;
	uid_t			 s_uid;
	char			 s_id[SPACE_ID_SIZE];
	uint64_t		 s_total;
};
static TAILQ_HEAD(, seen) seen = TAILQ_HEAD_INITIALIZER(seen);

static struct seen *
seen_find(uid_t uid, const char *id)
{
	struct seen	*s;

	TAILQ_FOREACH(s, &seen, s_entry)
		if (s->s_uid == uid && strcmp(s->s_id, id) == 0)
			return s;
	return NULL;
}

void
restarts_seen_set(uid_t uid, const char *id, uint64_t total)
{
	struct seen	*s;

	if ((s = seen_find(uid, id)) == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL) {
			log_warn("%s", __func__);
			return;
		}
		s->s_uid = uid;
		strlcpy(s->s_id, id, sizeof(s->s_id));
		TAILQ_INSERT_TAIL(&seen, s, s_entry);
	}
	s->s_total = total;
}

void
restarts_seen_forget(uid_t uid, const char *id)
{
	struct seen	*s;

	if ((s = seen_find(uid, id)) == NULL)
		return;
	TAILQ_REMOVE(&seen, s, s_entry);
	free(s);
}

/* The last count the journal gave: 0 when it gave none yet. */
int
restarts_of(uid_t uid, const char *id, uint64_t *n)
{
	struct seen	*s;

	if ((s = seen_find(uid, id)) == NULL)
		return 0;
	*n = s->s_total;
	return 1;
}
