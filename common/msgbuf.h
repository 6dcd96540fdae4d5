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

#ifndef SPACED_MSGBUF_H
#define SPACED_MSGBUF_H

/*
 * Variable-length payloads (names, labels, argv, environment), read and
 * written field by field (STYLE.md 7; smtpd's m_get_* and m_end).
 *
 * Wire format, host byte order like the imsg header (both ends are on
 * one host):
 *	u32, u64	4 and 8 bytes
 *	bytes		exactly the length both sides agree on, no prefix
 *	str		u32 length, then that many bytes: no NUL, no terminator
 *	strv		u32 count, then count strs
 *
 * Errors are sticky: after the first failure every later call fails
 * too, with the same errno, so a caller may check each call or only
 * the last one:
 *
 *	msg_reader_imsg(&r, &imsg);
 *	msg_read_u32(&r, &id);
 *	msg_read_str(&r, name, sizeof(name));
 *	if (msg_read_end(&r) == -1)
 *		fatalx("%s: bad message", __func__);
 *
 * A failed read leaves its output zeroed (a number 0, a string "",
 * a vector empty), never half-filled.  errno: EBADMSG for truncated
 * input, an embedded NUL, a bad key=value or bytes left over; ERANGE
 * for a string or list over the caller's bound; for writers ERANGE
 * when the payload would pass IMSG_MAX_PAYLOAD and EINVAL for a NUL in
 * a string.  Nothing here allocates: strings are copied into the
 * caller's buffers or pointed to in the payload.
 */

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"

struct msg_reader {
	const uint8_t	*mr_buf;
	size_t		 mr_len;
	size_t		 mr_off;	/* bytes consumed */
	int		 mr_err;	/* errno of the first failure, or 0 */
};

void	 msg_reader_init(struct msg_reader *, const void *, size_t);
/* Over a received message's payload; valid until imsg_free. */
void	 msg_reader_imsg(struct msg_reader *, const struct imsg *);
int	 msg_read_u32(struct msg_reader *, uint32_t *);
int	 msg_read_u64(struct msg_reader *, uint64_t *);
/* Exactly len bytes. */
int	 msg_read_bytes(struct msg_reader *, void *, size_t len);
/*
 * A str copied into buf and NUL-terminated: its length must be below
 * bufsz (ERANGE otherwise) and it must hold no NUL.
 */
int	 msg_read_str(struct msg_reader *, char *buf, size_t bufsz);
/*
 * A str in place: *p points into the payload and is NOT NUL-terminated;
 * *lenp is its length, at most max.
 */
int	 msg_read_strn(struct msg_reader *, const char **p, size_t *lenp,
	    size_t max);
/*
 * A strv for argv, an environment or labels.  The strings are copied,
 * each NUL-terminated, one after the other into buf (bufsz bytes in all,
 * terminators included) and v[0..count-1] point at them, v[count] is
 * NULL, as execve(2) wants: so count must be below vsz.  With
 * MSG_STRV_KV each string must be key=value with a non-empty key.
 * *countp (may be NULL) gets count.
 */
#define MSG_STRV_KV	0x01
int	 msg_read_strv(struct msg_reader *, char *buf, size_t bufsz,
	    char **v, size_t vsz, size_t *countp, int flags);
/* The "at end" check: 0 only when nothing failed and every byte was read. */
int	 msg_read_end(struct msg_reader *);

struct msg_writer {
	size_t		 mw_len;
	int		 mw_err;	/* errno of the first failure, or 0 */
	uint8_t		 mw_buf[IMSG_MAX_PAYLOAD];
};

void	 msg_writer_init(struct msg_writer *);
int	 msg_write_u32(struct msg_writer *, uint32_t);
int	 msg_write_u64(struct msg_writer *, uint64_t);
int	 msg_write_bytes(struct msg_writer *, const void *, size_t);
int	 msg_write_str(struct msg_writer *, const char *);
/* len bytes of s, which must hold no NUL (the reader would refuse it). */
int	 msg_write_strn(struct msg_writer *, const char *s, size_t len);
/* n strings of v (a NULL-terminated argv needs n = its count). */
int	 msg_write_strv(struct msg_writer *, const char *const *v, size_t n);
/*
 * The payload once every field is written: 0 with *data and *lenp set,
 * or -1 with the sticky errno.
 */
int	 msg_writer_done(const struct msg_writer *, const void **data,
	    size_t *lenp);
/*
 * imsg_compose_event of the writer's payload.  fd follows imsg_compose's
 * rule: it is closed on every failure, a writer in error included.
 */
int	 msg_compose_event(struct imsgev *, uint32_t type, uint32_t peerid,
	    int fd, const struct msg_writer *);

#endif /* SPACED_MSGBUF_H */
