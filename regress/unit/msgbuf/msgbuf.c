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
 * The field readers and writers of common/msgbuf.c: round trips, input
 * cut at every byte, bounds at their edge (one under passes, one over
 * fails), embedded NULs, trailing bytes and sticky errors.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "msgbuf.h"

/* One message of every field kind, as a spaced-docker create might be. */
struct sample {
	uint32_t	 id;
	uint64_t	 size;
	char		 name[32];
	const char	*tag;
	size_t		 taglen;
	char		 argbuf[128];
	char		*argv[8];
	size_t		 argc;
	char		 envbuf[128];
	char		*envp[8];
	size_t		 envc;
	uint8_t		 raw[4];
};

static const char *const s_argv[] = { "sh", "-c", "echo hi", "" };
static const char *const s_envp[] = { "A=1", "PATH=/bin", "EMPTY=" };

static void
write_sample(struct msg_writer *w)
{
	msg_writer_init(w);
	msg_write_u32(w, 7);
	msg_write_u64(w, 1ULL << 40);
	msg_write_str(w, "space-one");
	msg_write_strn(w, "tagXX", 3);
	msg_write_strv(w, s_argv, 4);
	msg_write_strv(w, s_envp, 3);
	msg_write_bytes(w, "\1\2\3\4", 4);
}

/* Reads every field without checking one: the sticky error tells. */
static int
read_sample(struct msg_reader *r, struct sample *s)
{
	msg_read_u32(r, &s->id);
	msg_read_u64(r, &s->size);
	msg_read_str(r, s->name, sizeof(s->name));
	msg_read_strn(r, &s->tag, &s->taglen, 16);
	msg_read_strv(r, s->argbuf, sizeof(s->argbuf), s->argv, 8, &s->argc,
	    0);
	msg_read_strv(r, s->envbuf, sizeof(s->envbuf), s->envp, 8, &s->envc,
	    MSG_STRV_KV);
	msg_read_bytes(r, s->raw, sizeof(s->raw));
	return msg_read_end(r);
}

static void
sample_bytes(const uint8_t **p, size_t *len)
{
	static struct msg_writer w;
	const void	*d;

	write_sample(&w);
	cr_assert_eq(msg_writer_done(&w, &d, len), 0);
	*p = d;
}

Test(msgbuf, round_trip)
{
	struct msg_reader r;
	struct sample	 s;
	const uint8_t	*p;
	size_t		 len, i;

	sample_bytes(&p, &len);
	msg_reader_init(&r, p, len);
	cr_assert_eq(read_sample(&r, &s), 0);
	cr_assert_eq(s.id, 7);
	cr_assert_eq(s.size, 1ULL << 40);
	cr_assert_str_eq(s.name, "space-one");
	cr_assert_eq(s.taglen, 3);
	cr_assert_eq(memcmp(s.tag, "tag", 3), 0);
	cr_assert_eq(s.argc, 4);
	for (i = 0; i < 4; i++)
		cr_assert_str_eq(s.argv[i], s_argv[i]);
	cr_assert_null(s.argv[4]);
	cr_assert_eq(s.envc, 3);
	for (i = 0; i < 3; i++)
		cr_assert_str_eq(s.envp[i], s_envp[i]);
	cr_assert_null(s.envp[3]);
	cr_assert_eq(memcmp(s.raw, "\1\2\3\4", 4), 0);
}

/* Every proper prefix of a good message fails, and only at the end check. */
Test(msgbuf, truncated_at_every_offset)
{
	struct msg_reader r;
	struct sample	 s;
	const uint8_t	*p;
	uint32_t	 x = 1;
	size_t		 len, cut;

	sample_bytes(&p, &len);
	for (cut = 0; cut < len; cut++) {
		msg_reader_init(&r, p, cut);
		cr_assert_eq(read_sample(&r, &s), -1, "cut at %zu passed", cut);
		cr_assert_eq(errno, EBADMSG, "cut at %zu", cut);
		/* The last field always fails, and is left zeroed. */
		cr_assert_eq(s.raw[0], 0, "cut at %zu", cut);
		/* Sticky. */
		cr_assert_eq(msg_read_u32(&r, &x), -1);
		cr_assert_eq(x, 0);
	}
	msg_reader_init(&r, p, len);
	cr_assert_eq(read_sample(&r, &s), 0);
}

/* The "at end" check: one byte more than the schema reads is refused. */
Test(msgbuf, trailing_garbage)
{
	struct msg_reader r;
	struct sample	 s;
	uint8_t		 buf[IMSG_MAX_PAYLOAD];
	const uint8_t	*p;
	size_t		 len;

	sample_bytes(&p, &len);
	memcpy(buf, p, len);
	buf[len] = 0;
	msg_reader_init(&r, buf, len + 1);
	cr_assert_eq(read_sample(&r, &s), -1);
	cr_assert_eq(errno, EBADMSG);
	/* Every field itself was good. */
	cr_assert_str_eq(s.name, "space-one");
	cr_assert_eq(s.raw[3], 4);
}

Test(msgbuf, empty_payload)
{
	struct msg_reader r;
	uint32_t	 x;

	msg_reader_init(&r, NULL, 0);
	cr_assert_eq(msg_read_end(&r), 0);
	msg_reader_init(&r, NULL, 0);
	cr_assert_eq(msg_read_u32(&r, &x), -1);
	cr_assert_eq(errno, EBADMSG);
}

static void
one_str(struct msg_writer *w, const char *s, size_t len)
{
	msg_writer_init(w);
	cr_assert_eq(msg_write_strn(w, s, len), 0);
}

Test(msgbuf, overlong_string)
{
	struct msg_writer w;
	struct msg_reader r;
	char		 buf[10];
	const char	*sp;
	size_t		 sl;

	/* Nine bytes and the NUL fill buf: passes. */
	one_str(&w, "123456789", 9);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_str(&r, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "123456789");
	cr_assert_eq(msg_read_end(&r), 0);
	/* Ten do not. */
	one_str(&w, "1234567890", 10);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(msg_read_str(&r, buf, sizeof(buf)), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(msg_read_end(&r), -1);
	cr_assert_eq(errno, ERANGE);
	/* In place: max is the length itself. */
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strn(&r, &sp, &sl, 10), 0);
	cr_assert_eq(sl, 10);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strn(&r, &sp, &sl, 9), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(sl, 0);
	/* A length prefix far past the payload is truncation, not a read. */
	msg_writer_init(&w);
	msg_write_u32(&w, UINT32_MAX);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strn(&r, &sp, &sl, SIZE_MAX), -1);
	cr_assert_eq(errno, EBADMSG);
}

Test(msgbuf, embedded_nul)
{
	struct msg_writer w;
	struct msg_reader r;
	char		 buf[16];
	char		*v[4], vb[16];

	/* The writer will not produce one... */
	msg_writer_init(&w);
	cr_assert_eq(msg_write_strn(&w, "a\0b", 3), -1);
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(w.mw_len, 0);
	/* ...and the reader refuses one built by hand. */
	msg_writer_init(&w);
	msg_write_u32(&w, 3);
	msg_write_bytes(&w, "a\0b", 3);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_str(&r, buf, sizeof(buf)), -1);
	cr_assert_eq(errno, EBADMSG);
	/* Inside a list too. */
	msg_writer_init(&w);
	msg_write_u32(&w, 1);
	msg_write_u32(&w, 3);
	msg_write_bytes(&w, "a\0b", 3);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, vb, sizeof(vb), v, 4, NULL, 0), -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_null(v[0]);
}

static void
strv_of(struct msg_writer *w, const char *const *v, size_t n)
{
	msg_writer_init(w);
	cr_assert_eq(msg_write_strv(w, v, n), 0);
}

Test(msgbuf, strv_count_over_max)
{
	static const char *const four[] = { "a", "b", "c", "d" };
	struct msg_writer w;
	struct msg_reader r;
	char		*v[5], buf[64];
	size_t		 n = 99;

	strv_of(&w, four, 4);
	/* Four entries and the NULL need five slots. */
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 5, &n, 0), 0);
	cr_assert_eq(n, 4);
	cr_assert_null(v[4]);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 4, &n, 0), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(n, 0);
	cr_assert_null(v[0]);
	/* A huge count over a short payload stops at the count check. */
	msg_writer_init(&w);
	msg_write_u32(&w, UINT32_MAX);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 5, &n, 0), -1);
	cr_assert_eq(errno, ERANGE);
	/* A count under the cap but past the payload is truncation. */
	msg_writer_init(&w);
	msg_write_u32(&w, 3);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 5, &n, 0), -1);
	cr_assert_eq(errno, EBADMSG);
}

Test(msgbuf, strv_total_size)
{
	static const char *const two[] = { "abc", "de" };
	struct msg_writer w;
	struct msg_reader r;
	char		*v[4], buf[8];

	strv_of(&w, two, 2);
	/* "abc\0de\0" is seven bytes. */
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, 7, v, 4, NULL, 0), 0);
	cr_assert_str_eq(v[1], "de");
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, 6, v, 4, NULL, 0), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_null(v[0]);
	cr_assert_str_eq(buf, "");
	/* The first string alone over the buffer. */
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, 3, v, 4, NULL, 0), -1);
	cr_assert_eq(errno, ERANGE);
	/* Empty strings need their NUL too, and a zero-size buffer none. */
	{
		static const char *const e[] = { "", "" };

		strv_of(&w, e, 2);
		msg_reader_init(&r, w.mw_buf, w.mw_len);
		cr_assert_eq(msg_read_strv(&r, buf, 2, v, 4, NULL, 0), 0);
		msg_reader_init(&r, w.mw_buf, w.mw_len);
		cr_assert_eq(msg_read_strv(&r, buf, 1, v, 4, NULL, 0), -1);
		strv_of(&w, e, 0);
		msg_reader_init(&r, w.mw_buf, w.mw_len);
		cr_assert_eq(msg_read_strv(&r, buf, 0, v, 4, NULL, 0), 0);
		cr_assert_null(v[0]);
	}
}

Test(msgbuf, strv_key_value)
{
	static const char *const good[] = { "k=v", "k=", "a==b" };
	static const char *const noeq[] = { "k=v", "novalue" };
	static const char *const nokey[] = { "=v" };
	struct msg_writer w;
	struct msg_reader r;
	char		*v[4], buf[64];

	strv_of(&w, good, 3);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 4, NULL,
	    MSG_STRV_KV), 0);
	strv_of(&w, noeq, 2);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 4, NULL,
	    MSG_STRV_KV), -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_null(v[0]);
	/* The same list is fine as argv. */
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 4, NULL, 0), 0);
	strv_of(&w, nokey, 1);
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_strv(&r, buf, sizeof(buf), v, 4, NULL,
	    MSG_STRV_KV), -1);
}

/* After one failure, reads that would have passed fail with its errno. */
Test(msgbuf, reader_errors_are_sticky)
{
	struct msg_writer w;
	struct msg_reader r;
	char		 small[2];
	uint32_t	 x = 1;
	uint64_t	 y = 1;
	char		 buf[32];

	msg_writer_init(&w);
	msg_write_str(&w, "long");
	msg_write_u32(&w, 5);
	msg_write_u64(&w, 6);
	msg_write_str(&w, "ok");
	msg_reader_init(&r, w.mw_buf, w.mw_len);
	cr_assert_eq(msg_read_str(&r, small, sizeof(small)), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(msg_read_u32(&r, &x), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(msg_read_u64(&r, &y), -1);
	memset(buf, 'x', sizeof(buf));
	cr_assert_eq(msg_read_str(&r, buf, sizeof(buf)), -1);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(msg_read_end(&r), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(x, 0);
	cr_assert_eq(y, 0);
}

Test(msgbuf, writer_overflow_is_sticky)
{
	static uint8_t	 big[IMSG_MAX_PAYLOAD];
	struct msg_writer w;
	const void	*d;
	size_t		 len;

	/* Exactly full is fine. */
	msg_writer_init(&w);
	cr_assert_eq(msg_write_bytes(&w, big, sizeof(big) - 4), 0);
	cr_assert_eq(msg_write_u32(&w, 1), 0);
	cr_assert_eq(msg_writer_done(&w, &d, &len), 0);
	cr_assert_eq(len, IMSG_MAX_PAYLOAD);
	/* One byte more is not, and the writer stays failed. */
	cr_assert_eq(msg_write_bytes(&w, "x", 1), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(msg_write_u32(&w, 0), -1);
	cr_assert_eq(msg_writer_done(&w, &d, &len), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_null(d);
	cr_assert_eq(len, 0);
	/* Sticky: after a write that did not fit, a small one fails too. */
	msg_writer_init(&w);
	cr_assert_eq(msg_write_bytes(&w, big, sizeof(big) - 2), 0);
	cr_assert_eq(msg_write_u32(&w, 1), -1);
	cr_assert_eq(msg_write_bytes(&w, "x", 1), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(w.mw_len, sizeof(big) - 2);
	/* A string that does not fit leaves no half field behind. */
	msg_writer_init(&w);
	msg_write_bytes(&w, big, sizeof(big) - 6);
	cr_assert_eq(msg_write_str(&w, "abc"), -1);
	cr_assert_eq(w.mw_len, sizeof(big) - 6);
	/* Nor does a strv whose strings overflow. */
	{
		static const char *const v[] = { "a", "bbbbbbbb" };

		msg_writer_init(&w);
		msg_write_bytes(&w, big, sizeof(big) - 14);
		cr_assert_eq(msg_write_strv(&w, v, 2), -1);
		cr_assert_eq(msg_writer_done(&w, &d, &len), -1);
	}
}

static int
count_fds(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	cr_assert_not_null(d = opendir("/proc/self/fd"));
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

static void
noop(int fd, short ev, void *arg)
{
}

/* Through a socketpair, and a writer in error closes the fd it was given. */
Test(msgbuf, compose_event)
{
	static uint8_t	 big[IMSG_MAX_PAYLOAD];
	struct event_base *base;
	struct imsgev	 iev;
	struct imsgbuf	 rd;
	struct msg_writer w;
	struct msg_reader r;
	struct sample	 s;
	struct imsg	 imsg;
	struct pollfd	 pfd;
	int		 sv[2], before, fd;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv),
	    0);
	cr_assert_not_null(base = event_base_new());
	imsgev_init(&iev, base, sv[0], noop, NULL);
	imsgbuf_allow_fdpass(&iev.ibuf);
	imsgbuf_init(&rd, sv[1]);

	before = count_fds();
	cr_assert_neq(fd = open("/dev/null", O_RDONLY | O_CLOEXEC), -1);
	msg_writer_init(&w);
	msg_write_bytes(&w, big, sizeof(big));
	msg_write_u32(&w, 1);
	cr_assert_eq(msg_compose_event(&iev, 0x7fff0003, 0, fd, &w), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(count_fds(), before);
	cr_assert_eq(imsgbuf_queuelen(&iev.ibuf), 0);

	write_sample(&w);
	cr_assert_eq(msg_compose_event(&iev, 0x7fff0003, 9, -1, &w), 0);
	cr_assert_eq(imsgbuf_flush(&iev.ibuf), 0);
	pfd.fd = sv[1];
	pfd.events = POLLIN;
	cr_assert_eq(poll(&pfd, 1, 5000), 1);
	cr_assert_gt(imsgbuf_read(&rd), 0);
	cr_assert_eq(imsgbuf_get(&rd, &imsg), 1);
	cr_assert_eq(imsg_get_peerid(&imsg), 9);
	msg_reader_imsg(&r, &imsg);
	cr_assert_eq(read_sample(&r, &s), 0);
	cr_assert_str_eq(s.name, "space-one");
	imsg_free(&imsg);

	imsgev_clear(&iev);
	imsgbuf_clear(&rd);
	event_base_free(base);
	close(sv[0]);
	close(sv[1]);
}
