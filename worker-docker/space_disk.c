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
 * The disk sweep: one GET /system/df gives every container's writable
 * layer and every volume's size; a space's bytes are those of its two
 * containers and its work and home volumes, for one installation.
 */

#include <stdlib.h>
#include <string.h>

#include "docker_engine.h"
#include "docker_ops.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space.h"

#define DISK_DF_CAP	(32 * 1024 * 1024)	/* many images and volumes */
#define DISK_SPACES_MAX	4096

struct dk {
	char			 api[ENGINE_API_MAX];
	char			 install[INSTALL_ID_MAX + 1];
	int			 df_sent;
	struct space_disk	*spaces;
	size_t			 n;
};

/* The space an object of ours belongs to, and its role; NULL if not ours. */
static struct space_disk *
dk_entry(struct dk *dk, const json_t *labels, int *role)
{
	const char	*owner, *id;
	size_t		 ilen = strlen(dk->install), i;
	struct space_disk *s;

	owner = json_string_value(json_object_get(labels, LABEL_OWNER));
	if (owner == NULL || strncmp(owner, dk->install, ilen) != 0 ||
	    owner[ilen] != ':' ||
	    space_labels_check(labels, owner, NULL, -1) != NULL)
		return NULL;
	id = json_string_value(json_object_get(labels, LABEL_ID));
	*role = space_role_parse(json_string_value(json_object_get(labels,
	    LABEL_ROLE)));
	for (i = 0; i < dk->n; i++)
		if (strcmp(dk->spaces[i].sk_id, id) == 0)
			return strcmp(dk->spaces[i].sk_owner, owner) == 0 ?
			    &dk->spaces[i] : NULL;
	if (dk->n >= DISK_SPACES_MAX)
		return NULL;
	if ((s = reallocarray(dk->spaces, dk->n + 1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	dk->spaces = s;
	s = &dk->spaces[dk->n++];
	memset(s, 0, sizeof(*s));
	strlcpy(s->sk_id, id, sizeof(s->sk_id));
	strlcpy(s->sk_owner, owner, sizeof(s->sk_owner));
	strlcpy(s->sk_state, "missing", sizeof(s->sk_state));
	return s;
}

/* A size the engine measured: a number >= 0 (-1: not measured). */
static uint64_t
dk_size(const json_t *v)
{
	json_int_t	 n;

	if (!json_is_integer(v) || (n = json_integer_value(v)) < 0)
		return 0;
	return (uint64_t)n;
}

static void
dk_take(struct dk *dk, const json_t *o)
{
	json_t			*e;
	struct space_disk	*s;
	const char		*state;
	size_t			 i;
	int			 role;

	json_array_foreach(json_object_get(o, "Containers"), i, e) {
		if ((s = dk_entry(dk, json_object_get(e, "Labels"), &role)) ==
		    NULL || (role != ROLE_SPACE && role != ROLE_GATEKEEPER))
			continue;
		s->sk_used += dk_size(json_object_get(e, "SizeRw"));
		state = json_string_value(json_object_get(e, "State"));
		if (role == ROLE_SPACE && state != NULL &&
		    strlen(state) < sizeof(s->sk_state))
			strlcpy(s->sk_state, state, sizeof(s->sk_state));
	}
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		if ((s = dk_entry(dk, json_object_get(e, "Labels"), &role)) ==
		    NULL || (role != ROLE_WORK && role != ROLE_HOME))
			continue;
		s->sk_used += dk_size(json_object_get(json_object_get(e,
		    "UsageData"), "Size"));
	}
}

static int
dk_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct dk			*dk = docker_req_state(rq);
	const struct space_disk_req	*dq = data;

	if (memchr(dq->dq_install, '\0', sizeof(dq->dq_install)) == NULL ||
	    !install_id_valid(dq->dq_install))
		return -1;
	strlcpy(dk->install, dq->dq_install, sizeof(dk->install));
	engine_version_call(dk->api, sizeof(dk->api), cl);
	return 0;
}

static enum docker_next
dk_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct dk	*dk = docker_req_state(rq);
	const char	*code, *message;
	char		 msg[128];
	json_t		*o;
	size_t		 i;

	if (!dk->df_sent) {
		if ((code = engine_version_take(p, dk->api, sizeof(dk->api),
		    &message)) != NULL) {
			done(rq, code, message, 0);
			return DOCKER_DONE;
		}
		dk->df_sent = 1;
		docker_call_fmt(next, dk->api, "GET", DISK_DF_CAP,
		    "/system/df");
		return DOCKER_CALL;
	}
	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL) {
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	dk_take(dk, o);
	json_decref(o);
	for (i = 0; i < dk->n; i++)
		docker_req_record(rq, IMSG_SPACE_DISK, &dk->spaces[i],
		    sizeof(dk->spaces[i]));
	done(rq, "", NULL, 0);
	return DOCKER_DONE;
}

static enum docker_next
dk_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	done(rq, code, "the disk sweep", 0);
	return DOCKER_DONE;
}

static void
dk_free(void *state)
{
	struct dk	*dk = state;

	free(dk->spaces);
}

const struct docker_op docker_disk_op = {
	.op_name = "disk",
	.op_req = IMSG_SPACE_DISK_REQ,
	.op_rep = IMSG_SPACE_DONE,
	.op_len = sizeof(struct space_disk_req),
	.op_fd = 1,
	.op_timeout_ms = 120000,
	.op_state_size = sizeof(struct dk),
	.op_start = dk_start,
	.op_answer = dk_answer,
	.op_fail = dk_fail,
	.op_free = dk_free,
};
