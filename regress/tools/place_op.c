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
 * place_op: one space operation of spaced-docker, run in this process
 * against the live engine, records printed one a line.  For developing
 * and debugging the place without spaced; the tests go through spacectl.
 *   place_op OWNER RELAY create|list|show|verify|stop|start|remove [ID]
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <event2/event.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "place_proto.h"
#include "worker-docker/docker_ops.h"
#include "worker-docker/docker_req.h"
#include "worker-docker/docker_runtime.h"

static int	 failed;

static int
connect_docker(void)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, "/var/run/docker.sock", sizeof(sun.sun_path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		err(1, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "connect");
	return fd;
}

static void
capture(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	const struct space_info		*si = data;
	const struct space_violation	*sv = data;
	const struct space_resource	*sr = data;
	const struct space_done		*sd = data;
	uint32_t			 i;

	switch (type) {
	case IMSG_SPACE_INFO:
		printf("info %s name=%s state=%s gk=%s memory=%llu created=%s"
		    " orphans=%u missing=", si->si_id, si->si_name,
		    si->si_state, si->si_gk_state,
		    (unsigned long long)si->si_memory, si->si_created,
		    si->si_norphans);
		for (i = 0; i < si->si_nmissing; i++)
			printf("%s%s", i ? "," : "", si->si_missing[i]);
		printf("\n");
		break;
	case IMSG_SPACE_VIOLATION:
		printf("violation %s: %s\n", sv->sv_check, sv->sv_message);
		break;
	case IMSG_SPACE_RESOURCE:
		printf("resource %u %s %s %s\n", sr->sr_state, sr->sr_id,
		    sr->sr_type, sr->sr_name);
		break;
	case IMSG_SPACE_DONE:
		printf("done '%s' uncertain=%d %s\n", sd->sd_code,
		    sd->sd_uncertain, sd->sd_message);
		failed = sd->sd_code[0] != '\0';
		break;
	case IMSG_SPACE_CONN_REQ:
		docker_req_conn(peerid, connect_docker());
		break;
	default:
		errx(1, "unexpected message %u", type);
	}
	fflush(stdout);
}

int
main(int argc, char *argv[])
{
	static const struct { const char *name; uint32_t type; } ops[] = {
		{ "create", IMSG_SPACE_CREATE_REQ },
		{ "list", IMSG_SPACE_LIST_REQ },
		{ "show", IMSG_SPACE_SHOW_REQ },
		{ "verify", IMSG_SPACE_VERIFY_REQ },
		{ "stop", IMSG_SPACE_STOP_REQ },
		{ "start", IMSG_SPACE_START_REQ },
		{ "remove", IMSG_SPACE_REMOVE_REQ },
	};
	struct docker_runtime_msg	 dr;
	struct space_req		 sq;
	struct space_create_req		 cq;
	char				 hosts[PATH_MAX];
	struct event_base		*base;
	struct stat			 sb;
	const char			*key;
	size_t				 i;
	int				 fd;

	if (argc < 5)
		errx(2, "usage: place_op OWNER RELAY KEY op [ID]");
	if ((fd = open(argv[2], O_RDONLY)) == -1 || fstat(fd, &sb) == -1)
		err(1, "%s", argv[2]);
	key = argv[3];
	memset(&dr, 0, sizeof(dr));
	strlcpy(dr.dr_key, key, sizeof(dr.dr_key));
	dr.dr_size = sb.st_size;
	if (docker_runtime_set(&dr, fd) == -1)
		errx(1, "runtime");
	memset(&sq, 0, sizeof(sq));
	strlcpy(sq.sq_owner, argv[1], sizeof(sq.sq_owner));
	strlcpy(sq.sq_runtime_owner, argv[1], sizeof(sq.sq_runtime_owner));
	strlcpy(sq.sq_runtime_key, key, sizeof(sq.sq_runtime_key));
	strlcpy(sq.sq_space_image, getenv("PLACE_SPACE_IMAGE") != NULL ?
	    getenv("PLACE_SPACE_IMAGE") : "spaced-space:latest",
	    sizeof(sq.sq_space_image));
	strlcpy(sq.sq_gk_image, getenv("PLACE_GK_IMAGE") != NULL ?
	    getenv("PLACE_GK_IMAGE") : "spaced-gatekeeper:latest",
	    sizeof(sq.sq_gk_image));
	/* The hosts file beside the relay, as make installs both. */
	if (realpath(argv[2], hosts) == NULL)
		err(1, "%s", argv[2]);
	snprintf(sq.sq_hosts, sizeof(sq.sq_hosts), "%s/space-hosts",
	    dirname(hosts));
	if (argc > 5)
		strlcpy(sq.sq_id, argv[5], sizeof(sq.sq_id));
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(ops[i].name, argv[4]) == 0)
			break;
	if (i == sizeof(ops) / sizeof(ops[0]))
		errx(2, "no operation %s", argv[4]);
	if ((base = event_base_new()) == NULL)
		errx(1, "event_base_new");
	docker_req_init(base, capture, IMSG_SPACE_CONN_REQ);
	/* A create carries a token besides: none here (no agent). */
	memset(&cq, 0, sizeof(cq));
	cq.cq_space = sq;
	docker_req_start(docker_op_find(ops[i].type), 1, connect_docker(), 0,
	    &cq, ops[i].type == IMSG_SPACE_CREATE_REQ ? sizeof(cq) :
	    sizeof(sq));
	event_base_dispatch(base);
	event_base_free(base);
	return failed;
}
