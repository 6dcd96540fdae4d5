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
 * Creates past their count of an owner's spaces: the engine's listing
 * shows no space whose containers are not made yet, so ten creates at
 * once all passed a cap of 3.  Each holds an entry until it ends; one
 * that made its space keeps it while a count sent before its end may
 * have missed it (the listing and this table are merged by id).
 */

#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "space.h"

struct inflight {
	TAILQ_ENTRY(inflight)	 if_entry;
	char			 if_owner[SPACE_OWNER_SIZE];
	char			 if_id[SPACE_ID_SIZE];
	int			 if_made;
};

static TAILQ_HEAD(, inflight)	 inflight = TAILQ_HEAD_INITIALIZER(inflight);
static unsigned			 counting;	/* listings under way */

/*
 * The uids creates in flight drew, whatever their owner: two creates at
 * once see the same listing, and only this says the second's is taken.
 */
struct uid_held {
	TAILQ_ENTRY(uid_held)	 uh_entry;
	const struct sp		*uh_sp;
	uint32_t		 uh_uid;
};
static TAILQ_HEAD(, uid_held)	 uids = TAILQ_HEAD_INITIALIZER(uids);

int
inflight_uid_taken(const struct sp *sp, uint32_t uid)
{
	const struct uid_held	*u;

	TAILQ_FOREACH(u, &uids, uh_entry)
		if (u->uh_sp != sp && u->uh_uid == uid)
			return 1;
	return 0;
}

void
inflight_uid_hold(struct sp *sp)
{
	struct uid_held	*u;

	if (sp->uid_held)
		return;
	if ((u = calloc(1, sizeof(*u))) == NULL)
		fatal("%s", __func__);
	u->uh_sp = sp;
	u->uh_uid = sp->hp.hp_uid;
	TAILQ_INSERT_TAIL(&uids, u, uh_entry);
	sp->uid_held = 1;
}

/* Its containers carry its id from here on: a listing names the uid. */
static void
inflight_uid_release(struct sp *sp)
{
	struct uid_held	*u;

	if (!sp->uid_held)
		return;
	sp->uid_held = 0;
	TAILQ_FOREACH(u, &uids, uh_entry)
		if (u->uh_sp == sp)
			break;
	if (u == NULL)
		fatalx("%s: no uid held", __func__);
	TAILQ_REMOVE(&uids, u, uh_entry);
	free(u);
}

void
inflight_count_begin(struct sp *sp)
{
	if (!sp->counting) {
		sp->counting = 1;
		counting++;
	}
}

/* With no listing under way, a made space is in every later one. */
void
inflight_count_end(struct sp *sp)
{
	struct inflight	*e, *next;

	if (!sp->counting)
		return;
	sp->counting = 0;
	if (--counting > 0)
		return;
	TAILQ_FOREACH_SAFE(e, &inflight, if_entry, next)
		if (e->if_made) {
			TAILQ_REMOVE(&inflight, e, if_entry);
			free(e);
		}
}

/* The ids of owner's creates in flight, one a call; NULL at the end. */
const char *
inflight_next(const char *owner, const void **cursor)
{
	const struct inflight	*e;

	e = *cursor == NULL ? TAILQ_FIRST(&inflight) :
	    TAILQ_NEXT((const struct inflight *)*cursor, if_entry);
	while (e != NULL && strcmp(e->if_owner, owner) != 0)
		e = TAILQ_NEXT(e, if_entry);
	*cursor = e;
	return e != NULL ? e->if_id : NULL;
}

void
inflight_hold(struct sp *sp)
{
	struct inflight	*e;

	if ((e = calloc(1, sizeof(*e))) == NULL)
		fatal("%s", __func__);
	strlcpy(e->if_owner, sp->sq.sq_owner, sizeof(e->if_owner));
	strlcpy(e->if_id, sp->meta.sm_id, sizeof(e->if_id));
	TAILQ_INSERT_TAIL(&inflight, e, if_entry);
	sp->held = 1;
}

/* The create ended: a failed one gives its slot back at once. */
void
inflight_release(struct sp *sp)
{
	struct inflight	*e;

	inflight_count_end(sp);
	inflight_uid_release(sp);
	if (!sp->held)
		return;
	sp->held = 0;
	TAILQ_FOREACH(e, &inflight, if_entry)
		if (strcmp(e->if_id, sp->meta.sm_id) == 0 && !e->if_made)
			break;
	if (e == NULL)
		fatalx("%s: %s held nothing", __func__, sp->meta.sm_id);
	if (sp->made && counting > 0)
		e->if_made = 1;
	else {
		TAILQ_REMOVE(&inflight, e, if_entry);
		free(e);
	}
}
