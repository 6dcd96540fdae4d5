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

#ifndef SPACED_IMSG_H
#define SPACED_IMSG_H

/*
 * An imsg-like message layer over a stream socket (a socketpair between
 * the supervisor and a worker, or the control socket).  Every message has
 * a fixed header and up to IMSG_MAX_PAYLOAD bytes of payload; at most one
 * file descriptor travels with a message (SCM_RIGHTS).
 */

#include <sys/types.h>
#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include <event.h>

#define IMSG_MAX_PAYLOAD	16384
#define IMSG_MAX_FDS		16	/* fds received and not yet claimed */

struct imsg_hdr {
	uint32_t	 type;
	uint16_t	 len;		/* header + payload, bytes */
	uint16_t	 flags;
#define IMSGF_HASFD	0x0001
	/* other bits: refused on the wire, used by the layer in a struct imsg */
	uint32_t	 peerid;
	uint32_t	 pid;
};
#define IMSG_HEADER_SIZE	sizeof(struct imsg_hdr)
#define MAX_IMSGSIZE		(IMSG_HEADER_SIZE + IMSG_MAX_PAYLOAD)
/*
 * Four of the largest messages (64 KiB a channel): a relay takes a
 * socket's worth in fewer recvmsg(2) calls and wakeups than with two;
 * more did not measure faster (regress/bench/stream.sh).
 */
#define IMSG_RBUF_SIZE		(4 * MAX_IMSGSIZE)

struct imsg_rblock;			/* a read buffer; private */

struct imsg {
	struct imsg_hdr	 hdr;
	int		 fd;		/* -1 when none */
	uint8_t		*data;		/* hdr.len - IMSG_HEADER_SIZE bytes */
	struct imsg_rblock *rblock;	/* data lies in it, or NULL */
};

struct imsg_out;			/* one queued message; private */

struct imsgbuf {
	int			 fd;
	pid_t			 pid;
	int			 allow_fdpass;	/* fds may pass, both ways */
	size_t			 maxsize;	/* largest message taken */
	/*
	 * Reads go to a block of IMSG_RBUF_SIZE bytes, allocated on the
	 * first read; large payloads (over 4 KiB) are taken in place and
	 * keep their block alive (counted) until freed or written on, so
	 * a relay never copies them.  Memory: one block a channel, plus
	 * the blocks that held imsgs or queued output still pin; a block
	 * is filled before the next is started, so that is about the
	 * bytes held (a relay: its window) plus a block.  rbuf is the
	 * current block's data.
	 */
	struct imsg_rblock	*rblock;
	uint8_t			*rbuf;
	size_t			 rlen;		/* unread bytes, from roff */
	size_t			 roff;
	int			 rfds[IMSG_MAX_FDS];
	size_t			 nrfds;
	TAILQ_HEAD(, imsg_out)	 outq;
	size_t			 outq_bytes;
	size_t			 outq_count;
};

void	 imsgbuf_init(struct imsgbuf *, int fd);
/*
 * This channel carries fds, in both directions; without it an fd from
 * the peer is refused (EBADMSG) and one to send is refused (EPERM).
 */
void	 imsgbuf_allow_fdpass(struct imsgbuf *);
/* Largest message (header included) this channel accepts; <= MAX_IMSGSIZE. */
void	 imsgbuf_set_maxsize(struct imsgbuf *, size_t);
/* Frees queued output and closes unclaimed fds; does not close ibuf->fd. */
void	 imsgbuf_clear(struct imsgbuf *);

/*
 * Read what the socket has.  Returns the number of bytes read, 0 on EOF,
 * -1 on error with errno set (EAGAIN when nothing was there; EBADMSG when
 * an fd arrived on a channel that does not allow them, or was truncated).
 */
ssize_t	 imsgbuf_read(struct imsgbuf *);
/*
 * Take the next complete message.  1: *imsg is filled and must be passed
 * to imsg_free; 0: no complete message yet; -1: the stream is bad
 * (errno ERANGE for a length over the cap or under the header size,
 * EBADMSG for an fd flag without an fd).  After -1 the channel is dead.
 */
int	 imsgbuf_get(struct imsgbuf *, struct imsg *);

/*
 * Queue one message.  fd (or -1) belongs to the layer from the call on:
 * it is closed once sent, or at once when the call fails (-1 with errno
 * EPERM for an fd on a channel without imsgbuf_allow_fdpass, ERANGE for
 * a payload over IMSG_MAX_PAYLOAD, ENOMEM).
 */
int	 imsg_compose(struct imsgbuf *, uint32_t type, uint32_t peerid,
	    pid_t pid, int fd, const void *data, size_t len);
/* Write queued output once (non-blocking): 0 ok or EAGAIN, -1 error. */
int	 imsgbuf_write(struct imsgbuf *);
/* Write all queued output, waiting with poll(2): 0 ok, -1 error. */
int	 imsgbuf_flush(struct imsgbuf *);
size_t	 imsgbuf_queuelen(const struct imsgbuf *);

uint32_t imsg_get_type(const struct imsg *);
uint32_t imsg_get_peerid(const struct imsg *);
pid_t	 imsg_get_pid(const struct imsg *);
size_t	 imsg_get_len(const struct imsg *);	/* payload length */
/* Copy exactly len payload bytes; -1 with EBADMSG if the length differs. */
int	 imsg_get_data(const struct imsg *, void *, size_t len);
/* Claim the fd (the caller now owns it); -1 when none. */
int	 imsg_get_fd(struct imsg *);
void	 imsg_free(struct imsg *);	/* closes an unclaimed fd */
/*
 * The receiver's check before use: 0 when the type is type and the
 * payload is exactly len bytes, else -1 with errno EBADMSG.
 */
int	 imsg_expect(const struct imsg *, uint32_t type, size_t len);
/*
 * Queue a received message, unchanged (type, peerid, pid, payload, fd),
 * on another channel.  Its payload buffer moves instead of being copied;
 * the caller still calls imsg_free, which closes the fd if it stayed
 * (-1 with EPERM: an fd onto a channel without fd passing).
 */
int	 imsg_forward(struct imsgbuf *, struct imsg *);

/*
 * libevent glue: an imsgbuf with its event.  imsg_event_add re-arms
 * EV_READ always and EV_WRITE while output is queued.  The handler is
 * called with the struct imsgev as its argument; data is the caller's.
 * The event is persistent (EV_PERSIST), so it stays armed between
 * callbacks; imsgev_handle removes it when it returns -1, and
 * imsgev_clear removes it and frees the buffers (the fd stays open).
 */
struct imsgev {
	struct imsgbuf	 ibuf;
	struct event	 ev;
	struct event_base *base;
	void		(*handler)(int, short, void *);
	void		*data;
	short		 events;
	int		 rpaused;	/* EV_READ withheld: see below */
};

void	 imsgev_init(struct imsgev *, struct event_base *, int fd,
	    void (*handler)(int, short, void *), void *data);
void	 imsg_event_add(struct imsgev *);
int	 imsg_compose_event(struct imsgev *, uint32_t type, uint32_t peerid,
	    pid_t pid, int fd, const void *data, size_t len);
/*
 * Common prologue of a dispatch handler: does the read or write the event
 * asks for.  Returns 0 to go on with imsgbuf_get, -1 when the peer is gone
 * or the channel failed (errno says which; 0 for EOF).
 */
int	 imsgev_handle(struct imsgev *, short event);
/*
 * Stop (1) or resume (0) reading the peer: a receiver whose answers the
 * peer does not take stops taking its requests, and the kernel's socket
 * buffer pushes back on the peer.  Writing goes on.
 */
void	 imsg_event_pause_read(struct imsgev *, int paused);
void	 imsgev_clear(struct imsgev *);

#endif /* SPACED_IMSG_H */
