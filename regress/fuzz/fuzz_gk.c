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


/* The gatekeeper fuzzers' shared client and setup (fuzz_gk.h). */

#include <sys/types.h>
#include <sys/socket.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <event2/event.h>

#include "gatekeeper/spaced-gatekeeper/gatekeeper.h"
#include "regress/fuzz/fuzz_gk.h"

char	 fuzz_gk_reply[FUZZ_GK_REPLY_MAX];
size_t	 fuzz_gk_replylen;

void
fuzz_gk_init(void)
{
	TAILQ_INIT(&gk->gk_grants);
	TAILQ_INIT(&gk->gk_drains);
	TAILQ_INIT(&gk->gk_orphans);
	TAILQ_INIT(&gk->gk_closing);
	gk->gk_mode = GK_MODE_ALLOWLIST;
	if ((gk->gk_base = event_base_new()) == NULL)
		abort();
}

static void
drain(int fd)
{
	ssize_t	 n;

	while (fuzz_gk_replylen < sizeof(fuzz_gk_reply) &&
	    (n = read(fd, fuzz_gk_reply + fuzz_gk_replylen,
	    sizeof(fuzz_gk_reply) - fuzz_gk_replylen)) > 0)
		fuzz_gk_replylen += n;
}

int
fuzz_gk_connect(struct fuzz_gk_client *c, const uint8_t *data, size_t size,
    size_t piece)
{
	int	 sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1 ||
	    fcntl(sv[0], F_SETFL, O_NONBLOCK) == -1 ||
	    fcntl(sv[1], F_SETFL, O_NONBLOCK) == -1)
		abort();
	c->fd = sv[0];
	c->data = data;
	c->size = size;
	c->piece = piece;
	c->off = 0;
	c->ended = 0;
	fuzz_gk_replylen = 0;
	return sv[1];
}

/* The client writes what it has, then ends its side. */
void
fuzz_gk_turn(struct fuzz_gk_client *c)
{
	size_t	 want;
	ssize_t	 n;

	want = c->piece == 0 || c->size - c->off < c->piece ?
	    c->size - c->off : c->piece;
	if (want > 0 && (n = send(c->fd, c->data + c->off, want,
	    MSG_NOSIGNAL)) > 0)
		c->off += n;
	if (c->off == c->size && !c->ended) {
		shutdown(c->fd, SHUT_WR);
		c->ended = 1;
	}
	event_base_loop(gk->gk_base, EVLOOP_ONCE);
	drain(c->fd);
}

void
fuzz_gk_close(struct fuzz_gk_client *c)
{
	drain(c->fd);
	close(c->fd);
}
