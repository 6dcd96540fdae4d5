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
 * Field readers and writers for variable-length payloads; see msgbuf.h
 * for the wire format.  Every check compares a length against what is
 * left (never off + len against the total) so that no sum can wrap.
 */

#include <sys/types.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "msgbuf.h"

void
msg_reader_init(struct msg_reader *r, const void *buf, size_t len)
{
	r->mr_buf = buf;
	r->mr_len = buf == NULL ? 0 : len;
	r->mr_off = 0;
	r->mr_err = 0;
}

void
msg_reader_imsg(struct msg_reader *r, const struct imsg *imsg)
{
	msg_reader_init(r, imsg->data, imsg_get_len(imsg));
}

/* Records the first failure; later ones keep reporting it. */
static int
reader_fail(struct msg_reader *r, int err)
{
	if (r->mr_err == 0)
		r->mr_err = err;
	errno = r->mr_err;
	return -1;
}

static size_t
reader_left(const struct msg_reader *r)
{
	return r->mr_len - r->mr_off;
}

/* The next len bytes, consumed; NULL (and the reader failed) if short. */
static const uint8_t *
reader_take(struct msg_reader *r, size_t len)
{
	const uint8_t	*p;

	if (r->mr_err != 0) {
		reader_fail(r, r->mr_err);
		return NULL;
	}
	if (len > reader_left(r)) {
		reader_fail(r, EBADMSG);
		return NULL;
	}
	p = r->mr_buf + r->mr_off;
	r->mr_off += len;
	return p;
}

int
msg_read_u32(struct msg_reader *r, uint32_t *v)
{
	const uint8_t	*p;

	*v = 0;
	if ((p = reader_take(r, sizeof(*v))) == NULL)
		return -1;
	memcpy(v, p, sizeof(*v));
	return 0;
}

int
msg_read_u64(struct msg_reader *r, uint64_t *v)
{
	const uint8_t	*p;

	*v = 0;
	if ((p = reader_take(r, sizeof(*v))) == NULL)
		return -1;
	memcpy(v, p, sizeof(*v));
	return 0;
}

int
msg_read_bytes(struct msg_reader *r, void *buf, size_t len)
{
	const uint8_t	*p;

	if (len > 0)
		memset(buf, 0, len);
	if ((p = reader_take(r, len)) == NULL)
		return -1;
	if (len > 0)
		memcpy(buf, p, len);
	return 0;
}

int
msg_read_strn(struct msg_reader *r, const char **sp, size_t *lenp,
    size_t max)
{
	const uint8_t	*p;
	uint32_t	 len;

	*sp = "";
	*lenp = 0;
	if (msg_read_u32(r, &len) == -1)
		return -1;
	if (len > max)
		return reader_fail(r, ERANGE);
	if ((p = reader_take(r, len)) == NULL)
		return -1;
	/* A NUL inside would cut the string short for C and not for us. */
	if (memchr(p, '\0', len) != NULL)
		return reader_fail(r, EBADMSG);
	*sp = (const char *)p;
	*lenp = len;
	return 0;
}

int
msg_read_str(struct msg_reader *r, char *buf, size_t bufsz)
{
	const char	*s;
	size_t		 len;

	if (bufsz == 0)
		return reader_fail(r, ERANGE);
	buf[0] = '\0';
	if (msg_read_strn(r, &s, &len, bufsz - 1) == -1)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

int
msg_read_strv(struct msg_reader *r, char *buf, size_t bufsz, char **v,
    size_t vsz, size_t *countp, int flags)
{
	const char	*s, *eq;
	uint32_t	 count, i;
	size_t		 len, used = 0;

	if (countp != NULL)
		*countp = 0;
	if (vsz == 0)
		return reader_fail(r, ERANGE);
	v[0] = NULL;
	if (bufsz > 0)
		buf[0] = '\0';
	if (msg_read_u32(r, &count) == -1)
		return -1;
	/* v[count] holds the NULL. */
	if (count >= vsz)
		return reader_fail(r, ERANGE);
	for (i = 0; i < count; i++) {
		/* Room for this one and its NUL in what is left of buf. */
		if (bufsz - used == 0) {
			reader_fail(r, ERANGE);
			goto bad;
		}
		if (msg_read_strn(r, &s, &len, bufsz - used - 1) == -1)
			goto bad;
		if (flags & MSG_STRV_KV) {
			eq = memchr(s, '=', len);
			if (eq == NULL || eq == s) {
				reader_fail(r, EBADMSG);
				goto bad;
			}
		}
		memcpy(buf + used, s, len);
		buf[used + len] = '\0';
		v[i] = buf + used;
		used += len + 1;
	}
	v[count] = NULL;
	if (countp != NULL)
		*countp = count;
	return 0;
 bad:
	/* Never half a vector: the caller sees it empty. */
	v[0] = NULL;
	if (bufsz > 0)
		buf[0] = '\0';
	return -1;
}

int
msg_read_end(struct msg_reader *r)
{
	if (r->mr_err != 0)
		return reader_fail(r, r->mr_err);
	if (reader_left(r) != 0)
		return reader_fail(r, EBADMSG);
	return 0;
}

void
msg_writer_init(struct msg_writer *w)
{
	w->mw_len = 0;
	w->mw_err = 0;
}

static int
writer_fail(struct msg_writer *w, int err)
{
	if (w->mw_err == 0)
		w->mw_err = err;
	errno = w->mw_err;
	return -1;
}

int
msg_write_bytes(struct msg_writer *w, const void *data, size_t len)
{
	if (w->mw_err != 0)
		return writer_fail(w, w->mw_err);
	if (len > sizeof(w->mw_buf) - w->mw_len)
		return writer_fail(w, ERANGE);
	if (len > 0)
		memcpy(w->mw_buf + w->mw_len, data, len);
	w->mw_len += len;
	return 0;
}

int
msg_write_u32(struct msg_writer *w, uint32_t v)
{
	return msg_write_bytes(w, &v, sizeof(v));
}

int
msg_write_u64(struct msg_writer *w, uint64_t v)
{
	return msg_write_bytes(w, &v, sizeof(v));
}

int
msg_write_strn(struct msg_writer *w, const char *s, size_t len)
{
	if (w->mw_err != 0)
		return writer_fail(w, w->mw_err);
	if (len > 0 && memchr(s, '\0', len) != NULL)
		return writer_fail(w, EINVAL);
	/* All or nothing, so a failed write leaves no half field. */
	if (len > UINT32_MAX ||
	    sizeof(uint32_t) + len > sizeof(w->mw_buf) - w->mw_len)
		return writer_fail(w, ERANGE);
	msg_write_u32(w, (uint32_t)len);
	return msg_write_bytes(w, s, len);
}

int
msg_write_str(struct msg_writer *w, const char *s)
{
	return msg_write_strn(w, s, strlen(s));
}

int
msg_write_strv(struct msg_writer *w, const char *const *v, size_t n)
{
	size_t	 i;

	if (n > UINT32_MAX)
		return writer_fail(w, ERANGE);
	msg_write_u32(w, (uint32_t)n);
	for (i = 0; i < n; i++)
		msg_write_str(w, v[i]);
	return w->mw_err != 0 ? writer_fail(w, w->mw_err) : 0;
}

int
msg_writer_done(const struct msg_writer *w, const void **data, size_t *lenp)
{
	*data = NULL;
	*lenp = 0;
	if (w->mw_err != 0) {
		errno = w->mw_err;
		return -1;
	}
	*data = w->mw_buf;
	*lenp = w->mw_len;
	return 0;
}

int
msg_compose_event(struct imsgev *iev, uint32_t type, uint32_t peerid,
    int fd, const struct msg_writer *w)
{
	const void	*data;
	size_t		 len;
	int		 saved;

	if (msg_writer_done(w, &data, &len) == -1) {
		saved = errno;
		if (fd != -1)
			close(fd);
		errno = saved;
		return -1;
	}
	return imsg_compose_event(iev, type, peerid, 0, fd, data, len);
}
