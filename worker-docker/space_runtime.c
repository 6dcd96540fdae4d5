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
 * The runtime volume, in create: one per relay (key), shared by every
 * space of the installation.  One create of this worker fills it at a
 * time; it sweeps the fill containers a killed worker left, compares a
 * volume another filled, and after a fill of its own prunes the old.
 */

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space.h"

#define SP_RUNTIME_POLL_MS	100

/* filters={"label":[role=runtime, owner=<ours>[, key=<key>]]}, encoded. */
static void
runtime_filter(const char *owner, const char *key, char *buf, size_t len)
{
	char	 o[128], k[128];

	if ((size_t)snprintf(o, sizeof(o), LABEL_OWNER "=%s", owner) >=
	    sizeof(o) || (key != NULL && (size_t)snprintf(k, sizeof(k),
	    LABEL_RUNTIME_KEY "=%s", key) >= sizeof(k)))
		fatalx("%s: filter too long", __func__);
	if (key == NULL)
		engine_label_filter(buf, len, 2, LABEL_ROLE "=runtime", o);
	else
		engine_label_filter(buf, len, 3, LABEL_ROLE "=runtime", o, k);
}

/*
 * The refs in a listing whose runtime labels say key (or not key) and
 * this installation's owner (create_parse.c).
 */
static void
take_runtime(struct sp *sp, const struct docker_parser *p, int volumes,
    int same_key)
{
	sp->rt_nstale = create_runtime_take(p, volumes,
	    sp->sq.sq_runtime_owner, sp->rt_key, same_key, sp->rt_stale,
	    RT_STALE_MAX);
	sp->rt_istale = 0;
}

static json_t *
fill_container_body(struct sp *sp)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), sp->rt_key) == -1)
		return NULL;
	/* Never started: it only holds the volume while we write into it. */
	return json_pack("{s:s, s:[s], s:o, s:{s:s, s:[{s:s, s:s, s:s, s:b}]}}",
	    "Image", sp->sq.sq_space_image,
	    "Entrypoint", "/bin/true",
	    "Labels", runtime_labels_build(sp->sq.sq_runtime_owner,
	    sp->rt_key),
	    "HostConfig", "NetworkMode", "none", "Mounts",
	    "Type", "volume", "Source", name, "Target", HARDEN_RUNTIME_DIR,
	    "ReadOnly", 0);
}

/* After the runtime: the space's own volumes. */
static enum docker_next
to_volumes(struct sp *sp)
{
	sp->step = C_VOL;
	sp->i = 0;
	return SP_SEND;
}

/* --- its turn: ready, or this request fills it, or it waits ---------- */

static enum docker_next
wait_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	/*
	 * Ready once is not ready for good: another installation that
	 * shares the key may have pruned the volume since.  One GET says.
	 */
	if (docker_runtime_ready(sp->rt_key)) {
		sp->rt_recheck = 1;
		sp->step = C_RT_GET;
		return SP_SEND;
	}
	if (docker_runtime_take(docker_req_peerid(rq))) {
		sp->rt_holder = 1;
		return SP_ADVANCE;
	}
	/* Another create fills it; ask again shortly. */
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/_ping");
	next->cl_delay_ms = SP_RUNTIME_POLL_MS;
	return DOCKER_CALL;
}

static enum docker_next
wait_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	return SP_SEND;
}

/*
 * First the fill containers of this key a killed worker of this
 * installation left: they hold the volume.  The fill is one at a time in
 * this worker, so none is in progress; another installation's may be.
 */
static enum docker_next
sweep_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	runtime_filter(sp->sq.sq_runtime_owner, sp->rt_key, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP,
	    "/containers/json?all=1&filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
sweep_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	take_runtime(sp, p, 0, 1);
	return SP_ADVANCE;
}

static enum docker_next
sweep_del_send(struct docker_req *rq, struct sp *sp,
    struct docker_call *next)
{
	if (sp->rt_istale >= sp->rt_nstale)
		return SP_ADVANCE;
	sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?force=1",
	    sp->rt_stale[sp->rt_istale]);
	return DOCKER_CALL;
}

/* Refused (a space still mounts it): it stays, no failure. */
static enum docker_next
stale_del_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	sp->rt_istale++;
	return SP_SEND;
}

/* --- the volume: ours by label, or made now -------------------------- */

static enum docker_next
get_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), sp->rt_key) == -1)
		fatalx("%s: runtime key", __func__);
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
get_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	const char	*why;

	if (p->dp_status == 404 && sp->rt_recheck) {
		/* Gone since it was filled: fill it again, in turn. */
		sp->rt_recheck = 0;
		docker_runtime_set_ready(sp->rt_key, 0);
		sp->step = C_RT_WAIT;
		return SP_SEND;
	}
	if (p->dp_status == 404)
		return SP_ADVANCE;	/* C_RT_CREATE */
	if (p->dp_status != 200)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED,
		    "GET the runtime volume", 0, next);
	if ((why = create_runtime_labels(p, sp->rt_key)) != NULL)
		return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN, why, 0, next);
	if (sp->rt_recheck)
		return to_volumes(sp);
	sp->step = C_RT_CTR;
	return SP_SEND;
}

static enum docker_next
create_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	json_t		*body;
	const char	*why;

	if ((body = harden_runtime_volume_create(&sp->hp, &why)) == NULL)
		return sp_fail(rq, sp, ERR_INTERNAL, why, 0, next);
	sp_call(sp, next, "POST", SP_SMALL_CAP, "/volumes/create");
	next->cl_body = body;
	return DOCKER_CALL;
}

static enum docker_next
create_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 201)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED,
		    "runtime volume create", 0, next);
	sp->rt_created = 1;
	return SP_ADVANCE;
}

/* --- the fill container: holds the volume while we look and write ---- */

static enum docker_next
ctr_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	json_t	*body;

	if ((body = fill_container_body(sp)) == NULL)
		return sp_fail(rq, sp, ERR_INTERNAL, "fill container", 0,
		    next);
	sp_call(sp, next, "POST", SP_SMALL_CAP, "/containers/create");
	next->cl_body = body;
	return DOCKER_CALL;
}

static enum docker_next
ctr_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 201 ||
	    created_ok(sp, p, sp->rt_cid, sizeof(sp->rt_cid)) == -1 ||
	    sp->rt_cid[0] == '\0')
		return sp_fail(rq, sp, ERR_DOCKER_FAILED,
		    "runtime fill container", 0, next);
	return SP_ADVANCE;
}

static enum docker_next
marker_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
	    "?path=%s/%s", sp->rt_cid, HARDEN_RUNTIME_DIR,
	    RUNTIME_MARKER_NAME);
	return DOCKER_CALL;
}

static enum docker_next
marker_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status == 200) {
		/* Filled, maybe by another installation: compare. */
		sp->step = C_RT_RELAY;
		return SP_SEND;
	}
	if (p->dp_status != 404)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, "runtime marker", 0,
		    next);
	return SP_ADVANCE;	/* C_RT_PUT */
}

/* The relay (and bundle), then the marker that says it is complete. */
static enum docker_next
put_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	uint8_t	*tar;
	size_t	 len;

	tar = sp->step == C_RT_PUT ? docker_runtime_fill_tar(&len) :
	    docker_runtime_marker_tar(&len);
	if (tar == NULL)
		return sp_fail(rq, sp, ERR_RUNTIME_MISSING,
		    "the relay cannot be read", 0, next);
	sp_call(sp, next, "PUT", SP_SMALL_CAP, "/containers/%s/archive?path=%s",
	    sp->rt_cid, HARDEN_RUNTIME_DIR);
	next->cl_raw = tar;
	next->cl_raw_len = len;
	next->cl_type = "application/x-tar";
	return DOCKER_CALL;
}

static enum docker_next
put_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, "runtime fill", 0,
		    next);
	sp->rt_filled = 1;
	return SP_ADVANCE;
}

static enum docker_next
relay_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "GET", RUNTIME_RELAY_MAX + 64 * 1024,
	    "/containers/%s/archive?path=%s/%s", sp->rt_cid,
	    HARDEN_RUNTIME_DIR, RUNTIME_RELAY_NAME);
	return DOCKER_CALL;
}

static enum docker_next
relay_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200 ||
	    !docker_runtime_relay_matches(p->dp_body, p->dp_body_len))
		return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN,
		    "the runtime volume holds another relay", 0, next);
	sp->step = docker_runtime_has_ca() ? C_RT_CA : C_RT_CTR_DEL;
	return SP_SEND;
}

static enum docker_next
ca_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "GET", RUNTIME_CA_MAX + 64 * 1024,
	    "/containers/%s/archive?path=%s/%s", sp->rt_cid,
	    HARDEN_RUNTIME_DIR, RUNTIME_CA_NAME);
	return DOCKER_CALL;
}

static enum docker_next
ca_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200 ||
	    !docker_runtime_ca_matches(p->dp_body, p->dp_body_len))
		return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN,
		    "the runtime volume holds another CA bundle", 0, next);
	return SP_ADVANCE;
}

static enum docker_next
ctr_del_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?force=1",
	    sp->rt_cid);
	return DOCKER_CALL;
}

static enum docker_next
ctr_del_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 204 && p->dp_status != 404)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED,
		    "runtime fill container remove", 0, next);
	sp->rt_cid[0] = '\0';
	docker_runtime_set_ready(sp->rt_key, 1);
	docker_runtime_release(docker_req_peerid(rq));
	sp->rt_holder = 0;
	sp->rt_created = 0;	/* filled: it stays */
	/* A new relay: the installation's old ones may go. */
	if (sp->rt_filled)
		return SP_ADVANCE;
	return to_volumes(sp);
}

/* --- the prune: this installation's other runtime volumes ------------ */

static enum docker_next
prune_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	runtime_filter(sp->sq.sq_runtime_owner, NULL, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP, "/volumes?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
prune_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	take_runtime(sp, p, 1, 0);
	return SP_ADVANCE;
}

static enum docker_next
prune_del_send(struct docker_req *rq, struct sp *sp,
    struct docker_call *next)
{
	if (sp->rt_istale >= sp->rt_nstale)
		return to_volumes(sp);
	sp_call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s",
	    sp->rt_stale[sp->rt_istale]);
	return DOCKER_CALL;
}

const struct sp_step_row space_runtime_steps[] = {
	{ C_RT_WAIT,	  wait_send,	  wait_take,	  C_RT_SWEEP },
	{ C_RT_SWEEP,	  sweep_send,	  sweep_take,	  C_RT_SWEEP_DEL },
	{ C_RT_SWEEP_DEL, sweep_del_send, stale_del_take, C_RT_GET },
	{ C_RT_GET,	  get_send,	  get_take,	  C_RT_CREATE },
	{ C_RT_CREATE,	  create_send,	  create_take,	  C_RT_CTR },
	{ C_RT_CTR,	  ctr_send,	  ctr_take,	  C_RT_MARKER },
	{ C_RT_MARKER,	  marker_send,	  marker_take,	  C_RT_PUT },
	{ C_RT_PUT,	  put_send,	  put_take,	  C_RT_PUT_MARKER },
	{ C_RT_PUT_MARKER, put_send,	  put_take,	  C_RT_CTR_DEL },
	{ C_RT_RELAY,	  relay_send,	  relay_take,	  C_RT_CA },
	{ C_RT_CA,	  ca_send,	  ca_take,	  C_RT_CTR_DEL },
	{ C_RT_CTR_DEL,	  ctr_del_send,	  ctr_del_take,	  C_RT_PRUNE },
	{ C_RT_PRUNE,	  prune_send,	  prune_take,	  C_RT_PRUNE_DEL },
	{ C_RT_PRUNE_DEL, prune_del_send, stale_del_take, C_VOL },
};
const size_t space_runtime_steps_n = sizeof(space_runtime_steps) /
    sizeof(space_runtime_steps[0]);
