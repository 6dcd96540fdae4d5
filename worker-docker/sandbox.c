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
 * spaced-docker's filter.  It holds the process that talks to the Docker
 * daemon, which is root on the host, so it gets the least of all: the
 * fds it holds and the sockets spaced passes it.  No open, no socket, no
 * connect, no exec, no filesystem (Landlock), its own empty chroot.
 */

#include <stddef.h>

#include "sandbox.h"
#include "docker_worker.h"

const struct sandbox_spec docker_sandbox = {
	.sb_name = "docker",
	/* stdio: its channel and the sockets it holds; recvfd: those sockets */
	.sb_groups = SB_STDIO | SB_RECVFD,
	.sb_extra = NULL,
	.sb_landlock_dir = NULL,
};
