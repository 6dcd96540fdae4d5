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

#include <sys/syscall.h>

#include "relay.h"

/*
 * spaced-relay once its listeners are up and its child runs:
 * - stdio: the epoll loop, pipes, shutdown and socket options on the
 *   fds it holds, its own signal mask;
 * - unix: accept4 on its listeners, AF_UNIX SOCK_STREAM sockets and
 *   connect, to reach corridor.sock and window.sock; no bind, listen,
 *   or socket of any other kind;
 * - child: wait4 for the agent and kill to pass SIGTERM on;
 * - splice: the bytes go socket to pipe to socket, never through
 *   this process.
 * No filesystem (Landlock: connect to a path is not a Landlock fs
 * access, and the relay opens nothing), no exec, no fork.
 */
static const int relay_extra[] = {
	SYS_splice,
	-1
};

const struct sandbox_spec relay_sandbox_spec = {
	.sb_name = "spaced-relay",
	.sb_groups = SB_STDIO | SB_UNIX | SB_CHILD,
	.sb_extra = relay_extra,
	.sb_landlock_dir = NULL,
	.sb_landlock_optional = 0,
};
