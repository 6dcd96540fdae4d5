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
 * list and show: this owner's containers, networks and volumes by
 * label, grouped by space id; what is left of a space without its
 * container shows as orphans.  show as a lookup asks the containers
 * alone.
 */

#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "log.h"
#include "space.h"

static int
res_cmp(const void *a, const void *b)
{
	const struct sp_res	*ra = a, *rb = b;
	int			 c;

	if ((c = strcmp(ra->r_id, rb->r_id)) != 0)
		return c;
	return ra->r_role - rb->r_role;
}

static const struct sp_res *
find_res(const struct sp *sp, size_t from, size_t to, enum sp_res_type type,
    enum space_role role)
{
	size_t	 i;

	for (i = from; i < to; i++)
		if (sp->res[i].r_type == type && sp->res[i].r_role == (int)role)
			return &sp->res[i];
	return NULL;
}

/*
 * The space's container: the one with the plain name when a move left
 * two (spec), else the aside one alone, which list shows as it is:
 * stopped, so it can be started.
 */
static const struct sp_res *
find_space_res(const struct sp *sp, size_t from, size_t to)
{
	const struct sp_res	*r, *any = NULL;
	char			 name[SPACE_RESOURCE_MAX];
	size_t			 i;

	for (i = from; i < to; i++) {
		r = &sp->res[i];
		if (r->r_type != RES_CONTAINER || r->r_role != ROLE_SPACE)
			continue;
		if (space_resource_name(name, sizeof(name), r->r_id,
		    ROLE_SPACE) == 0 && strcmp(r->r_name, name) == 0)
			return r;
		if (any == NULL)
			any = r;
	}
	return any;
}

/* One space's records: its info and what is missing. */
static void
list_space(struct docker_req *rq, struct sp *sp, size_t i, size_t j,
    const struct sp_res *s, const struct sp_res *gk)
{
	const char	*missing[SPACE_MISSING_MAX];
	size_t		 n = 0;

	if (find_res(sp, i, j, RES_NETWORK, ROLE_NETWORK) == NULL)
		missing[n++] = "network";
	if (find_res(sp, i, j, RES_VOLUME, ROLE_SOCKET) == NULL)
		missing[n++] = "socket_volume";
	if (find_res(sp, i, j, RES_VOLUME, ROLE_WORK) == NULL)
		missing[n++] = "work_volume";
	if (find_res(sp, i, j, RES_VOLUME, ROLE_HOME) == NULL)
		missing[n++] = "home_volume";
	if (gk == NULL)
		missing[n++] = "gatekeeper";
	else if (strcmp(s->r_state, "running") == 0 &&
	    strcmp(gk->r_state, "running") != 0)
		missing[n++] = "gatekeeper_stopped";
	send_info(rq, &s->r_meta, s->r_state,
	    gk != NULL ? gk->r_state : "missing", missing, n, 0);
}

static void
list_finish(struct docker_req *rq, struct sp *sp)
{
	const struct sp_res	*s, *gk;
	struct space_meta	 m;
	size_t			 i, j, k, shown = 0;

	if (sp->nres > 1)	/* no listing at all: no array to sort */
		qsort(sp->res, sp->nres, sizeof(sp->res[0]), res_cmp);
	for (i = 0; i < sp->nres; i = j) {
		for (j = i; j < sp->nres &&
		    strcmp(sp->res[j].r_id, sp->res[i].r_id) == 0; j++)
			;
		s = find_space_res(sp, i, j);
		gk = find_res(sp, i, j, RES_CONTAINER, ROLE_GATEKEEPER);
		if (s != NULL && s->r_meta.sm_id[0] != '\0')
			list_space(rq, sp, i, j, s, gk);
		else {
			/* Orphans: what is left of a space without its own. */
			memset(&m, 0, sizeof(m));
			strlcpy(m.sm_id, sp->res[i].r_id, sizeof(m.sm_id));
			send_info(rq, &m, "missing",
			    gk != NULL ? gk->r_state : "missing", NULL, 0,
			    j - i);
			for (k = i; k < j; k++)
				send_resource(rq, &sp->res[k],
				    SPACE_RES_ORPHAN);
		}
		shown++;
	}
	if (sp->op == IMSG_SPACE_SHOW_REQ && shown == 0)
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
	else
		done(rq, "", NULL, 0);
}

static const char *
list_id(const struct sp *sp)
{
	return sp->op == IMSG_SPACE_SHOW_REQ ? sp->sq.sq_id : NULL;
}

static enum docker_next
list_send(struct sp *sp, const char *what, struct docker_call *next)
{
	char	 f[768];

	label_filter(sp, list_id(sp), f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP, "%s%s", what, f);
	return DOCKER_CALL;
}

static enum docker_next
l_c_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return list_send(sp, "/containers/json?all=1&filters=", next);
}

static enum docker_next
l_n_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return list_send(sp, "/networks?filters=", next);
}

static enum docker_next
l_v_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return list_send(sp, "/volumes?filters=", next);
}

static enum docker_next
list_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, enum sp_res_type type)
{
	char	 msg[128];

	if (take_listing(sp, p, type, list_id(sp)) == -1) {
		/* A place failure rejects; never an empty list instead. */
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	return SP_ADVANCE;
}

static enum docker_next
l_c_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return list_take(rq, sp, p, RES_CONTAINER);
}

static enum docker_next
l_n_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return list_take(rq, sp, p, RES_NETWORK);
}

static enum docker_next
l_v_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	enum docker_next	 nx;

	if ((nx = list_take(rq, sp, p, RES_VOLUME)) != SP_ADVANCE)
		return nx;
	list_finish(rq, sp);
	return DOCKER_DONE;
}

/*
 * An operation's lookup of the caller's space (sq_look): a container of
 * the id labelled the caller's (take_listing checks the labels the
 * filter asked for) is the space's; its networks and volumes, which only
 * show's records need, are not asked for.
 */
static enum docker_next
l_look_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	enum docker_next	 nx;

	if ((nx = list_take(rq, sp, p, RES_CONTAINER)) != SP_ADVANCE)
		return nx;
	if (sp->nres == 0)
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
	else
		done(rq, "", NULL, 0);
	return DOCKER_DONE;
}

const struct sp_step_row space_list_steps[] = {
	{ L_C,	l_c_send,	l_c_take,	L_N },
	{ L_N,	l_n_send,	l_n_take,	L_V },
	{ L_V,	l_v_send,	l_v_take,	L_V },
	{ L_LOOK, l_c_send,	l_look_take,	L_LOOK },
};
const size_t space_list_steps_n = sizeof(space_list_steps) /
    sizeof(space_list_steps[0]);
