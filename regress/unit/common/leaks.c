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
 * fd ownership on failure: a passed fd belongs to the layer from the
 * call on, so every failing compose or forward closes it exactly once,
 * and a channel without fd passing refuses to send one.  Counted from
 * /proc/self/fd before and after.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"

/*
 * malloc failure on demand: the imsg suite is linked with
 * -Wl,--wrap=malloc (common/module.mk), so the layer's malloc calls
 * come here.
 */
void	*__real_malloc(size_t);
void	*__wrap_malloc(size_t);
static int	 malloc_fail;

void *
__wrap_malloc(size_t n)
{
	if (malloc_fail) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_malloc(n);
}

TestSuite(leaks, .init = pair_setup, .fini = pair_teardown);

static int
devnull(void)
{
	int	 fd;

	cr_assert_neq(fd = open("/dev/null", O_RDONLY | O_CLOEXEC), -1);
	return fd;
}

Test(leaks, compose_too_large_closes_fd)
{
	static uint8_t	 buf[IMSG_MAX_PAYLOAD + 1];
	int		 before, fd;

	imsgbuf_allow_fdpass(&pair_wr);
	before = count_proc_fds();
	fd = devnull();
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, fd, buf,
	    sizeof(buf)), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(count_proc_fds(), before);
	cr_assert_eq(imsgbuf_queuelen(&pair_wr), 0);
}

Test(leaks, compose_null_data_closes_fd)
{
	int	 before, fd;

	imsgbuf_allow_fdpass(&pair_wr);
	before = count_proc_fds();
	fd = devnull();
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, fd, NULL, 4), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(count_proc_fds(), before);
}

Test(leaks, compose_enomem_closes_fd)
{
	int	 before, fd, r, saved;

	imsgbuf_allow_fdpass(&pair_wr);
	before = count_proc_fds();
	fd = devnull();
	malloc_fail = 1;
	r = imsg_compose(&pair_wr, TEST_TYPE, 0, 0, fd, "x", 1);
	saved = errno;
	malloc_fail = 0;
	cr_assert_eq(r, -1);
	cr_assert_eq(saved, ENOMEM);
	cr_assert_eq(count_proc_fds(), before);
	cr_assert_eq(imsgbuf_queuelen(&pair_wr), 0);
}

/* Sending: a channel that was not allowed fds refuses one. */
Test(leaks, compose_fd_without_fdpass_refused)
{
	int	 before, fd;

	before = count_proc_fds();
	fd = devnull();
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, fd, "x", 1), -1);
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(count_proc_fds(), before);
	cr_assert_eq(imsgbuf_queuelen(&pair_wr), 0);
	/* Without an fd the same message goes. */
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, -1, "x", 1), 0);
}

static void
noop_handler(int fd, short ev, void *arg)
{
}

Test(leaks, compose_event_failures_close_fd)
{
	static uint8_t	 buf[IMSG_MAX_PAYLOAD + 1];
	struct event_base *base;
	struct imsgev	 iev;
	int		 before, fd;

	cr_assert_not_null(base = event_base_new());
	imsgev_init(&iev, base, pair_sv[0], noop_handler, NULL);
	before = count_proc_fds();
	fd = devnull();
	cr_assert_eq(imsg_compose_event(&iev, TEST_TYPE, 0, 0, fd, NULL, 0),
	    -1);
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(count_proc_fds(), before);

	imsgbuf_allow_fdpass(&iev.ibuf);
	fd = devnull();
	cr_assert_eq(imsg_compose_event(&iev, TEST_TYPE, 0, 0, fd, buf,
	    sizeof(buf)), -1);
	cr_assert_eq(errno, ERANGE);
	cr_assert_eq(count_proc_fds(), before);
	cr_assert_eq(imsgbuf_queuelen(&iev.ibuf), 0);
	imsgev_clear(&iev);
	event_base_free(base);
}

/* A message with an fd, as a relay receives it on pair_rd. */
static void
receive_with_fd(struct imsg *imsg, size_t len)
{
	static uint8_t	 buf[IMSG_MAX_PAYLOAD];

	imsgbuf_allow_fdpass(&pair_wr);
	imsgbuf_allow_fdpass(&pair_rd);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 1, 0, devnull(), buf,
	    len), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, imsg), 1);
	cr_assert_neq(imsg->fd, -1);
}

/*
 * Forwarding an fd onto a channel without fd passing fails and leaves
 * the fd to imsg_free.  Each payload size takes another path through
 * imsg_forward: none (a compose), small (copied), large (in place).
 */
static void
forward_refused(size_t len)
{
	struct imsgbuf	 out;
	struct imsg	 imsg;
	int		 sv2[2], before;

	test_socketpair(sv2);
	imsgbuf_init(&out, sv2[0]);
	before = count_proc_fds();
	receive_with_fd(&imsg, len);
	cr_assert_eq(imsg_forward(&out, &imsg), -1);
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(imsgbuf_queuelen(&out), 0);
	imsg_free(&imsg);
	cr_assert_eq(count_proc_fds(), before);
	imsgbuf_clear(&out);
	close(sv2[0]);
	close(sv2[1]);
}

Test(leaks, forward_fd_without_fdpass_refused_empty)
{
	forward_refused(0);
}

Test(leaks, forward_fd_without_fdpass_refused_small)
{
	forward_refused(100);
}

Test(leaks, forward_fd_without_fdpass_refused_large)
{
	forward_refused(IMSG_MAX_PAYLOAD);
}

/*
 * A forward that fails inside its compose closes the fd once: imsg_free
 * afterwards must not close it again, by then maybe another file's
 * number (the sentinel opened in between).
 */
Test(leaks, forward_enomem_closes_fd_once)
{
	struct imsgbuf	 out;
	struct imsg	 imsg;
	int		 sv2[2], before, sentinel, r;

	test_socketpair(sv2);
	imsgbuf_init(&out, sv2[0]);
	imsgbuf_allow_fdpass(&out);
	before = count_proc_fds();
	receive_with_fd(&imsg, 0);
	malloc_fail = 1;
	r = imsg_forward(&out, &imsg);
	malloc_fail = 0;
	cr_assert_eq(r, -1);
	sentinel = devnull();
	imsg_free(&imsg);
	cr_assert(fd_is_open(sentinel), "imsg_free closed a reused fd");
	close(sentinel);
	cr_assert_eq(count_proc_fds(), before);
	imsgbuf_clear(&out);
	close(sv2[0]);
	close(sv2[1]);
}
