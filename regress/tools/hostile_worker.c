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
 * A compromised worker, for regress/integration/spaced-requests.sh: it
 * stands in for spaced-git (the test copies it over the binary), says
 * READY like a real one, answers PING and status honestly (the positive
 * control: spaced talks to it normally), and attacks when probed:
 *
 *   probe git open     answers with the wrong type for its own request
 *   probe git socket   answers the request just before its own as if it
 *                      were spaced-docker answering a check: another
 *                      client's answer, if that one is pending
 *   probe git connect  answers its own request twice
 *   probe git fork     passes an fd with its answer
 *   stream-test        sends twice the credit window without credit
 *
 * A spaced that takes any of these is the bug the test looks for.
 */

#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imsg.h"
#include "place_proto.h"
#include "proto.h"
#include "stream.h"

static struct imsgbuf	 ibuf;

static void
send_msg(uint32_t type, uint32_t peerid, int fd, const void *data,
    size_t len)
{
	if (imsg_compose(&ibuf, type, peerid, getpid(), fd, data, len) == -1 ||
	    imsgbuf_flush(&ibuf) == -1)
		exit(1);
}

static void
attack(uint32_t id, struct probe_msg *pm)
{
	struct git_version_msg	 gv;
	struct docker_check_msg	 dc;

	memset(&gv, 0, sizeof(gv));
	switch (pm->pr_call) {
	case PROBE_OPEN:
		send_msg(IMSG_GIT_VERSION_REP, id, -1, &gv, sizeof(gv));
		break;
	case PROBE_SOCKET:
		/* Someone else's request: the newest before ours first. */
		memset(&dc, 0, sizeof(dc));
		dc.dc_available = 1;
		strlcpy(dc.dc_version, "forged", sizeof(dc.dc_version));
		send_msg(IMSG_DOCKER_CHECK_REP, id - 1, -1, &dc, sizeof(dc));
		break;
	case PROBE_CONNECT:
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
		break;
	case PROBE_FORK:
		imsgbuf_allow_fdpass(&ibuf);
		send_msg(IMSG_WORKER_PROBE, id, open("/", O_RDONLY), pm,
		    sizeof(*pm));
		break;
	default:
		/* execve: answered honestly, as a refused call */
		pm->pr_errno = EPERM;
		send_msg(IMSG_WORKER_PROBE, id, -1, pm, sizeof(*pm));
	}
}

/* A source that ignores credit: two windows at once. */
static void
flood_stream(struct imsg *imsg)
{
	static uint8_t		 chunk[STREAM_CHUNK];
	struct stream_test_msg	 tm;
	size_t			 i;

	if (imsg_get_data(imsg, &tm, sizeof(tm)) == -1)
		exit(1);
	for (i = 0; i < 2 * STREAM_WINDOW / STREAM_CHUNK; i++)
		send_msg(IMSG_STREAM_DATA, tm.tm_stream, -1, chunk,
		    sizeof(chunk));
}

int
main(void)
{
	struct worker_ready_info wi;
	struct git_version_msg	 gv;
	struct probe_msg	 pm;
	struct imsg		 imsg;
	struct pollfd		 pfd = { 3, POLLIN, 0 };
	ssize_t			 n;

	imsgbuf_init(&ibuf, 3);
	memset(&wi, 0, sizeof(wi));
	wi.wi_pid = getpid();
	strlcpy(wi.wi_landlock, "hostile", sizeof(wi.wi_landlock));
	send_msg(IMSG_WORKER_READY, 0, -1, &wi, sizeof(wi));
	for (;;) {
		if (poll(&pfd, 1, -1) == -1)
			exit(1);
		if ((n = imsgbuf_read(&ibuf)) == 0)
			exit(0);
		if (n == -1 && errno != EAGAIN)
			exit(1);
		while (imsgbuf_get(&ibuf, &imsg) == 1) {
			uint32_t id = imsg_get_peerid(&imsg);

			switch (imsg_get_type(&imsg)) {
			case IMSG_WORKER_PING:
				send_msg(IMSG_WORKER_PING, id, -1, NULL, 0);
				break;
			case IMSG_GIT_VERSION_REQ:
				memset(&gv, 0, sizeof(gv));
				strlcpy(gv.gv_libgit2, "hostile",
				    sizeof(gv.gv_libgit2));
				send_msg(IMSG_GIT_VERSION_REP, id, -1, &gv,
				    sizeof(gv));
				break;
			case IMSG_STREAM_TEST_SEND:
				flood_stream(&imsg);
				break;
			case IMSG_WORKER_PROBE:
				if (imsg_get_data(&imsg, &pm, sizeof(pm)) == 0)
					attack(id, &pm);
				break;
			}
			imsg_free(&imsg);
		}
	}
}
