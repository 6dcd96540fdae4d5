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
 * spaced-docker: the Docker place.  Speaks the Engine API over connected
 * sockets that spaced opens and passes; never opens or connects one.
 */

#include <jansson.h>

#include "proc.h"
#include "docker_req.h"
#include "docker_worker.h"
#include "tools_prune.h"
#include "zfree.h"

/*
 * jansson seeds its hash from /dev/urandom on first use, which the
 * filter denies (it would fall back to time and pid): seed it now, so
 * engine JSON cannot be shaped into collisions.
 */
static void
docker_prewarm(void)
{
	json_object_seed(0);
}

/* spaced ended the request: what its ensure kept goes with it. */
static int
docker_cancel(uint32_t peerid)
{
	tools_unkeep(peerid);
	return docker_req_cancel(peerid);
}

static const struct worker docker_worker = {
	.w_id = PROC_DOCKER,
	.w_sandbox = &docker_sandbox,
	.w_prewarm = docker_prewarm,
	.w_dispatch = docker_dispatch,
	.w_cancel = docker_cancel,
};

int
main(int argc, char *argv[])
{
	/* Tokens and stdin pass through; dumpable as spaced's audit needs. */
	zfree_install();
	zfree_no_core(1);
	worker_main(argc, argv, &docker_worker);
}
