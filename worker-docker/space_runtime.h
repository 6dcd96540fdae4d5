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

#ifndef SPACED_SPACE_RUNTIME_H
#define SPACED_SPACE_RUNTIME_H

/*
 * The runtime volume's fill as a step list of its own, which a space's
 * create and a tools fill both run before anything executes the relay:
 * every container that runs spaced-relay runs it from this volume,
 * mounted read-only, and never from a volume a gatekeeper can write
 * (docs/privsep.md).  A request keeps a struct rt, starts it with
 * rtfill_begin and passes its turns through rtfill_send and rtfill_take.
 */

#include <stddef.h>
#include <stdint.h>

#include "place_proto.h"
#include "docker_engine.h"
#include "docker_req.h"
#include "docker_runtime.h"

/* What rtfill_send and _take answer beside DOCKER_CALL (a call in next). */
#define RT_READY	((enum docker_next)0x200)	/* it holds our relay */
#define RT_FAILED	((enum docker_next)0x201)	/* rt_code, rt_msg */

enum rt_step {
	RT_WAIT, RT_SWEEP, RT_SWEEP_DEL, RT_GET, RT_CREATE, RT_CTR, RT_MARKER,
	RT_PUT, RT_PUT_MARKER, RT_RELAY, RT_CA, RT_CTR_DEL, RT_PRUNE,
	RT_PRUNE_DEL, RT_DONE
};

struct rt {
	enum rt_step	 rt_step;
	char		 rt_api[ENGINE_API_MAX];
	char		 rt_owner[SPACE_OWNER_SIZE];	/* the installation's */
	char		 rt_image[SPACE_IMAGE_MAX];	/* the fill container's */
	char		 rt_key[RUNTIME_KEY_LEN + 1];
	char		 rt_cid[SPACE_RESOURCE_MAX];	/* the fill container */
	int		 rt_holder;	/* this request fills */
	int		 rt_created;	/* made the volume: undo it */
	int		 rt_filled;	/* filled it: prune the old */
	int		 rt_recheck;	/* ready before: is it still? */
	/* fill containers of this key a killed worker left; old volumes */
#define RT_STALE_MAX	16
	char		 rt_stale[RT_STALE_MAX][SPACE_RESOURCE_MAX];
	size_t		 rt_nstale, rt_istale;
	/* the failure, once RT_FAILED */
	char		 rt_code[CTL_CODE_MAX];
	char		 rt_msg[SPACE_DONE_MESSAGE_MAX];
};

/* -1 when an argument is no owner, image or key. */
int		 rtfill_begin(struct rt *, const char *api, const char *owner,
		    const char *image, const char *key);
enum docker_next rtfill_send(struct docker_req *, struct rt *,
		    struct docker_call *);
enum docker_next rtfill_take(struct docker_req *, struct rt *,
		    const struct docker_parser *, struct docker_call *);
/* A failure or an end of the request while it held the fill's turn. */
void		 rtfill_release(struct docker_req *, struct rt *);

/*
 * The fill as one step of a request's own table (a create's C_RT, a
 * tools fill's G_RUNTIME), whose state type T keeps its struct rt as
 * rt.  In the manner of RB_GENERATE_STATIC it defines that row's
 * runtime_send and runtime_take: the fill's next call, or ADVANCE once
 * the volume holds our relay, or FAIL(rq, state, rt_code, rt_msg, 0,
 * next), the request's own failure.
 */
#define RTFILL_STEP_GENERATE(T, ADVANCE, FAIL)				\
static enum docker_next							\
runtime_turn(struct docker_req *rq, T *s, enum docker_next nx,		\
    struct docker_call *next)						\
{									\
	if (nx == RT_FAILED)						\
		return FAIL(rq, s, s->rt.rt_code, s->rt.rt_msg, 0, next); \
	return nx == RT_READY ? (ADVANCE) : nx;				\
}									\
									\
static enum docker_next							\
runtime_send(struct docker_req *rq, T *s, struct docker_call *next)	\
{									\
	return runtime_turn(rq, s, rtfill_send(rq, &s->rt, next), next); \
}									\
									\
static enum docker_next							\
runtime_take(struct docker_req *rq, T *s,				\
    const struct docker_parser *p, struct docker_call *next)		\
{									\
	return runtime_turn(rq, s, rtfill_take(rq, &s->rt, p, next),	\
	    next);							\
}

#endif /* SPACED_SPACE_RUNTIME_H */
