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

#include "log.h"
#include "proc.h"
#include "docker_channel.h"
#include "docker_ops.h"
#include "docker_req.h"
#include "docker_runtime.h"
#include "tools_volume.h"
#include "place_proto.h"
#include "docker_worker.h"

static void
docker_reply(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (imsg_compose_event(docker_channel(), type, peerid, 0, -1, data, len) ==
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

	if (docker_channel() == NULL) {
		docker_channel_set(iev);
		docker_req_init(iev->base, docker_reply, IMSG_SPACE_CONN_REQ);
	}
	switch (type) {
	case IMSG_DOCKER_RUNTIME:
		if (len != sizeof(struct docker_runtime_msg) ||
		    imsg_get_data(imsg, buf, len) == -1 ||
		    docker_runtime_set((struct docker_runtime_msg *)buf,
		    imsg_get_fd(imsg)) == -1)
			fatalx("%s: bad runtime message", __func__);
		return;
	case IMSG_DOCKER_RUNTIME_CA:
		if (len != sizeof(struct docker_runtime_ca_msg) ||
		    imsg_get_data(imsg, buf, len) == -1 ||
		    docker_runtime_set_ca((struct docker_runtime_ca_msg *)buf,
		    imsg_get_fd(imsg)) == -1)
			fatalx("%s: bad runtime CA message", __func__);
		return;
	case IMSG_TOOLS_FILE:
		/* A file of an ensure (its fd), after the request. */
		if (len != sizeof(struct tools_file_msg) ||
		    imsg_get_data(imsg, buf, len) == -1)
			fatalx("%s: bad tools file message", __func__);
		tools_file(imsg_get_peerid(imsg),
		    (struct tools_file_msg *)buf, imsg_get_fd(imsg));
		return;
	case IMSG_SPACE_EXEC_RESIZE:
		/* exec -t's window, for the exec of that peer */
		if (len != sizeof(struct space_exec_resize) ||
		    imsg_get_data(imsg, buf, len) == -1)
			fatalx("%s: bad resize message", __func__);
		docker_exec_resize(imsg_get_peerid(imsg),
		    (struct space_exec_resize *)buf);
		return;
	case IMSG_SPACE_CONN:
		/* The new connection a request asked for, or none. */
		if (len != 0)
			fatalx("%s: bad connection message", __func__);
		docker_req_conn(imsg_get_peerid(imsg), imsg_get_fd(imsg));
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
	/* The request's own copy is its state's; this one may hold a token. */
	explicit_bzero(buf, len);
}
