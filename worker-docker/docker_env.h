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

#ifndef SPACED_DOCKER_ENV_H
#define SPACED_DOCKER_ENV_H

/*
 * spaced-docker's process state, in one place (relayd's env): the
 * channel, the requests in flight, the engine's API version, the
 * runtime spaced sent, and the tools volumes' turns.
 */

#include <sys/queue.h>

#include <stdint.h>
#include <time.h>

#include "place_proto.h"
#include "docker_req.h"
#include "docker_runtime.h"

#define DOCKER_TOOLS_HOLDERS	DOCKER_REQ_MAX

struct imsgev;
struct docker_req;
struct tv;

struct docker_env {
	struct imsgev		*de_iev;	/* to spaced, once it spoke */

	/* docker_req.c */
	TAILQ_HEAD(, docker_req) de_reqs;
	size_t			 de_nreqs;
	struct event_base	*de_base;
	docker_reply_fn		 de_reply;
	uint32_t		 de_conn_type;

	/* docker_check.c: the API version, and when it was read */
	char			 de_api[24];
	struct timespec		 de_api_at;

	/* docker_runtime.c: the relay and the CA bundle, by fd */
	int			 de_relay_fd;
	uint64_t		 de_relay_size;
	int			 de_ca_next_fd, de_ca_fd;
	uint64_t		 de_ca_next_size, de_ca_size;
	char			 de_relay_key[RUNTIME_KEY_LEN + 1];
	char			 de_ready_key[RUNTIME_KEY_LEN + 1];
	uint32_t		 de_fill_holder;	/* 0: nobody */

	/* tools_volume.c: the requests, and whose turn each volume is */
	TAILQ_HEAD(, tv)	 de_tools;
	struct {
		char		 h_volume[TOOLS_MSG_VOLUME_MAX];
		uint32_t	 h_peerid;
	}			 de_holders[DOCKER_TOOLS_HOLDERS];
	/* tools volumes a create or start was given and has yet to mount */
	struct {
		char		 k_volume[TOOLS_MSG_VOLUME_MAX];
		uint32_t	 k_peerid;
		int		 k_claimed;	/* its create or start began */
		time_t		 k_since;	/* tools_clock() at the answer */
	}			 de_kept[DOCKER_TOOLS_HOLDERS];
};

extern struct docker_env	*env;

#endif /* SPACED_DOCKER_ENV_H */
