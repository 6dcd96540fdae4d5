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
/* Measured: docs/perf.md, "common". */
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
	/* Large payloads are taken in place: a relay never copies them. */
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
void	 imsgbuf_allow_fdpass(struct imsgbuf *);
/* Largest message (header included) this channel accepts; <= MAX_IMSGSIZE. */
void	 imsgbuf_set_maxsize(struct imsgbuf *, size_t);
/* Frees queued output and closes unclaimed fds; does not close ibuf->fd. */
void	 imsgbuf_clear(struct imsgbuf *);
void	 imsg_cache_drain(void);	/* a thread that ends: its kept buffers */

ssize_t	 imsgbuf_read(struct imsgbuf *);
int	 imsgbuf_get(struct imsgbuf *, struct imsg *);
/* The header in front, when whole (one imsgbuf_get refused): 0, else -1. */
int	 imsgbuf_peek_hdr(const struct imsgbuf *, struct imsg_hdr *);

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
int	 imsg_expect(const struct imsg *, uint32_t type, size_t len);
int	 imsg_forward(struct imsgbuf *, struct imsg *);

/* libevent glue: an imsgbuf with its persistent event. */
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
int	 imsgev_handle(struct imsgev *, short event);
void	 imsg_event_pause_read(struct imsgev *, int paused);
void	 imsgev_clear(struct imsgev *);

#endif /* SPACED_IMSG_H */
