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
 * The message layer: framing, fd passing and the libevent glue.  A
 * large payload is taken in place from its counted read block, so a
 * relay forwards it without a copy; a small one is copied so it pins
 * no block.  fds are handed out in arrival order to IMSGF_HASFD.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "imsg.h"

/* Messages gathered into one sendmsg(2). */
#define IMSG_WRITE_IOV	64
/*
 * In a struct imsg from imsgbuf_get, not on the wire: the payload is in an
 * output buffer (room for a header before it): imsg_forward queues it.
 */
#define IMSGF_OUTBUF	0x8000

/* Payloads larger than this are taken in place from the read block. */
#define IMSG_INPLACE_MIN	(MAX_IMSGSIZE / 4)

/*
 * A read buffer.  Counted: the imsgbuf reading into it, each imsg taken
 * in place from it and each queued output message that lies in it.
 */
struct imsg_rblock {
	size_t			 rb_refs;
	uint8_t			 rb_data[IMSG_RBUF_SIZE];
};

struct imsg_out {
	TAILQ_ENTRY(imsg_out)	 io_entry;
	int			 io_fd;		/* -1 once sent or when none */
	size_t			 io_len;	/* header + payload */
	size_t			 io_off;	/* bytes already written */
	uint8_t			*io_data;	/* io_buf, or in io_rblock */
	struct imsg_rblock	*io_rblock;	/* NULL when in io_buf */
	uint8_t			 io_buf[];
};

static void
close_fds(int *fds, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (fds[i] != -1)
			close(fds[i]);
}

void
imsgbuf_init(struct imsgbuf *ibuf, int fd)
{
	size_t	 i;

	ibuf->fd = fd;
	ibuf->pid = getpid();
	ibuf->allow_fdpass = 0;
	ibuf->maxsize = MAX_IMSGSIZE;
	ibuf->rblock = NULL;
	ibuf->rbuf = NULL;
	ibuf->rlen = 0;
	ibuf->roff = 0;
	for (i = 0; i < IMSG_MAX_FDS; i++)
		ibuf->rfds[i] = -1;
	ibuf->nrfds = 0;
	TAILQ_INIT(&ibuf->outq);
	ibuf->outq_bytes = 0;
	ibuf->outq_count = 0;
}

/*
 * This channel carries fds, in both directions; without it an fd from
 * the peer is refused (EBADMSG) and one to send is refused (EPERM).
 */
void
imsgbuf_allow_fdpass(struct imsgbuf *ibuf)
{
	ibuf->allow_fdpass = 1;
}

void
imsgbuf_set_maxsize(struct imsgbuf *ibuf, size_t max)
{
	if (max > MAX_IMSGSIZE)
		max = MAX_IMSGSIZE;
	if (max < IMSG_HEADER_SIZE)
		max = IMSG_HEADER_SIZE;
	ibuf->maxsize = max;
}

/*
 * Full-size output buffers are kept for reuse, a few per process: a
 * stream queues a window of them and frees them together, and malloc
 * would give that memory back to the kernel and fault it in again on
 * every window (docs/perf.md).  A cache per thread: our processes have
 * one, but a unit test serves a channel's two ends from two threads,
 * which raced on one cache (UBSan saw a NULL block).
 */
#define OUT_BIG		(sizeof(struct imsg_out) + MAX_IMSGSIZE)
#define OUT_CACHE_MAX	32
static _Thread_local struct imsg_out	*out_cache[OUT_CACHE_MAX];
static _Thread_local size_t		 out_cached;

/*
 * Read blocks are kept the same way, enough for a relay's window of
 * them in flight (1 MiB).
 */
#define RBLOCK_CACHE_MAX	16
static _Thread_local struct imsg_rblock	*rblock_cache[RBLOCK_CACHE_MAX];
static _Thread_local size_t		 rblocks_cached;

/* The calling thread's kept buffers back to malloc, before it ends. */
void
imsg_cache_drain(void)
{
	while (out_cached > 0)
		free(out_cache[--out_cached]);
	while (rblocks_cached > 0)
		free(rblock_cache[--rblocks_cached]);
}

static struct imsg_rblock *
rblock_alloc(void)
{
	struct imsg_rblock	*rb;

	if (rblocks_cached > 0)
		rb = rblock_cache[--rblocks_cached];
	else if ((rb = malloc(sizeof(*rb))) == NULL)
		return NULL;
	rb->rb_refs = 1;
	return rb;
}

static void
rblock_unref(struct imsg_rblock *rb)
{
	if (rb == NULL || --rb->rb_refs > 0)
		return;
	if (rblocks_cached < RBLOCK_CACHE_MAX)
		rblock_cache[rblocks_cached++] = rb;
	else
		free(rb);
}

static struct imsg_out *
out_alloc(size_t len)
{
	struct imsg_out	*out;

	if (len <= MAX_IMSGSIZE / 4)
		out = malloc(sizeof(struct imsg_out) + len);
	else if (out_cached > 0)
		out = out_cache[--out_cached];
	else
		out = malloc(OUT_BIG);
	if (out == NULL)
		return NULL;
	out->io_data = out->io_buf;
	out->io_rblock = NULL;
	return out;
}

static void
out_release(struct imsg_out *out)
{
	explicit_bzero(out->io_data, out->io_len);	/* no secret lingers */
	if (out->io_rblock != NULL) {
		/* Only the header struct was allocated; the data is shared. */
		rblock_unref(out->io_rblock);
		free(out);
	} else if (out->io_len > MAX_IMSGSIZE / 4 &&
	    out_cached < OUT_CACHE_MAX)
		out_cache[out_cached++] = out;
	else
		free(out);
}

/* The output buffer around a payload that imsgbuf_get returned. */
static struct imsg_out *
out_of_payload(uint8_t *data)
{
	return (struct imsg_out *)(data - IMSG_HEADER_SIZE -
	    offsetof(struct imsg_out, io_buf));
}

static void
outq_append(struct imsgbuf *ibuf, struct imsg_out *out)
{
	TAILQ_INSERT_TAIL(&ibuf->outq, out, io_entry);
	ibuf->outq_bytes += out->io_len;
	ibuf->outq_count++;
}

static void
outq_remove(struct imsgbuf *ibuf, struct imsg_out *out)
{
	TAILQ_REMOVE(&ibuf->outq, out, io_entry);
	ibuf->outq_bytes -= out->io_len;
	ibuf->outq_count--;
	if (out->io_fd != -1)
		close(out->io_fd);
	out_release(out);
}

void
imsgbuf_clear(struct imsgbuf *ibuf)
{
	struct imsg_out	*out;

	while ((out = TAILQ_FIRST(&ibuf->outq)) != NULL)
		outq_remove(ibuf, out);
	close_fds(ibuf->rfds, ibuf->nrfds);
	memset(ibuf->rfds, -1, sizeof(ibuf->rfds));
	ibuf->nrfds = 0;
	if (ibuf->rbuf != NULL)
		explicit_bzero(ibuf->rbuf + ibuf->roff, ibuf->rlen);
	rblock_unref(ibuf->rblock);
	ibuf->rblock = NULL;
	ibuf->rbuf = NULL;
	ibuf->rlen = 0;
	ibuf->roff = 0;
}

/*
 * Take the fds of one recvmsg.  Any fd we cannot keep is closed at once
 * so a peer cannot make us hold descriptors.
 */
static int
take_fds(struct imsgbuf *ibuf, struct msghdr *msg)
{
	struct cmsghdr	*cmsg;
	int		*fds, bad = 0;
	size_t		 i, n;

	if (msg->msg_flags & MSG_CTRUNC)
		bad = 1;	/* some fd was dropped: the stream is unusable */
	for (cmsg = CMSG_FIRSTHDR(msg); cmsg != NULL;
	    cmsg = CMSG_NXTHDR(msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET ||
		    cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		fds = (int *)CMSG_DATA(cmsg);
		n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (bad || !ibuf->allow_fdpass ||
		    n > IMSG_MAX_FDS - ibuf->nrfds) {
			close_fds(fds, n);
			bad = 1;
			continue;
		}
		for (i = 0; i < n; i++)
			ibuf->rfds[ibuf->nrfds++] = fds[i];
	}
	if (bad) {
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

/*
 * Read what the socket has.  Returns the number of bytes read, 0 on EOF,
 * -1 on error with errno set (EAGAIN when nothing was there; EBADMSG when
 * an fd arrived on a channel that does not allow them, or was truncated).
 */
ssize_t
imsgbuf_read(struct imsgbuf *ibuf)
{
	struct msghdr	 msg;
	struct iovec	 iov;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int) * IMSG_MAX_FDS)];
	} cmsgbuf;
	struct imsg_rblock *rb;
	struct imsg_hdr	 hdr;
	ssize_t		 n;

	if (ibuf->rblock == NULL) {
		if ((ibuf->rblock = rblock_alloc()) == NULL)
			return -1;
		ibuf->rbuf = ibuf->rblock->rb_data;
		ibuf->roff = 0;
	}
	/*
	 * Bytes before roff were taken.  Alone in the block, move what is
	 * left (a partial message at most) to the front.  Otherwise
	 * messages taken in place still lie there: append while a whole
	 * message fits, then go on in a new block.
	 */
	if (ibuf->roff > 0 && ibuf->rblock->rb_refs == 1) {
		memmove(ibuf->rbuf, ibuf->rbuf + ibuf->roff, ibuf->rlen);
		explicit_bzero(ibuf->rbuf + ibuf->rlen, ibuf->roff);
		ibuf->roff = 0;
	} else if (ibuf->roff > 0 &&
	    IMSG_RBUF_SIZE - ibuf->roff - ibuf->rlen < MAX_IMSGSIZE) {
		if ((rb = rblock_alloc()) == NULL)
			return -1;
		memcpy(rb->rb_data, ibuf->rbuf + ibuf->roff, ibuf->rlen);
		explicit_bzero(ibuf->rbuf + ibuf->roff, ibuf->rlen);
		rblock_unref(ibuf->rblock);
		ibuf->rblock = rb;
		ibuf->rbuf = rb->rb_data;
		ibuf->roff = 0;
	}
	if (ibuf->roff + ibuf->rlen >= IMSG_RBUF_SIZE) {
		/*
		 * The buffer holds at least two messages of the largest size,
		 * so when it is full imsgbuf_get has one to give, unless the
		 * header in front is one it refuses.
		 */
		memcpy(&hdr, ibuf->rbuf + ibuf->roff, sizeof(hdr));
		errno = hdr.len < IMSG_HEADER_SIZE || hdr.len > ibuf->maxsize ?
		    ERANGE : EAGAIN;
		return -1;
	}
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = ibuf->rbuf + ibuf->roff + ibuf->rlen;
	iov.iov_len = IMSG_RBUF_SIZE - ibuf->roff - ibuf->rlen;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);

	do {
		n = recvmsg(ibuf->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return -1;
	/* Keep the bytes so the stream stays aligned even on failure. */
	ibuf->rlen += n;
	if (take_fds(ibuf, &msg) == -1)
		return -1;
	return n;
}

/*
 * Take the next complete message.  1: *imsg is filled and must be passed
 * to imsg_free; 0: no complete message yet; -1: the stream is bad
 * (errno ERANGE for a length over the cap or under the header size,
 * EBADMSG for an fd flag without an fd).  After -1 the channel is dead.
 */
int
imsgbuf_get(struct imsgbuf *ibuf, struct imsg *imsg)
{
	struct imsg_hdr	 hdr;
	struct imsg_out	*out;
	size_t		 len;
	uint8_t		*data = NULL;

	if (ibuf->rlen == 0 && ibuf->nrfds > 0) {
		/*
		 * An fd arrives with the first byte of its message, so with
		 * nothing buffered every queued fd is one no message claimed.
		 */
		close_fds(ibuf->rfds, ibuf->nrfds);
		memset(ibuf->rfds, -1, sizeof(ibuf->rfds));
		ibuf->nrfds = 0;
		errno = EBADMSG;
		return -1;
	}
	if (ibuf->rlen < IMSG_HEADER_SIZE)
		return 0;
	memcpy(&hdr, ibuf->rbuf + ibuf->roff, sizeof(hdr));
	/* A bad header stays in place: every later call fails the same. */
	if (hdr.len < IMSG_HEADER_SIZE || hdr.len > ibuf->maxsize) {
		errno = ERANGE;
		return -1;
	}
	if ((hdr.flags & ~IMSGF_HASFD) != 0 ||
	    ((hdr.flags & IMSGF_HASFD) && ibuf->nrfds == 0)) {
		errno = EBADMSG;
		return -1;
	}
	if (ibuf->rlen < hdr.len)
		return 0;

	len = hdr.len - IMSG_HEADER_SIZE;
	imsg->rblock = NULL;
	if (len > IMSG_INPLACE_MIN) {
		data = ibuf->rbuf + ibuf->roff + IMSG_HEADER_SIZE;
		imsg->rblock = ibuf->rblock;
		imsg->rblock->rb_refs++;
	} else if (len > 0) {
		if ((out = out_alloc(hdr.len)) == NULL)
			return -1;
		out->io_len = hdr.len;
		data = out->io_buf + IMSG_HEADER_SIZE;
		memcpy(data, ibuf->rbuf + ibuf->roff + IMSG_HEADER_SIZE, len);
		explicit_bzero(ibuf->rbuf + ibuf->roff + IMSG_HEADER_SIZE, len);
		hdr.flags |= IMSGF_OUTBUF;
	}
	imsg->hdr = hdr;
	imsg->data = data;
	imsg->fd = -1;
	if (hdr.flags & IMSGF_HASFD) {
		imsg->fd = ibuf->rfds[0];
		memmove(ibuf->rfds, ibuf->rfds + 1,
		    (ibuf->nrfds - 1) * sizeof(int));
		ibuf->rfds[--ibuf->nrfds] = -1;
	}
	/* imsgbuf_read rewinds, once nothing lies in the block. */
	ibuf->rlen -= hdr.len;
	ibuf->roff += hdr.len;
	return 1;
}

/*
 * A refused header stays in front (imsgbuf_get), so that a channel may
 * answer by a field of it: the control socket names a version first.
 */
int
imsgbuf_peek_hdr(const struct imsgbuf *ibuf, struct imsg_hdr *hdr)
{
	if (ibuf->rlen < IMSG_HEADER_SIZE)
		return -1;
	memcpy(hdr, ibuf->rbuf + ibuf->roff, sizeof(*hdr));
	return 0;
}

/*
 * Queue one message.  fd (or -1) belongs to the layer from the call on:
 * it is closed once sent, or at once when the call fails (-1 with errno
 * EPERM for an fd on a channel without imsgbuf_allow_fdpass, ERANGE for
 * a payload over IMSG_MAX_PAYLOAD, ENOMEM).
 */
int
imsg_compose(struct imsgbuf *ibuf, uint32_t type, uint32_t peerid,
    pid_t pid, int fd, const void *data, size_t len)
{
	struct imsg_out	*out;
	struct imsg_hdr	 hdr;
	int		 saved;

	/* The fd is ours from here on: every failure below closes it. */
	if (fd != -1 && !ibuf->allow_fdpass) {
		errno = EPERM;
		goto fail;
	}
	if (len > IMSG_MAX_PAYLOAD || (len > 0 && data == NULL)) {
		errno = ERANGE;
		goto fail;
	}
	if ((out = out_alloc(IMSG_HEADER_SIZE + len)) == NULL)
		goto fail;
	memset(&hdr, 0, sizeof(hdr));
	hdr.type = type;
	hdr.len = IMSG_HEADER_SIZE + len;
	hdr.flags = fd == -1 ? 0 : IMSGF_HASFD;
	hdr.peerid = peerid;
	hdr.pid = pid == 0 ? ibuf->pid : pid;
	memcpy(out->io_buf, &hdr, sizeof(hdr));
	if (len > 0)
		memcpy(out->io_buf + IMSG_HEADER_SIZE, data, len);
	out->io_fd = fd;
	out->io_len = IMSG_HEADER_SIZE + len;
	out->io_off = 0;
	outq_append(ibuf, out);
	return 0;
 fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	errno = saved;
	return -1;
}

/*
 * Queue a received message, unchanged (type, peerid, pid, payload, fd),
 * on another channel.  Its payload buffer moves instead of being copied;
 * the caller still calls imsg_free, which closes the fd if it stayed
 * (-1 with EPERM: an fd onto a channel without fd passing).
 */
int
imsg_forward(struct imsgbuf *ibuf, struct imsg *imsg)
{
	struct imsg_out	*out;
	struct imsg_hdr	 hdr;
	int		 fd;

	/* Refused before anything moves: the fd stays for imsg_free. */
	if (imsg->fd != -1 && !ibuf->allow_fdpass) {
		errno = EPERM;
		return -1;
	}
	if (imsg->rblock != NULL) {
		/* The header goes back in front of the payload, in place. */
		if ((out = malloc(sizeof(*out))) == NULL)
			return -1;
		out->io_data = imsg->data - IMSG_HEADER_SIZE;
		out->io_rblock = imsg->rblock;	/* the reference moves */
		imsg->rblock = NULL;
	} else if (!(imsg->hdr.flags & IMSGF_OUTBUF) || imsg->data == NULL) {
		/* imsg_compose owns the fd even when it fails: no double close. */
		fd = imsg_get_fd(imsg);
		return imsg_compose(ibuf, imsg->hdr.type, imsg->hdr.peerid,
		    imsg->hdr.pid, fd, imsg->data, imsg_get_len(imsg));
	} else
		out = out_of_payload(imsg->data);
	memset(&hdr, 0, sizeof(hdr));
	hdr.type = imsg->hdr.type;
	hdr.len = imsg->hdr.len;
	hdr.flags = imsg->fd == -1 ? 0 : IMSGF_HASFD;
	hdr.peerid = imsg->hdr.peerid;
	hdr.pid = imsg->hdr.pid;
	memcpy(out->io_data, &hdr, sizeof(hdr));
	out->io_fd = imsg->fd;
	out->io_len = hdr.len;
	out->io_off = 0;
	outq_append(ibuf, out);
	imsg->fd = -1;
	imsg->data = NULL;
	imsg->hdr.flags &= ~IMSGF_OUTBUF;
	return 0;
}

int
imsgbuf_write(struct imsgbuf *ibuf)
{
	struct iovec	 iov[IMSG_WRITE_IOV];
	struct msghdr	 msg;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cmsgbuf;
	struct cmsghdr	*cmsg;
	struct imsg_out	*out, *next;
	int		 niov = 0;
	size_t		 done;
	ssize_t		 n;

	if ((out = TAILQ_FIRST(&ibuf->outq)) == NULL)
		return 0;
	memset(&msg, 0, sizeof(msg));
	/*
	 * The kernel attaches an fd to the first byte of a sendmsg, so a
	 * message with an fd starts a write and the write ends before the
	 * next message with an fd.  A partly written message has sent its
	 * fd already (io_fd is -1 by then).
	 */
	if (out->io_fd != -1) {
		memset(&cmsgbuf, 0, sizeof(cmsgbuf));
		msg.msg_control = cmsgbuf.buf;
		msg.msg_controllen = sizeof(cmsgbuf.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &out->io_fd, sizeof(int));
	}
	for (; out != NULL && niov < IMSG_WRITE_IOV;
	    out = TAILQ_NEXT(out, io_entry)) {
		if (niov > 0 && out->io_fd != -1)
			break;
		iov[niov].iov_base = out->io_data + out->io_off;
		iov[niov].iov_len = out->io_len - out->io_off;
		niov++;
	}
	msg.msg_iov = iov;
	msg.msg_iovlen = niov;

	do {
		n = sendmsg(ibuf->fd, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;

	out = TAILQ_FIRST(&ibuf->outq);
	if (out->io_fd != -1) {
		/* The peer holds its own copy now. */
		close(out->io_fd);
		out->io_fd = -1;
	}
	done = n;
	for (; out != NULL && done > 0; out = next) {
		next = TAILQ_NEXT(out, io_entry);
		if (done < out->io_len - out->io_off) {
			out->io_off += done;
			break;
		}
		done -= out->io_len - out->io_off;
		outq_remove(ibuf, out);
	}
	return 0;
}

int
imsgbuf_flush(struct imsgbuf *ibuf)
{
	struct pollfd	 pfd;

	while (!TAILQ_EMPTY(&ibuf->outq)) {
		if (imsgbuf_write(ibuf) == -1)
			return -1;
		if (TAILQ_EMPTY(&ibuf->outq))
			break;
		pfd.fd = ibuf->fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
			return -1;
	}
	return 0;
}

size_t
imsgbuf_queuelen(const struct imsgbuf *ibuf)
{
	return ibuf->outq_count;
}

uint32_t
imsg_get_type(const struct imsg *imsg)
{
	return imsg->hdr.type;
}

uint32_t
imsg_get_peerid(const struct imsg *imsg)
{
	return imsg->hdr.peerid;
}

pid_t
imsg_get_pid(const struct imsg *imsg)
{
	return imsg->hdr.pid;
}

size_t
imsg_get_len(const struct imsg *imsg)
{
	return imsg->hdr.len - IMSG_HEADER_SIZE;
}

int
imsg_get_data(const struct imsg *imsg, void *buf, size_t len)
{
	if (imsg_get_len(imsg) != len) {
		errno = EBADMSG;
		return -1;
	}
	if (len > 0)
		memcpy(buf, imsg->data, len);
	return 0;
}

/*
 * The receiver's check before use: 0 when the type is type and the
 * payload is exactly len bytes, else -1 with errno EBADMSG.
 */
int
imsg_expect(const struct imsg *imsg, uint32_t type, size_t len)
{
	if (imsg->hdr.type != type || imsg_get_len(imsg) != len) {
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

int
imsg_get_fd(struct imsg *imsg)
{
	int	 fd = imsg->fd;

	imsg->fd = -1;
	return fd;
}

void
imsg_free(struct imsg *imsg)
{
	if (imsg->fd != -1)
		close(imsg->fd);
	imsg->fd = -1;
	if (imsg->data != NULL && !(imsg->hdr.flags & IMSGF_OUTBUF))
		explicit_bzero(imsg->data, imsg_get_len(imsg));
	if (imsg->rblock != NULL)
		rblock_unref(imsg->rblock);
	else if (imsg->data != NULL && (imsg->hdr.flags & IMSGF_OUTBUF))
		out_release(out_of_payload(imsg->data));
	else
		free(imsg->data);
	imsg->rblock = NULL;
	imsg->data = NULL;
	imsg->hdr.flags &= ~IMSGF_OUTBUF;
}
