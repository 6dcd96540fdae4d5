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

#ifndef SPACED_PLACE_PROTO_H
#define SPACED_PLACE_PROTO_H

/*
 * The place protocol: what spaced asks of a place (spaced-docker today,
 * spaced-ns later) over its worker channel, beside the worker channel's
 * own messages (proto.h).  Types 64-99.
 */

#include <stdint.h>

#include "proto.h"

enum place_imsg_type {
	/* REQ carries a connected socket to the engine; REP the answer */
	IMSG_DOCKER_CHECK_REQ = 64,
	IMSG_DOCKER_CHECK_REP,
};

#define CTL_CODE_MAX		64
#define DOCKER_VERSION_MAX	64
/* The answer of check; spaced passes it on to the client unchanged. */
struct docker_check_msg {
	int32_t		 dc_available;		/* 1 or 0 */
	char		 dc_code[CTL_CODE_MAX];	/* when not available */
	char		 dc_version[DOCKER_VERSION_MAX];
	char		 dc_api_version[16];
	char		 dc_min_api_version[16];
	char		 dc_os[32];
	char		 dc_arch[32];
	int32_t		 dc_host_isolation;	/* 1 or 0 */
};

#endif /* SPACED_PLACE_PROTO_H */
