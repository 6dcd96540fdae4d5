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
 * spaced's own filter, installed once every worker runs and the control
 * socket is bound.  It has forked its last child: no fork, no exec, no
 * change of credentials.  What it keeps is what routing needs.
 */

#include <sys/syscall.h>

#include <stddef.h>

#include "spaced.h"

static const int spaced_extra[] = {
	SYS_wait4,	/* reap a worker that died, to say why */
	SYS_kill,	/* end the workers on the way out */
	SYS_unlink,	/* remove the control socket on the way out */
	SYS_readlink,	/* /proc/<pid>/root for the audit table */
	-1
};

const struct sandbox_spec spaced_sandbox = {
	.sb_name = "spaced",
	/*
	 * stdio: channels and clients; recvfd, sendfd: sockets for workers;
	 * rpath: /proc for the audit table; inet: accept control clients,
	 * connect to the Docker socket for the Docker worker.
	 */
	.sb_groups = SB_STDIO | SB_RECVFD | SB_SENDFD | SB_RPATH | SB_INET,
	.sb_extra = spaced_extra,
	/*
	 * No Landlock: it would have to allow the Docker socket, /proc and
	 * the control socket's directory, which is most of what it touches.
	 */
	.sb_landlock_dir = NULL,
	.sb_landlock_optional = 1,
};
