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
 * The runtime volume: one per relay (key), shared by every space of the
 * installation and by its tools fills, whose filler runs the relay from
 * it too (space_runtime.h).  One request of this worker fills it at a
 * time; it sweeps the fill containers a killed worker left, compares a
 * volume another filled, and after a fill of its own prunes the old.
 */

#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "docker_harden.h"
#include "space.h"
#include "space_runtime.h"
#include "docker_steps.h"

#define RT_POLL_MS	100
#define RT_SMALL_CAP	(256 * 1024)
#define RT_LIST_CAP	(8 * 1024 * 1024)

/* What a step answers beside DOCKER_CALL, RT_READY and RT_FAILED. */
#define RT_SEND		((enum docker_next)0x210)	/* rt_step's call */
#define RT_ADVANCE	((enum docker_next)0x211)	/* its row's next */

#define rt_call(rt, cl, method, cap, ...) \
	docker_call_fmt((cl), (rt)->rt_api, (method), (cap), __VA_ARGS__)

struct rt_row {
	enum rt_step	 st_step;
	enum docker_next (*st_send)(struct docker_req *, struct rt *,
			    struct docker_call *);
	enum docker_next (*st_take)(struct docker_req *, struct rt *,
			    const struct docker_parser *, struct docker_call *);
	enum rt_step	 st_next;
};

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
take_runtime(struct rt *rt, const struct docker_parser *p, int volumes,
    int same_key)
{
	rt->rt_nstale = create_runtime_take(p, volumes, rt->rt_owner,
	    rt->rt_key, same_key, rt->rt_stale, RT_STALE_MAX);
	rt->rt_istale = 0;
}

static json_t *
fill_container_body(struct rt *rt)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), rt->rt_key) == -1)
		return NULL;
	/* Never started: it only holds the volume while we write into it. */
	return json_pack("{s:s, s:[s], s:o, s:{s:s, s:[{s:s, s:s, s:s, s:b}]}}",
	    "Image", rt->rt_image,
	    "Entrypoint", "/bin/true",
	    "Labels", runtime_labels_build(rt->rt_owner, rt->rt_key),
	    "HostConfig", "NetworkMode", "none", "Mounts",
	    "Type", "volume", "Source", name, "Target", HARDEN_RUNTIME_DIR,
	    "ReadOnly", 0);
}

/* Its end: the volume holds our relay (and bundle). */
static enum docker_next
to_ready(struct rt *rt)
{
	rt->rt_step = RT_DONE;
	return RT_READY;
}

/* The step after the last: nothing to send, the volume is ready. */
static enum docker_next
done_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	return RT_READY;
}

/* A failure: the turn goes back, the request fails with it. */
static enum docker_next
rt_fail(struct docker_req *rq, struct rt *rt, const char *code,
    const char *msg)
{
	rtfill_release(rq, rt);
	strlcpy(rt->rt_code, code, sizeof(rt->rt_code));
	strlcpy(rt->rt_msg, msg, sizeof(rt->rt_msg));
	return RT_FAILED;
}

/* --- its turn: ready, or this request fills it, or it waits ---------- */

static enum docker_next
wait_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	/*
	 * Ready once is not ready for good: another installation that
	 * shares the key may have pruned the volume since.  One GET says.
	 */
	if (docker_runtime_ready(rt->rt_key)) {
		rt->rt_recheck = 1;
		rt->rt_step = RT_GET;
		return RT_SEND;
	}
	if (docker_runtime_take(docker_req_peerid(rq))) {
		rt->rt_holder = 1;
		return RT_ADVANCE;
	}
	/* Another create or tools fill fills it; ask again shortly. */
	rt_call(rt, next, "GET", RT_SMALL_CAP, "/_ping");
	next->cl_delay_ms = RT_POLL_MS;
	return DOCKER_CALL;
}

static enum docker_next
wait_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	return RT_SEND;
}

/*
 * First the fill containers of this key a killed worker of this
 * installation left: they hold the volume.  The fill is one at a time in
 * this worker, so none is in progress; another installation's may be.
 */
static enum docker_next
sweep_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	char	 f[768];

	runtime_filter(rt->rt_owner, rt->rt_key, f, sizeof(f));
	rt_call(rt, next, "GET", RT_LIST_CAP,
	    "/containers/json?all=1&filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
sweep_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	take_runtime(rt, p, 0, 1);
	return RT_ADVANCE;
}

static enum docker_next
sweep_del_send(struct docker_req *rq, struct rt *rt,
    struct docker_call *next)
{
	if (rt->rt_istale >= rt->rt_nstale)
		return RT_ADVANCE;
	rt_call(rt, next, "DELETE", RT_SMALL_CAP, "/containers/%s?force=1",
	    rt->rt_stale[rt->rt_istale]);
	return DOCKER_CALL;
}

/* Refused (a space still mounts it): it stays, no failure. */
static enum docker_next
stale_del_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	rt->rt_istale++;
	return RT_SEND;
}

/* --- the volume: ours by label, or made now -------------------------- */

static enum docker_next
get_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), rt->rt_key) == -1)
		fatalx("%s: runtime key", __func__);
	rt_call(rt, next, "GET", RT_SMALL_CAP, "/volumes/%s", name);
	return DOCKER_CALL;
}

static enum docker_next
get_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	const char	*why;

	if (p->dp_status == 404 && rt->rt_recheck) {
		/* Gone since it was filled: fill it again, in turn. */
		rt->rt_recheck = 0;
		docker_runtime_set_ready(rt->rt_key, 0);
		rt->rt_step = RT_WAIT;
		return RT_SEND;
	}
	if (p->dp_status == 404)
		return RT_ADVANCE;	/* RT_CREATE */
	if (p->dp_status != 200)
		return rt_fail(rq, rt, ERR_DOCKER_FAILED,
		    "GET the runtime volume");
	if ((why = create_runtime_labels(p, rt->rt_key)) != NULL)
		return rt_fail(rq, rt, ERR_RUNTIME_FOREIGN, why);
	if (rt->rt_recheck)
		return to_ready(rt);
	rt->rt_step = RT_CTR;
	return RT_SEND;
}

static enum docker_next
create_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	json_t		*body;
	const char	*why;

	if ((body = harden_runtime_volume_body(rt->rt_owner, rt->rt_key,
	    &why)) == NULL)
		return rt_fail(rq, rt, ERR_INTERNAL, why);
	rt_call(rt, next, "POST", RT_SMALL_CAP, "/volumes/create");
	next->cl_body = body;
	return DOCKER_CALL;
}

static enum docker_next
create_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 201)
		return rt_fail(rq, rt, ERR_DOCKER_FAILED,
		    "runtime volume create");
	rt->rt_created = 1;
	return RT_ADVANCE;
}

/* --- the fill container: holds the volume while we look and write ---- */

static enum docker_next
ctr_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	json_t	*body;

	if ((body = fill_container_body(rt)) == NULL)
		return rt_fail(rq, rt, ERR_INTERNAL, "fill container");
	rt_call(rt, next, "POST", RT_SMALL_CAP, "/containers/create");
	next->cl_body = body;
	return DOCKER_CALL;
}

static enum docker_next
ctr_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	struct harden_report	 hr;

	harden_report_init(&hr);
	/* A warning is a setting the engine dropped. */
	if (p->dp_status != 201 || engine_created(p, &hr, rt->rt_cid,
	    sizeof(rt->rt_cid)) == -1 || rt->rt_cid[0] == '\0')
		return rt_fail(rq, rt, ERR_DOCKER_FAILED,
		    "runtime fill container");
	return RT_ADVANCE;
}

static enum docker_next
marker_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	rt_call(rt, next, "HEAD", RT_SMALL_CAP, "/containers/%s/archive"
	    "?path=%s/%s", rt->rt_cid, HARDEN_RUNTIME_DIR,
	    RUNTIME_MARKER_NAME);
	return DOCKER_CALL;
}

static enum docker_next
marker_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status == 200) {
		/* Filled, maybe by another installation: compare. */
		rt->rt_step = RT_RELAY;
		return RT_SEND;
	}
	if (p->dp_status != 404)
		return rt_fail(rq, rt, ERR_DOCKER_FAILED, "runtime marker");
	return RT_ADVANCE;	/* RT_PUT */
}

/* The relay (and bundle), then the marker that says it is complete. */
static enum docker_next
put_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	uint8_t	*tar;
	size_t	 len;

	tar = rt->rt_step == RT_PUT ? docker_runtime_fill_tar(&len) :
	    docker_runtime_marker_tar(&len);
	if (tar == NULL)
		return rt_fail(rq, rt, ERR_RUNTIME_MISSING,
		    "the relay cannot be read");
	rt_call(rt, next, "PUT", RT_SMALL_CAP,
	    "/containers/%s/archive?path=%s", rt->rt_cid, HARDEN_RUNTIME_DIR);
	next->cl_raw = tar;
	next->cl_raw_len = len;
	next->cl_type = "application/x-tar";
	return DOCKER_CALL;
}

static enum docker_next
put_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200)
		return rt_fail(rq, rt, ERR_DOCKER_FAILED, "runtime fill");
	rt->rt_filled = 1;
	return RT_ADVANCE;
}

static enum docker_next
relay_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	rt_call(rt, next, "GET", RUNTIME_RELAY_MAX + 64 * 1024,
	    "/containers/%s/archive?path=%s/%s", rt->rt_cid,
	    HARDEN_RUNTIME_DIR, RUNTIME_RELAY_NAME);
	return DOCKER_CALL;
}

static enum docker_next
relay_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200 ||
	    !docker_runtime_relay_matches(p->dp_body, p->dp_body_len))
		return rt_fail(rq, rt, ERR_RUNTIME_FOREIGN,
		    "the runtime volume holds another relay");
	rt->rt_step = docker_runtime_has_ca() ? RT_CA : RT_CTR_DEL;
	return RT_SEND;
}

static enum docker_next
ca_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	rt_call(rt, next, "GET", RUNTIME_CA_MAX + 64 * 1024,
	    "/containers/%s/archive?path=%s/%s", rt->rt_cid,
	    HARDEN_RUNTIME_DIR, RUNTIME_CA_NAME);
	return DOCKER_CALL;
}

static enum docker_next
ca_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 200 ||
	    !docker_runtime_ca_matches(p->dp_body, p->dp_body_len))
		return rt_fail(rq, rt, ERR_RUNTIME_FOREIGN,
		    "the runtime volume holds another CA bundle");
	return RT_ADVANCE;
}

static enum docker_next
ctr_del_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	rt_call(rt, next, "DELETE", RT_SMALL_CAP, "/containers/%s?force=1",
	    rt->rt_cid);
	return DOCKER_CALL;
}

static enum docker_next
ctr_del_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status != 204 && p->dp_status != 404)
		return rt_fail(rq, rt, ERR_DOCKER_FAILED,
		    "runtime fill container remove");
	rt->rt_cid[0] = '\0';
	docker_runtime_set_ready(rt->rt_key, 1);
	docker_runtime_release(docker_req_peerid(rq));
	rt->rt_holder = 0;
	rt->rt_created = 0;	/* filled: it stays */
	/* A new relay: the installation's old ones may go. */
	if (rt->rt_filled)
		return RT_ADVANCE;
	return to_ready(rt);
}

/* --- the prune: this installation's other runtime volumes ------------ */

static enum docker_next
prune_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	char	 f[768];

	runtime_filter(rt->rt_owner, NULL, f, sizeof(f));
	rt_call(rt, next, "GET", RT_LIST_CAP, "/volumes?filters=%s", f);
	return DOCKER_CALL;
}

static enum docker_next
prune_take(struct docker_req *rq, struct rt *rt,
    const struct docker_parser *p, struct docker_call *next)
{
	take_runtime(rt, p, 1, 0);
	return RT_ADVANCE;
}

static enum docker_next
prune_del_send(struct docker_req *rq, struct rt *rt,
    struct docker_call *next)
{
	if (rt->rt_istale >= rt->rt_nstale)
		return to_ready(rt);
	rt_call(rt, next, "DELETE", RT_SMALL_CAP, "/volumes/%s",
	    rt->rt_stale[rt->rt_istale]);
	return DOCKER_CALL;
}

static const struct rt_row rt_rows[] = {
	{ RT_WAIT,	  wait_send,	  wait_take,	  RT_SWEEP },
	{ RT_SWEEP,	  sweep_send,	  sweep_take,	  RT_SWEEP_DEL },
	{ RT_SWEEP_DEL, sweep_del_send, stale_del_take, RT_GET },
	{ RT_GET,	  get_send,	  get_take,	  RT_CREATE },
	{ RT_CREATE,	  create_send,	  create_take,	  RT_CTR },
	{ RT_CTR,	  ctr_send,	  ctr_take,	  RT_MARKER },
	{ RT_MARKER,	  marker_send,	  marker_take,	  RT_PUT },
	{ RT_PUT,	  put_send,	  put_take,	  RT_PUT_MARKER },
	{ RT_PUT_MARKER, put_send,	  put_take,	  RT_CTR_DEL },
	{ RT_RELAY,	  relay_send,	  relay_take,	  RT_CA },
	{ RT_CA,	  ca_send,	  ca_take,	  RT_CTR_DEL },
	{ RT_CTR_DEL,	  ctr_del_send,	  ctr_del_take,	  RT_PRUNE },
	{ RT_PRUNE,	  prune_send,	  prune_take,	  RT_PRUNE_DEL },
	{ RT_PRUNE_DEL, prune_del_send, stale_del_take, RT_DONE },
	{ RT_DONE,	  done_send,	  NULL,		  RT_DONE },
};

static const size_t rt_rows_n = sizeof(rt_rows) / sizeof(rt_rows[0]);

static const struct {
	const struct rt_row	*t_rows;
	const size_t		*t_n;
} step_tables[] = {
	{ rt_rows, &rt_rows_n },
};

/* step_row and rt_go, the driver of these rows (docker_steps.h). */
STEPS_GENERATE(rt, rt, rt_step, rt_row, rt_step, step_tables, RT_SEND,
    RT_ADVANCE)

int
rtfill_begin(struct rt *rt, const char *api, const char *owner,
    const char *image, const char *key)
{
	memset(rt, 0, sizeof(*rt));
	if (strlcpy(rt->rt_api, api, sizeof(rt->rt_api)) >=
	    sizeof(rt->rt_api) || !space_owner_valid(owner) ||
	    strlcpy(rt->rt_owner, owner, sizeof(rt->rt_owner)) >=
	    sizeof(rt->rt_owner) || image[0] == '\0' ||
	    strlcpy(rt->rt_image, image, sizeof(rt->rt_image)) >=
	    sizeof(rt->rt_image) || key == NULL || !runtime_key_valid(key) ||
	    strlcpy(rt->rt_key, key, sizeof(rt->rt_key)) >=
	    sizeof(rt->rt_key))
		return -1;
	rt->rt_step = RT_WAIT;
	return 0;
}

enum docker_next
rtfill_send(struct docker_req *rq, struct rt *rt, struct docker_call *next)
{
	return rt_go(rq, rt, RT_SEND, next);
}

enum docker_next
rtfill_take(struct docker_req *rq, struct rt *rt, const struct docker_parser *p,
    struct docker_call *next)
{
	return rt_go(rq, rt, step_row(rt->rt_step)->st_take(rq, rt, p, next),
	    next);
}

void
rtfill_release(struct docker_req *rq, struct rt *rt)
{
	if (rt->rt_holder) {
		docker_runtime_release(docker_req_peerid(rq));
		rt->rt_holder = 0;
	}
}
