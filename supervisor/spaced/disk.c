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
 * The disk sweep: every so often the place measures each space of this
 * installation (its writable layers and its work and home volumes);
 * spaced warns at 80% of the limit and stops a running space at it.
 * The engine cannot cap a volume here (docs/privsep.md, "Disk").
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "spaced.h"

#define DISK_WARN_PERCENT	80
#define DISK_STOPS_MAX		64	/* a sweep's stops; the rest next time */
#define DISK_TABLE_MAX		4096
/* A sweep that took T waits at least T times this before the next. */
#define DISK_COST_FACTOR	10


struct disk_sweep {
	int		 dw_pending;	/* places whose sweep is not done */
	int		 dw_stopping;
	size_t		 dw_next;
	size_t		 dw_nstops;
	size_t		 dw_stops[DISK_STOPS_MAX];	/* in r_heap's */
	size_t		 dw_nseen;	/* the r_heap's struct disk_seen */
};
static const size_t	 disk_sweep_size = sizeof(struct disk_sweep);

static struct {
	struct event_base	*base;
	struct event		 ev;
	uint32_t		 running;	/* the sweep's request id */
	struct timespec		 began;
	time_t			 wait;		/* seconds to the next sweep */
} disk;

static void	disk_ignore(struct request *, enum procid, struct imsg *);
static void	disk_take(struct request *, enum procid, struct imsg *);
static void	disk_done(struct request *, enum procid, struct imsg *);

static const struct answer_row disk_answers[] = {
	{ IMSG_SPACE_DISK, PLACE_BITS, sizeof(struct space_disk), 0,
	    disk_take },
	/* a stop's records: only its last word counts here */
	{ IMSG_SPACE_INFO, PLACE_BITS, sizeof(struct space_info), 0,
	    disk_ignore },
	{ IMSG_SPACE_VIOLATION, PLACE_BITS, sizeof(struct space_violation),
	    0, disk_ignore },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done), AR_FINAL,
	    disk_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};

/*
 * Not a row of the control socket's table: no client may start it.
 * 10 minutes: a sweep, then up to DISK_STOPS_MAX stops, each under
 * the place's own deadline.
 */
static const struct ctl_op disk_op = {
	0, "disk-sweep", 0, WHO_ADMIN, 600, NULL, disk_answers, NULL, NULL,
	&disk_sweep_size
};

static void
disk_ignore(struct request *r, enum procid from, struct imsg *imsg)
{
}

/* The owner's uid, from "install:uid" of this installation; -1 if not. */
static int64_t
owner_uid(const char *owner)
{
	const char	*inst = spaced_config()->sc_install_id, *errstr;
	size_t		 n = strlen(inst);
	long long	 uid;

	if (!space_owner_valid(owner) || strncmp(owner, inst, n) != 0 ||
	    owner[n] != ':')
		return -1;
	uid = strtonum(owner + n + 1, 0, UINT32_MAX, &errstr);
	return errstr != NULL ? -1 : uid;
}

static void
disk_take(struct request *r, enum procid from, struct imsg *imsg)
{
	struct disk_sweep	*dw = r->r_state;
	struct space_disk	 sk;
	const struct disk_seen	*old;
	struct disk_seen	*ds;
	uint64_t		 limit = config_disk_limit(spaced_config());

	if (imsg_get_data(imsg, &sk, sizeof(sk)) == -1 ||
	    memchr(sk.sk_id, '\0', sizeof(sk.sk_id)) == NULL ||
	    memchr(sk.sk_owner, '\0', sizeof(sk.sk_owner)) == NULL ||
	    memchr(sk.sk_state, '\0', sizeof(sk.sk_state)) == NULL ||
	    !space_id_valid(sk.sk_id) || owner_uid(sk.sk_owner) == -1 ||
	    dw->dw_stopping)
		fatalx("%s: a bad disk record from %s", __func__,
		    proc_title(from));
	if (dw->dw_nseen >= DISK_TABLE_MAX)
		return;
	if ((ds = reallocarray(r->r_heap, dw->dw_nseen + 1,
	    sizeof(*ds))) == NULL)
		fatal("%s", __func__);
	r->r_heap = ds;
	ds = &ds[dw->dw_nseen++];
	memset(ds, 0, sizeof(*ds));
	strlcpy(ds->ds_id, sk.sk_id, sizeof(ds->ds_id));
	strlcpy(ds->ds_owner, sk.sk_owner, sizeof(ds->ds_owner));
	ds->ds_used = sk.sk_used;
	if ((old = disk_seen_find(sk.sk_id)) != NULL)
		ds->ds_warned = old->ds_warned;
	if (sk.sk_used < limit / 100 * DISK_WARN_PERCENT) {
		ds->ds_warned = 0;
		return;
	}
	if (sk.sk_used < limit) {
		if (!ds->ds_warned)
			log_warnx("disk: space %s of %s uses %" PRIu64 " bytes, "
			    "%d%% of its limit of %" PRIu64, ds->ds_id,
			    ds->ds_owner, sk.sk_used, DISK_WARN_PERCENT, limit);
		ds->ds_warned = 1;
		return;
	}
	ds->ds_over = 1;
	if (strcmp(sk.sk_state, "running") != 0 ||
	    dw->dw_nstops >= DISK_STOPS_MAX)
		return;
	log_warnx("disk: space %s of %s uses %" PRIu64 " bytes, at its limit "
	    "of %" PRIu64 ": stopped", ds->ds_id, ds->ds_owner, sk.sk_used,
	    limit);
	dw->dw_stops[dw->dw_nstops++] = dw->dw_nseen - 1;
}

static void
disk_over(struct request *r)
{
	struct disk_sweep	*dw = r->r_state;
	struct timespec		 now;
	time_t			 took;

	disk_seen_set(r->r_heap, dw->dw_nseen);
	r->r_heap = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	took = now.tv_sec - disk.began.tv_sec + 1;
	disk.wait = config_disk_sweep(spaced_config());
	if (took * DISK_COST_FACTOR > disk.wait) {
		disk.wait = took * DISK_COST_FACTOR;
		log_info("disk: a sweep took %lld s: the next in %lld s",
		    (long long)took, (long long)disk.wait);
	}
	disk.running = 0;
	log_debug("disk: swept %zu spaces, %zu stopped", dw->dw_nseen,
	    dw->dw_nstops);
	request_end(r);
}

/* The next space over its limit goes down: space and gatekeeper. */
static void
disk_stop_next(struct request *r)
{
	struct disk_sweep	*dw = r->r_state;
	const struct disk_seen	*ds;
	struct space_req	 sq;
	const char		*code;

	while (dw->dw_next < dw->dw_nstops) {
		ds = (const struct disk_seen *)r->r_heap +
		    dw->dw_stops[dw->dw_next++];
		space_req_fill(r, &sq, ds->ds_id);
		strlcpy(sq.sq_owner, ds->ds_owner, sizeof(sq.sq_owner));
		if (agent_fill((uid_t)owner_uid(ds->ds_owner),
		    &sq.sq_agent) == -1 ||
		    (code = place_send(r, IMSG_SPACE_STOP_REQ, &sq,
		    sizeof(sq))) != NULL) {
			log_warnx("disk: space %s: the stop could not be sent",
			    ds->ds_id);
			continue;
		}
		return;
	}
	disk_over(r);
}

static void
disk_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct disk_sweep	*dw = r->r_state;
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	if (sd.sd_code[0] != '\0')
		log_warnx("disk: %s: %s: %s", dw->dw_stopping ?
		    "a stop failed" : "the sweep failed", sd.sd_code,
		    sd.sd_message);
	/* The stops go once both places measured. */
	if (!dw->dw_stopping && --dw->dw_pending > 0)
		return;
	dw->dw_stopping = 1;
	disk_stop_next(r);
}

static void
disk_arm(void)
{
	struct timeval	 tv = { disk.wait, 0 };

	evtimer_add(&disk.ev, &tv);
}

static void
disk_tick(int fd, short event, void *arg)
{
	struct space_disk_req	 dq;
	struct request		*r;
	struct disk_sweep	*dw;
	int			 s;

	disk_arm();
	/* One sweep at a time; one that failed on its deadline is over. */
	if (disk.running != 0 && request_find(disk.running) != NULL)
		return;
	if ((r = request_new_internal(geteuid(), &disk_op)) == NULL) {
		log_warn("disk: a sweep");
		return;
	}
	memset(&dq, 0, sizeof(dq));
	strlcpy(dq.dq_install, spaced_config()->sc_install_id,
	    sizeof(dq.dq_install));
	clock_gettime(CLOCK_MONOTONIC, &disk.began);
	/* Both places, as list asks them; a place not there is skipped. */
	dw = r->r_state;
	if (children[PROC_NS].c_ready && request_send(r, PROC_NS,
	    IMSG_SPACE_DISK_REQ, -1, &dq, sizeof(dq)) == 0)
		dw->dw_pending++;
	if ((s = docker_connect()) != -1 && request_send(r, PROC_DOCKER,
	    IMSG_SPACE_DISK_REQ, s, &dq, sizeof(dq)) == 0)
		dw->dw_pending++;
	if (dw->dw_pending == 0) {
		log_debug("disk: no place to sweep now");
		request_end(r);
		return;
	}
	disk.running = r->r_id;
}

void
disk_init(struct event_base *base)
{
	const struct spaced_conf	*conf = spaced_config();

	if (config_disk_limit(conf) == 0) {
		log_info("disk: spaces unmeasured (space disk limit 0)");
		return;
	}
	disk.base = base;
	disk.wait = config_disk_sweep(conf);
	evtimer_set(&disk.ev, disk_tick, NULL);
	event_base_set(base, &disk.ev);
	disk_arm();
}
