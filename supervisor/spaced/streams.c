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
 * The stream table: streams pass through spaced unread, each held to its
 * credit window by a gauge; a message from the wrong end or for no
 * stream is fatal from a worker, the end of a client.  More:
 * docs/notes/spaced-router.md.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "spaced.h"

#define STREAMS_MAX	64	/* in all; each may hold a window */
/*
 * What the requests of one uid may hold, and of every uid but root's and
 * spaced's own together: one user's execs (an exec has no deadline)
 * leave others theirs, and root and spaced's own collections a share.
 */
#define STREAMS_PER_UID		16
#define STREAMS_PLAIN_MAX	48

#define RECENT_MAX	64
/* engine connections an exec -t's resizes add, in all (streams_exec_resize) */
#define EXEC_RESIZE_CONNS_MAX	4
static struct {
	TAILQ_HEAD(, stream_route) list;
	size_t			 count;
	/*
	 * Client-sourced streams closed lately (an exec whose command is
	 * done while its stdin still comes): what the client sent before it
	 * saw the answer is dropped, not taken for an attack.  Ids are
	 * never reused soon (spaced_new_id), so a stale one names nothing.
	 */
	uint32_t		 recent_closed[RECENT_MAX];
	size_t			 recent_next;
} streams = {
	.list = TAILQ_HEAD_INITIALIZER(streams.list),
};

static int
ep_equal(struct stream_end_point a, struct stream_end_point b)
{
	return a.ep_proc == b.ep_proc && a.ep_cc == b.ep_cc &&
	    a.ep_git == b.ep_git;
}

static const char *
ep_title(struct stream_end_point ep)
{
	return ep.ep_proc == PROC_MAX ? "client" : proc_title(ep.ep_proc);
}

static struct imsgev *
ep_iev(struct stream_end_point ep)
{
	if (ep.ep_proc == PROC_MAX)
		return ep.ep_cc != NULL ? &ep.ep_cc->cc_iev : NULL;
	if (ep.ep_git != NULL)
		return gitinst_iev(ep.ep_git);
	if (ep.ep_gone)
		return NULL;
	if (children[ep.ep_proc].c_pid == 0)
		return NULL;
	return &children[ep.ep_proc].c_iev;
}

size_t
stream_count(void)
{
	return streams.count;
}

/* Whether r's streams count against its uid's share. */
static int
stream_plain(const struct request *r)
{
	return !r->r_own && r->r_uid != 0 && r->r_uid != geteuid();
}

/* Room in the table for one more stream of r. */
static int
stream_room(const struct request *r)
{
	struct stream_route	*s;
	size_t			 mine = 0, plain = 0;

	if (streams.count >= STREAMS_MAX)
		return 0;
	if (!stream_plain(r))
		return 1;
	TAILQ_FOREACH(s, &streams.list, s_entry) {
		if (!stream_plain(s->s_req))
			continue;
		plain++;
		if (s->s_req->r_uid == r->r_uid)
			mine++;
	}
	return mine < STREAMS_PER_UID && plain < STREAMS_PLAIN_MAX;
}

struct stream_route *
stream_open(struct request *r, struct stream_end_point src,
    struct stream_end_point dst)
{
	struct stream_route	*s;
	size_t			 slot;

	for (slot = 0; slot < REQUEST_STREAMS; slot++)
		if (r->r_streams[slot] == NULL)
			break;
	if (slot == REQUEST_STREAMS || !stream_room(r)) {
		errno = EAGAIN;
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->s_id = spaced_new_id();
	s->s_req = r;
	s->s_src = src;
	s->s_dst = dst;
	stream_gauge_init(&s->s_gauge);
	TAILQ_INSERT_TAIL(&streams.list, s, s_entry);
	streams.count++;
	r->r_streams[slot] = s;
	if (src.ep_cc != NULL) {
		src.ep_cc->cc_streams++;
		control_busy_changed(src.ep_cc);
	}
	if (dst.ep_cc != NULL) {
		dst.ep_cc->cc_streams++;
		control_busy_changed(dst.ep_cc);
	}
	return s;
}

/* The client end went away; the stream may outlive it, aborted. */
static void
stream_drop_client(struct stream_end_point *ep)
{
	struct ctl_conn	*cc = ep->ep_cc;

	if (cc == NULL)
		return;
	ep->ep_cc = NULL;
	cc->cc_streams--;
	control_busy_changed(cc);
}

void
stream_close(struct stream_route *s)
{
	size_t	 i;

	stream_drop_client(&s->s_src);
	stream_drop_client(&s->s_dst);
	for (i = 0; i < REQUEST_STREAMS; i++)
		if (s->s_req->r_streams[i] == s)
			s->s_req->r_streams[i] = NULL;
	/* A client may still be sending on it: see streams_dispatch. */
	if (s->s_src.ep_proc == PROC_MAX)
		streams.recent_closed[streams.recent_next++ % RECENT_MAX] =
		    s->s_id;
	TAILQ_REMOVE(&streams.list, s, s_entry);
	streams.count--;
	free(s);
}

void
stream_abort(struct stream_route *s)
{
	s->s_aborted = 1;
	/* Nothing more goes to a client end: it left or was answered. */
	stream_drop_client(&s->s_src);
	stream_drop_client(&s->s_dst);
}

void
streams_git_gone(const struct git_inst *gi)
{
	struct stream_route	*s;

	TAILQ_FOREACH(s, &streams.list, s_entry) {
		if (s->s_src.ep_git == gi || s->s_dst.ep_git == gi)
			s->s_aborted = 1;
		if (s->s_src.ep_git == gi) {
			s->s_src.ep_git = NULL;
			s->s_src.ep_gone = 1;
		}
		if (s->s_dst.ep_git == gi) {
			s->s_dst.ep_git = NULL;
			s->s_dst.ep_gone = 1;
		}
	}
}

struct stream_route *
stream_find(uint32_t id)
{
	struct stream_route	*s;

	TAILQ_FOREACH(s, &streams.list, s_entry)
		if (s->s_id == id)
			return s;
	return NULL;
}

static void
stream_ended(struct stream_route *s)
{
	struct request	*r = s->s_req;

	if (r->r_op->op_stream_end != NULL)
		r->r_op->op_stream_end(r);
}

static int
recent_client_stream(uint32_t id)
{
	size_t	 i;

	for (i = 0; i < RECENT_MAX; i++)
		if (streams.recent_closed[i] == id && id != 0)
			return 1;
	return 0;
}

/*
 * Refuse a bad stream message: a client is cut off, a repository's
 * spaced-git ended, one of spaced's own workers is fatal.
 */
static void
stream_refuse(struct stream_end_point from, const char *why, uint32_t id)
{
	if (from.ep_git != NULL) {
		log_warnx("streams: spaced-git: %s (stream %u)", why, id);
		gitinst_distrust(from.ep_git);
		return;
	}
	if (from.ep_proc != PROC_MAX)
		fatalx("streams: %s: %s (stream %u)", ep_title(from), why, id);
	log_warnx("streams: client uid %u: %s (stream %u)",
	    (unsigned)from.ep_cc->cc_uid, why, id);
	control_fail_close(from.ep_cc, 0, ERR_BAD_REQUEST);
}

void
streams_dispatch(struct stream_end_point from, struct imsg *imsg)
{
	struct stream_route	*s;
	struct stream_end_point	 want, to;
	struct imsgev		*iev;
	uint32_t		 type = imsg_get_type(imsg);
	uint32_t		 id = imsg_get_peerid(imsg);
	int			 forward_end;

	if ((s = stream_find(id)) == NULL) {
		/* A client's credit may cross the END of its stream. */
		if (from.ep_proc == PROC_MAX && type == IMSG_STREAM_CREDIT) {
			log_debug("streams: credit for ended stream %u", id);
			return;
		}
		if (from.ep_proc == PROC_MAX && type != IMSG_STREAM_CREDIT &&
		    recent_client_stream(id)) {
			log_debug("streams: data for closed stream %u", id);
			return;
		}
		stream_refuse(from, "message for no stream", id);
		return;
	}
	/* DATA and END come from the source, CREDIT from the destination. */
	want = type == IMSG_STREAM_CREDIT ? s->s_dst : s->s_src;
	to = type == IMSG_STREAM_CREDIT ? s->s_src : s->s_dst;
	if (s->s_aborted) {
		/*
		 * Sent before the cancel reached it; still from the right
		 * end: the same worker, for spaced-git the same instance.
		 */
		if (from.ep_proc != PROC_MAX &&
		    (want.ep_gone || !ep_equal(want, from))) {
			stream_refuse(from, "message from the wrong end", id);
			return;
		}
		/* A worker's END is its last word, forwarded or not. */
		if (type == IMSG_STREAM_END && from.ep_proc != PROC_MAX)
			stream_ended(s);
		return;
	}
	if (!ep_equal(want, from)) {
		stream_refuse(from, "message from the wrong end", id);
		return;
	}
	/* After its END the source hears nothing more of the stream. */
	if (type == IMSG_STREAM_CREDIT && s->s_gauge.sg_ended)
		return;
	forward_end = type == IMSG_STREAM_END;
	if ((iev = ep_iev(to)) == NULL)
		return;
	if (stream_relay(iev, imsg, &s->s_gauge) == -1) {
		if (from.ep_git != NULL) {
			stream_refuse(from, "broke the stream", id);
			return;
		}
		if (from.ep_proc != PROC_MAX)
			fatal("streams: %s broke stream %u", ep_title(from),
			    id);
		stream_refuse(from, "broke the stream", id);
		return;
	}
	if (to.ep_proc == PROC_MAX)
		control_output_check(to.ep_cc);
	if (forward_end)
		stream_ended(s);
}

/*
 * A client's new window size for its exec -t, by the output stream it
 * reads (exec.c marked a terminal's request with its r_heap): passed on
 * as two numbers.  spaced-docker sends every size on one connection it
 * keeps (docker_exec_resize.c), so the resizes raise the exec's engine
 * connection cap by EXEC_RESIZE_CONNS_MAX at most, whatever their
 * number: room for an engine that closed that connection.  One for a
 * stream that already ended is dropped; one for another client's or a
 * plain exec is not this client's to send.
 */
void
streams_exec_resize(struct ctl_conn *cc, struct imsg *imsg)
{
	struct ctl_exec_resize		 xr;
	struct space_exec_resize	 er;
	struct stream_route		*s;
	struct request			*r;

	if (imsg_get_data(imsg, &xr, sizeof(xr)) == -1 ||
	    xr.xr_rows == 0 || xr.xr_cols == 0 ||
	    xr.xr_rows > EXEC_TTY_DIM_MAX || xr.xr_cols > EXEC_TTY_DIM_MAX) {
		control_fail_close(cc, imsg_get_peerid(imsg), ERR_BAD_REQUEST);
		return;
	}
	if ((s = stream_find(xr.xr_stream)) == NULL || s->s_aborted)
		return;
	r = s->s_req;
	if (s->s_dst.ep_proc != PROC_MAX || s->s_dst.ep_cc != cc ||
	    (r->r_op->op_type != IMSG_CTL_EXEC &&
	    r->r_op->op_type != IMSG_CTL_ATTACH) || r->r_heap == NULL) {
		control_fail_close(cc, imsg_get_peerid(imsg), ERR_BAD_REQUEST);
		return;
	}
	er.er_rows = xr.xr_rows;
	er.er_cols = xr.xr_cols;
	/* To the place the output comes from: Docker's or the native. */
	if (s->s_src.ep_proc != PROC_DOCKER && s->s_src.ep_proc != PROC_NS)
		return;
	if (worker_compose(s->s_src.ep_proc, IMSG_SPACE_EXEC_RESIZE, r->r_id,
	    -1, &er, sizeof(er)) == -1) {
		log_warn("%s: worker_compose", __func__);
		return;
	}
	if (r->r_conns_more < EXEC_RESIZE_CONNS_MAX)
		r->r_conns_more++;
}
