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
 * spaced-docker's dispatch: a request from spaced becomes a request of
 * docker_req.c, and answers go back on the channel whenever they are
 * ready, in any order, each with its request's peerid.
 */

#include <stdint.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "docker_ops.h"
#include "docker_req.h"
#include "docker_runtime.h"
#include "docker_worker.h"

/* The channel, kept for answers that come after dispatch returned. */
static struct imsgev	*docker_iev;

/* The relay binary, from IMSG_DOCKER_RUNTIME. */
static int				 runtime_fd = -1;
static struct docker_runtime_msg	 runtime_msg;

int
docker_runtime_fd(void)
{
	return runtime_fd;
}

const char *
docker_runtime_key(void)
{
	return runtime_msg.dr_key;
}

uint64_t
docker_runtime_size(void)
{
	return runtime_msg.dr_size;
}

/* Once a process: spaced sends it after READY, with the fd. */
static void
docker_runtime_take(struct imsg *imsg)
{
	struct docker_runtime_msg	 dr;

	if (runtime_fd != -1)
		fatalx("%s: a second runtime", __func__);
	if (imsg_get_data(imsg, &dr, sizeof(dr)) == -1 ||
	    memchr(dr.dr_key, '\0', sizeof(dr.dr_key)) == NULL ||
	    !runtime_key_valid(dr.dr_key) || dr.dr_size == 0)
		fatalx("%s: bad runtime message", __func__);
	if ((runtime_fd = imsg_get_fd(imsg)) == -1)
		fatalx("%s: runtime without its fd", __func__);
	runtime_msg = dr;
	log_debug("runtime: key %s, %llu bytes", runtime_msg.dr_key,
	    (unsigned long long)runtime_msg.dr_size);
}

static void
docker_reply(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (imsg_compose_event(docker_iev, type, peerid, 0, -1, data, len) ==
	    -1)
		log_warn("%s: imsg_compose_event", __func__);
}

void
docker_dispatch(struct imsgev *iev, struct imsg *imsg)
{
	static uint8_t		 buf[IMSG_MAX_PAYLOAD];
	const struct docker_op	*op;
	uint32_t		 type = imsg_get_type(imsg);
	size_t			 len = imsg_get_len(imsg);
	int			 fd = -1;

	if (docker_iev == NULL) {
		docker_iev = iev;
		docker_req_init(iev->base, docker_reply);
	}
	if (type == IMSG_DOCKER_RUNTIME) {
		docker_runtime_take(imsg);
		return;
	}
	if ((op = docker_op_find(type)) == NULL)
		fatalx("%s: unexpected imsg %u", __func__, type);
	/* spaced is trusted: a malformed request is a bug there. */
	if (len != op->op_len || len > sizeof(buf) ||
	    (len > 0 && imsg_get_data(imsg, buf, len) == -1))
		fatalx("%s: bad %s request", __func__, op->op_name);
	if (op->op_fd && (fd = imsg_get_fd(imsg)) == -1)
		fatalx("%s: %s request without a socket", __func__,
		    op->op_name);
	docker_req_start(op, imsg_get_peerid(imsg), fd, 0, buf, len);
}
