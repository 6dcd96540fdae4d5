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
 * events: what operators follow (spacectl events), the last EVENTS_RING
 * kept, each seen by its space's owner and by root alone.  A plain
 * owner keeps EVENTS_PER_OWNER of them at most: its next pushes out its
 * own oldest, never another's.  A follower that reads too little is
 * dropped: spaced never waits on one and never holds more than the
 * ring and EVENTS_LAG_MAX a follower.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_check.h"
#include "errors.h"
#include "log.h"
#include "spaced.h"

#define EVENTS_RING		1024
/*
 * A plain owner's share of the ring: one user's loop of creates and
 * removes rotates its own events, not root's or another user's (review
 * F4); four plain owners at their share fill it.  Root's, spaced's own
 * user's and those of no owner (reloads) are the operators' and take
 * the oldest of all.
 */
#define EVENTS_PER_OWNER	256
/* Bytes queued to a follower past which it is dropped. */
#define EVENTS_LAG_MAX		(64 * 1024)
#define EVENTS_FOLLOWERS_MAX	64
/*
 * events is anyone's: one uid's followers, and those of every uid but
 * root's and spaced's own together, so that no user takes every slot
 * and the administrators keep theirs.
 */
#define EVENTS_FOLLOWERS_PER_UID	4
#define EVENTS_FOLLOWERS_PLAIN_MAX	48

/* Oldest first; a dropped event's place is closed up. */
static struct ctl_event	 ring[EVENTS_RING];
static size_t		 ring_len;
static uint64_t		 ring_next = 1;		/* the next event's seq */
static uint32_t		 followers[EVENTS_FOLLOWERS_MAX];	/* request ids */

/* Root (and spaced's own user) sees all; a caller its own spaces'. */
static int
events_visible(const struct request *r, const struct ctl_event *ev)
{
	if (r->r_cc != NULL && CTL_ADMIN(r->r_cc))
		return 1;
	return ev->ev_uid != CTL_EVENT_NO_UID && ev->ev_uid == r->r_uid;
}

/* A follower that is gone, answered, or reads too little is forgotten. */
static struct request *
follower(size_t i)
{
	struct request	*r;

	if (followers[i] == 0)
		return NULL;
	if ((r = request_find(followers[i])) == NULL || r->r_answered ||
	    r->r_cc == NULL) {
		followers[i] = 0;
		return NULL;
	}
	if (r->r_cc->cc_iev.ibuf.outq_bytes > EVENTS_LAG_MAX) {
		log_warnx("events: uid %u reads too little: dropped",
		    (unsigned)r->r_uid);
		followers[i] = 0;
		control_fail_close(r->r_cc, r->r_peerid, ERR_BUSY);
		return NULL;
	}
	return r;
}

static void
ring_drop(size_t i)
{
	memmove(&ring[i], &ring[i + 1], (ring_len - i - 1) * sizeof(ring[0]));
	ring_len--;
}

/* Room for an event of uid: a plain owner's oldest goes, or the oldest. */
static struct ctl_event *
ring_room(uint32_t uid)
{
	size_t	 i, own = 0, oldest = 0;
	int	 plain;

	plain = uid != 0 && uid != CTL_EVENT_NO_UID && uid != geteuid();
	for (i = 0; plain && i < ring_len; i++)
		if (ring[i].ev_uid == uid && own++ == 0)
			oldest = i;
	if (own >= EVENTS_PER_OWNER)
		ring_drop(oldest);
	else if (ring_len == EVENTS_RING)
		ring_drop(0);
	return &ring[ring_len++];
}

void
events_emit(const char *kind, uid_t owner, const char *space,
    const char *detail)
{
	struct ctl_event	*ev;
	struct timespec		 ts;
	struct request		*r;
	char			 who[32];
	uint32_t		 uid;
	size_t			 i;

	uid = owner == (uid_t)-1 ? CTL_EVENT_NO_UID : (uint32_t)owner;
	ev = ring_room(uid);
	memset(ev, 0, sizeof(*ev));
	ev->ev_seq = ring_next++;
	clock_gettime(CLOCK_REALTIME, &ts);
	ev->ev_time = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	ev->ev_uid = uid;
	strlcpy(ev->ev_kind, kind, sizeof(ev->ev_kind));
	if (space != NULL)
		strlcpy(ev->ev_space, space, sizeof(ev->ev_space));
	if (detail != NULL)
		strlcpy(ev->ev_detail, detail, sizeof(ev->ev_detail));
	/* As spacectl events shows it: spaced's own said "uid -1". */
	if (owner == (uid_t)-1)
		strlcpy(who, "spaced", sizeof(who));
	else
		snprintf(who, sizeof(who), "uid %u", (unsigned int)owner);
	log_info("event %s %s %s: %s", ev->ev_kind,
	    ev->ev_space[0] != '\0' ? ev->ev_space : "-", who, ev->ev_detail);
	for (i = 0; i < EVENTS_FOLLOWERS_MAX; i++)
		if ((r = follower(i)) != NULL && events_visible(r, ev))
			request_data(r, ev, sizeof(*ev));
}

/* A free follower slot for r, or -1. */
static int
follower_slot(const struct request *r)
{
	struct request	*f;
	size_t		 i, mine = 0, plain = 0;
	int		 free_slot = -1;

	for (i = 0; i < EVENTS_FOLLOWERS_MAX; i++) {
		if ((f = follower(i)) == NULL) {
			if (free_slot == -1)
				free_slot = (int)i;
			continue;
		}
		if (CTL_ADMIN(f->r_cc))
			continue;
		plain++;
		if (f->r_uid == r->r_uid)
			mine++;
	}
	if (!CTL_ADMIN(r->r_cc) && (mine >= EVENTS_FOLLOWERS_PER_UID ||
	    plain >= EVENTS_FOLLOWERS_PLAIN_MAX))
		return -1;
	return free_slot;
}

const char *
events_start(struct request *r, struct imsg *imsg)
{
	struct ctl_events_req	 ce;
	size_t			 k;
	int			 i;

	if (imsg_get_data(imsg, &ce, sizeof(ce)) == -1 ||
	    !ctl_events_valid(&ce))
		return ERR_BAD_REQUEST;
	if (ce.ce_flags & CTL_EVENTS_FOLLOW) {
		if ((i = follower_slot(r)) == -1)
			return ERR_BUSY;
		followers[i] = r->r_id;
	}
	/* The ring, oldest first. */
	for (k = 0; k < ring_len; k++)
		if (events_visible(r, &ring[k]))
			request_data(r, &ring[k], sizeof(ring[k]));
	/* A follower's request stays open until its client leaves. */
	if (!(ce.ce_flags & CTL_EVENTS_FOLLOW))
		request_end(r);
	return NULL;
}

const struct answer_row events_answers[] = {
	{ 0 }
};
