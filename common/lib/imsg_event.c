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
 * The message layer's libevent glue: one persistent event per channel,
 * re-armed only when what it waits for changes.
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <event.h>

#include "imsg.h"

/*
 * imsg_event_add re-arms EV_READ always and EV_WRITE while output is
 * queued; imsgev_handle removes the event when it returns -1, and
 * imsgev_clear removes it and frees the buffers (the fd stays open).
 */
void
imsgev_init(struct imsgev *iev, struct event_base *base, int fd,
    void (*handler)(int, short, void *), void *data)
{
	imsgbuf_init(&iev->ibuf, fd);
	iev->base = base;
	iev->handler = handler;
	iev->data = data;
	iev->events = EV_READ | EV_PERSIST;
	iev->rpaused = 0;
	event_assign(&iev->ev, base, fd, iev->events, handler, iev);
}

/*
 * The event is persistent: re-adding it after every callback would cost
 * two epoll_ctl(2) calls per wakeup.  It changes only when EV_WRITE has
 * to come or go; imsgev_handle removes it once the channel is dead.
 */
void
imsg_event_add(struct imsgev *iev)
{
	short	 events = EV_PERSIST;

	if (!iev->rpaused)
		events |= EV_READ;
	if (imsgbuf_queuelen(&iev->ibuf) > 0)
		events |= EV_WRITE;
	if (events == iev->events &&
	    event_pending(&iev->ev, EV_READ | EV_WRITE, NULL))
		return;
	event_del(&iev->ev);
	iev->events = events;
	if ((events & (EV_READ | EV_WRITE)) == 0)
		return;		/* nothing to wait for until resumed */
	event_assign(&iev->ev, iev->base, iev->ibuf.fd, events, iev->handler,
	    iev);
	event_add(&iev->ev, NULL);
}

int
imsg_compose_event(struct imsgev *iev, uint32_t type, uint32_t peerid,
    pid_t pid, int fd, const void *data, size_t len)
{
	if (imsg_compose(&iev->ibuf, type, peerid, pid, fd, data, len) == -1)
		return -1;
	imsg_event_add(iev);
	return 0;
}

/*
 * Common prologue of a dispatch handler: does the read or write the event
 * asks for.  Returns 0 to go on with imsgbuf_get, -1 when the peer is gone
 * or the channel failed (errno says which; 0 for EOF).
 */
int
imsgev_handle(struct imsgev *iev, short event)
{
	ssize_t	 n;
	int	 saved;

	if (event & EV_READ) {
		n = imsgbuf_read(&iev->ibuf);
		if (n == 0) {
			errno = 0;
			goto dead;
		}
		if (n == -1 && errno != EAGAIN && errno != EWOULDBLOCK)
			goto dead;
	}
	if (event & EV_WRITE) {
		if (imsgbuf_write(&iev->ibuf) == -1)
			goto dead;
		/* Drained: stop asking for EV_WRITE. */
		imsg_event_add(iev);
	}
	return 0;
 dead:
	/* A persistent event on a dead fd would fire forever. */
	saved = errno;
	event_del(&iev->ev);
	errno = saved;
	return -1;
}

/*
 * Stop (1) or resume (0) reading the peer: a receiver whose answers the
 * peer does not take stops taking its requests, and the kernel's socket
 * buffer pushes back on the peer.  Writing goes on.
 */
void
imsg_event_pause_read(struct imsgev *iev, int paused)
{
	if (iev->rpaused == paused)
		return;
	iev->rpaused = paused;
	imsg_event_add(iev);
}

void
imsgev_clear(struct imsgev *iev)
{
	event_del(&iev->ev);
	imsgbuf_clear(&iev->ibuf);
}
