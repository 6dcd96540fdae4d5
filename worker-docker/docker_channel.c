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
 * The channel to spaced: set by the dispatcher at the first message,
 * read by the operations that stream to spaced (exec, logs), which end
 * their stream here.  It calls nothing else of this program's, so
 * operations reach the channel without the dispatcher.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/uio.h>

#include <event.h>
#include <stdint.h>

#include "imsg.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "docker_channel.h"
#include "docker_env.h"

void
docker_channel_set(struct imsgev *iev)
{
	env->de_iev = iev;
}

struct imsgev *
docker_channel(void)
{
	return env->de_iev;
}

void
docker_channel_tx_end(struct stream_tx *tx, int *open, int ok)
{
	if (!*open)
		return;
	if (stream_tx_end(tx, &env->de_iev->ibuf, ok ? 0 : -1) == -1)
		fatal("%s: stream_tx_end", __func__);
	worker_stream_unregister(tx->st_id);
	*open = 0;
	imsg_event_add(env->de_iev);
}
