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
#include "space_disk.h"

#define DISK_DF_CAP	(32 * 1024 * 1024)	/* many images and volumes */

struct dk {
	char			 api[ENGINE_API_MAX];
	int			 df_sent;
	struct disk_df		 df;
};

static int
dk_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct dk			*dk = docker_req_state(rq);
	const struct space_disk_req	*dq = data;

	if (memchr(dq->dq_install, '\0', sizeof(dq->dq_install)) == NULL ||
	    !install_id_valid(dq->dq_install))
		return -1;
	strlcpy(dk->df.install, dq->dq_install, sizeof(dk->df.install));
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
	disk_df_take(&dk->df, o);
	json_decref(o);
	for (i = 0; i < dk->df.n; i++)
		docker_req_record(rq, IMSG_SPACE_DISK, &dk->df.spaces[i],
		    sizeof(dk->df.spaces[i]));
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

	free(dk->df.spaces);
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
