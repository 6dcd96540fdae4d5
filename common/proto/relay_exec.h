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

#ifndef SPACED_RELAY_EXEC_H
#define SPACED_RELAY_EXEC_H

/*
 * A space's exec on the Docker place runs as
 *
 *	/opt/spaced/spaced-relay --exec -- command [arg ...]
 *
 * spaced-relay's exec mode (gatekeeper/spaced-relay/subreaper.c): a
 * child subreaper that runs the command, so that whatever the command
 * leaves has it for its parent while the command runs, and the kill of
 * an exec (worker-docker/docker_execcall.c) finds all of it.  No shell
 * takes the flag, so the agent's shell mode never reads it as its own.
 */
#define RELAY_EXEC_FLAG		"--exec"
#define RELAY_EXEC_ARGS		3	/* the relay, the flag, "--" */

#endif /* SPACED_RELAY_EXEC_H */
