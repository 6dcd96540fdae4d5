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
 * remove: the place removes the space; then the ref code in left in
 * each repository the space's code came from goes too, by that
 * repository's spaced-git, and the store forgets the origin.  A
 * repository that moved or went has nothing left to remove; the space
 * is gone either way, so the remove answers END.
 */

#include <sys/types.h>

#include <string.h>

#include "errors.h"
#include "git_parse.h"
#include "git_proto.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"

/* A remove forgets at most this many origins of one space. */
#define REMOVE_ORIGINS_MAX	64

enum remove_step {
	REMOVE_PLACE = 0,
	REMOVE_GET,		/* the store's next origin */
	REMOVE_GIT,		/* its spaced-git removes the ref */
	REMOVE_DEL,		/* the store forgets it */
};

struct remove_state {
	enum remove_step	 step;
	char			 id[SPACE_ID_SIZE];
	char			 dir[GIT_DIR_MAX];
	int			 removed;	/* origins forgotten */
	int			 resources;	/* the place's lines */
	struct space_req	 sq;		/* the place's, after the collection */
	struct space_done	 gone;		/* the place had no such space */
};
const size_t remove_state_size = sizeof(struct remove_state);

static void
origin_send(struct request *r, uint32_t type)
{
	struct remove_state	*rs = r->r_state;

	(void)space_origin_send(r, type, rs->id, r->r_uid, rs->dir);
}

static void
remove_go(struct request *r)
{
	struct remove_state	*rs = r->r_state;

	/* Its owner's commands in it die with it: they learn why. */
	exec_space_removed(r->r_uid, rs->id, 1);
	(void)place_send_or_refuse(r, IMSG_SPACE_REMOVE_REQ, &rs->sq,
	    sizeof(rs->sq));
}

const char *
remove_start(struct request *r, struct imsg *imsg)
{
	struct remove_state	*rs = r->r_state;
	struct ctl_space	 cs;
	struct space_req	 sq;
	const char		*errstr;

	if (imsg_get_data(imsg, &cs, sizeof(cs)) == -1)
		return ERR_BAD_REQUEST;
	if (ctl_space_check(&cs, 1, &errstr) == -1) {
		log_debug("control: uid %u: %s: %s", (unsigned)r->r_uid,
		    r->r_op->op_name, errstr);
		return ERR_BAD_REQUEST;
	}
	space_req_fill(r, &sq, cs.cs_id);
	strlcpy(rs->id, cs.cs_id, sizeof(rs->id));
	strlcpy(sq.sq_name, cs.cs_name, sizeof(sq.sq_name));
	strlcpy(sq.sq_project, cs.cs_project, sizeof(sq.sq_project));
	sq.sq_memory = cs.cs_memory;
	if (agent_fill(r->r_uid, &sq.sq_agent) == -1) {
		request_refuse(r, ERR_TOOLS_FILL_FAILED, "the agent's tools "
		    "cannot be described: see spaced's log for what it could "
		    "not read at start");
		return NULL;
	}
	rs->sq = sq;
	/* What its gatekeeper wrote last goes to the store first. */
	collect_then(r, cs.cs_id, remove_go);
	return NULL;
}

/* END, or the place's space_not_found once the origins went. */
static void
remove_end(struct request *r)
{
	struct remove_state	*rs = r->r_state;

	if (rs->gone.sd_code[0] == '\0') {
		request_end(r);
		return;
	}
	request_data(r, &rs->gone, sizeof(rs->gone));
	request_fail(r, rs->gone.sd_code);
}

/*
 * The place removed the space: now the refs of its origins.  A space
 * the place no longer has may still have them (a create --code whose
 * server never came: code in was done, the create's rollback removed
 * the space).  The Docker place answers such a remove as done; a place
 * that says space_not_found (the native one) has them taken back too,
 * and the answer stays its.
 */
static void
remove_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct remove_state	*rs = r->r_state;
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	if (strcmp(sd.sd_code, ERR_SPACE_NOT_FOUND) == 0)
		rs->gone = sd;
	else if (sd.sd_code[0] != '\0') {
		exec_space_removed(r->r_uid, rs->id, 0);
		request_data(r, &sd, sizeof(sd));
		request_fail(r, sd.sd_code);
		return;
	}
	collect_forget(r->r_uid, rs->id);
	/*
	 * An event only when the place removed something: an unknown id or
	 * another owner's space is answered as done with nothing to say.
	 */
	if (rs->gone.sd_code[0] == '\0' && rs->resources > 0)
		events_emit("remove", r->r_uid, rs->id, NULL);
	/*
	 * Code out's quarantine goes with it (spaced-launch removes it), but
	 * not for another owner's id, answered as done with nothing removed.
	 */
	if (rs->resources > 0 || rs->gone.sd_code[0] != '\0') {
		gitlaunch_qr_remove(rs->id);
		codeout_kept_forget(r->r_uid, rs->id);
	}
	rs->step = REMOVE_GET;
	origin_send(r, IMSG_JOURNAL_ORIGIN_GET);
	if ((r->r_waiting & PROC_BIT(PROC_JOURNAL)) == 0)
		remove_end(r);
}

static void
remove_origin(struct request *r, enum procid from, struct imsg *imsg)
{
	struct remove_state	*rs = r->r_state;
	struct journal_origin	 jo;
	struct git_req		 gq;
	const char		*code;

	if (imsg_get_data(imsg, &jo, sizeof(jo)) == -1 ||
	    memchr(jo.jo_dir, '\0', sizeof(jo.jo_dir)) == NULL)
		fatalx("%s: bad origin from %s", __func__, proc_title(from));
	/* Forgotten: the next origin of the space, until none is left. */
	if (rs->step == REMOVE_DEL) {
		rs->step = REMOVE_GET;
		if (++rs->removed > REMOVE_ORIGINS_MAX)
			remove_end(r);
		else
			origin_send(r, IMSG_JOURNAL_ORIGIN_GET);
		return;
	}
	if (!jo.jo_found || !git_dir_valid(jo.jo_dir, sizeof(jo.jo_dir))) {
		remove_end(r);
		return;
	}
	strlcpy(rs->dir, jo.jo_dir, sizeof(rs->dir));
	rs->step = REMOVE_GIT;
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, rs->id, sizeof(gq.gq_space));
	if ((code = gitinst_attach(r, jo.jo_dir, IMSG_GIT_REFS_REMOVE_REQ,
	    &gq)) != NULL) {
		log_warnx("request %u: refs of %s in %s stay: %s", r->r_id,
		    jo.jo_id, jo.jo_dir, code);
		rs->step = REMOVE_DEL;
		origin_send(r, IMSG_JOURNAL_ORIGIN_DEL);
	}
}

static void
remove_git_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct remove_state	*rs = r->r_state;
	struct space_done	 sd;

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    !git_done_valid(&sd)) {
		gitinst_distrust(r->r_git);
		return;
	}
	if (sd.sd_code[0] != '\0') {
		gitinst_retire(r->r_git);
		log_warnx("request %u: refs of %s in %s: %s: %s", r->r_id,
		    rs->id, rs->dir, sd.sd_code, sd.sd_message);
	}
	rs->step = REMOVE_DEL;
	origin_send(r, IMSG_JOURNAL_ORIGIN_DEL);
	if ((r->r_waiting & PROC_BIT(PROC_JOURNAL)) == 0)
		remove_end(r);
}

/* A line of what the place removed or failed to: passed on, counted. */
static void
remove_resource(struct request *r, enum procid from, struct imsg *imsg)
{
	struct remove_state	*rs = r->r_state;

	rs->resources++;
	space_resource(r, from, imsg);
}

const struct answer_row remove_answers[] = {
	{ IMSG_SPACE_RESOURCE, PLACE_BITS,
	    sizeof(struct space_resource), 0, remove_resource },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, remove_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ IMSG_JOURNAL_ORIGIN, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_origin), AR_FINAL, remove_origin },
	{ IMSG_GIT_DONE, PROC_BIT(PROC_GIT), sizeof(struct space_done),
	    AR_FINAL, remove_git_done },
	{ 0 }
};
