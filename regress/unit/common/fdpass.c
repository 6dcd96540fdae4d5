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

/* fd passing: delivery, ownership, refusal and stray fds. */

#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"
#include "imsg.h"


/* Fd passing is a property of the channel: the sending side allows it too. */
static void
fdpass_setup(void)
{
	pair_setup();
	imsgbuf_allow_fdpass(&pair_wr);
}

TestSuite(fdpass, .init = fdpass_setup, .fini = pair_teardown);

/* A pipe whose read end carries the word "tag". */
static int
tagged_pipe(uint32_t tag)
{
	int	 p[2];

	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	write_all(p[1], &tag, sizeof(tag));
	close(p[1]);
	return p[0];
}

static uint32_t
read_tag(int fd)
{
	uint32_t	 tag = 0;

	cr_assert_eq(read_full(fd, &tag, sizeof(tag)), sizeof(tag));
	return tag;
}

Test(fdpass, fd_and_payload_arrive_usable)
{
	struct imsg	 imsg;
	const char	 msg[] = "hello";
	int		 fd, sent;

	imsgbuf_allow_fdpass(&pair_rd);
	sent = tagged_pipe(0xfeed);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 3, 0, sent, msg,
	    sizeof(msg)), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	/* Ours was closed once the kernel held a copy. */
	cr_assert_not(fd_is_open(sent));
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg_expect(&imsg, TEST_TYPE, sizeof(msg)), 0);
	cr_assert_str_eq((char *)imsg.data, msg);
	cr_assert_neq(fd = imsg_get_fd(&imsg), -1);
	cr_assert_eq(imsg_get_fd(&imsg), -1);
	cr_assert_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	imsg_free(&imsg);
	/* Claimed: imsg_free left it open. */
	cr_assert_eq(read_tag(fd), 0xfeed);
	close(fd);
}

Test(fdpass, unclaimed_fd_is_closed)
{
	struct imsg	 imsg;
	int		 fd;

	imsgbuf_allow_fdpass(&pair_rd);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, tagged_pipe(1), NULL,
	    0), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	fd = imsg.fd;
	cr_assert_neq(fd, -1);
	cr_assert(fd_is_open(fd));		/* positive control */
	imsg_free(&imsg);
	cr_assert_not(fd_is_open(fd));
}

/* An fd sent with a message that does not claim one is closed. */
Test(fdpass, extra_fd_is_closed)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;
	int		 expect;

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, 0);
	expect = lowest_free_fd();
	send_raw_fd(pair_sv[0], &hdr, sizeof(hdr), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), (ssize_t)sizeof(hdr));
	cr_assert(fd_is_open(expect));		/* it did arrive */
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg.fd, -1);
	imsg_free(&imsg);
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_not(fd_is_open(expect));
}

/* A channel that does not allow fds refuses one and closes it. */
Test(fdpass, refused_without_allow)
{
	struct imsg_hdr	 hdr;
	int		 expect;

	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, IMSGF_HASFD);
	expect = lowest_free_fd();
	send_raw_fd(pair_sv[0], &hdr, sizeof(hdr), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_not(fd_is_open(expect));
	cr_assert_eq(pair_rd.nrfds, 0);
}

/* Positive control for the above: the same bytes on an allowing channel. */
Test(fdpass, accepted_with_allow)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;
	int		 expect;

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, IMSGF_HASFD);
	expect = lowest_free_fd();
	send_raw_fd(pair_sv[0], &hdr, sizeof(hdr), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), (ssize_t)sizeof(hdr));
	cr_assert(fd_is_open(expect));
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 1);
	cr_assert_eq(imsg.fd, expect);
	imsg_free(&imsg);
	cr_assert_not(fd_is_open(expect));
}

/* The fd flag without an fd is a broken stream. */
Test(fdpass, flag_without_fd)
{
	struct imsg_hdr	 hdr;
	struct imsg	 imsg;

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, IMSGF_HASFD);
	write_all(pair_sv[0], &hdr, sizeof(hdr));
	cr_assert_eq(wait_get(&pair_rd, &imsg), -1);
	cr_assert_eq(errno, EBADMSG);
}

/* imsgbuf_clear closes what was received and never claimed. */
Test(fdpass, clear_closes_queued_fds)
{
	struct imsg_hdr	 hdr;
	int		 expect;

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE + 10, IMSGF_HASFD);
	expect = lowest_free_fd();
	send_raw_fd(pair_sv[0], &hdr, sizeof(hdr), 0);
	cr_assert_eq(imsgbuf_read(&pair_rd), (ssize_t)sizeof(hdr));
	cr_assert(fd_is_open(expect));
	imsgbuf_clear(&pair_rd);
	cr_assert_not(fd_is_open(expect));
}

/* Queued output with fds that was never sent is closed by clear. */
Test(fdpass, clear_closes_unsent_fds)
{
	int	 fd = tagged_pipe(2);

	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 0, 0, fd, NULL, 0), 0);
	cr_assert(fd_is_open(fd));
	imsgbuf_clear(&pair_wr);
	cr_assert_not(fd_is_open(fd));
}

/*
 * fds mixed with large payloads through a small socket buffer: every
 * write is partial, and each fd must travel with the first byte of its
 * own message only, or the reader pairs fds with the wrong messages.
 */
Test(fdpass, fds_across_partial_writes)
{
	struct imsg	 imsg;
	uint8_t		*buf;
	int		 sndbuf = 4096, fd;
	uint32_t	 i, got = 0, loops = 0;

	imsgbuf_allow_fdpass(&pair_rd);
	cr_assert_eq(setsockopt(pair_sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf,
	    sizeof(sndbuf)), 0);
	cr_assert_not_null(buf = calloc(1, IMSG_MAX_PAYLOAD));
	for (i = 0; i < 30; i++) {
		fd = (i % 3 == 0) ? -1 : tagged_pipe(i);
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0, fd, buf,
		    IMSG_MAX_PAYLOAD - i), 0);
	}
	while (got < 30) {
		cr_assert_lt(loops++, 100000);
		cr_assert_eq(imsgbuf_write(&pair_wr), 0);
		if (imsgbuf_read(&pair_rd) == -1)
			cr_assert_eq(errno, EAGAIN);
		while (imsgbuf_get(&pair_rd, &imsg) == 1) {
			cr_assert_eq(imsg_get_peerid(&imsg), got);
			cr_assert_eq(imsg_get_len(&imsg),
			    IMSG_MAX_PAYLOAD - got);
			if (got % 3 == 0)
				cr_assert_eq(imsg.fd, -1);
			else
				cr_assert_eq(read_tag(imsg.fd), got);
			imsg_free(&imsg);
			got++;
		}
	}
	/* Nothing left over: a stray fd would make this -1. */
	cr_assert_eq(imsgbuf_get(&pair_rd, &imsg), 0);
	cr_assert_eq(pair_rd.nrfds, 0);
	free(buf);
}

/* A peer flooding fds fills the queue and is refused, nothing kept. */
Test(fdpass, fd_flood_refused)
{
	struct imsg_hdr	 hdr;
	int		 i, r = 0, got[IMSG_MAX_FDS + 1];

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE + 1000, IMSGF_HASFD);
	for (i = 0; i <= IMSG_MAX_FDS; i++) {
		got[i] = lowest_free_fd();
		send_raw_fd(pair_sv[0], &hdr, 1, 0);
		if ((r = imsgbuf_read(&pair_rd)) == -1)
			break;
	}
	cr_assert_eq(r, -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_eq(pair_rd.nrfds, IMSG_MAX_FDS);
	imsgbuf_clear(&pair_rd);
	for (i = 0; i <= IMSG_MAX_FDS; i++)
		cr_assert_not(fd_is_open(got[i]));
}

/*
 * More fds in one message than our control buffer holds: the kernel
 * drops the rest (MSG_CTRUNC) and the read must fail, closing the ones
 * that did arrive, rather than pair fds with the wrong messages.
 */
Test(fdpass, truncated_control_data)
{
	struct msghdr	 msg;
	struct iovec	 iov;
	struct imsg_hdr	 hdr;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int) * (IMSG_MAX_FDS + 4))];
	} cmsgbuf;
	struct cmsghdr	*cmsg;
	int		 fds[IMSG_MAX_FDS + 4], before, i;

	imsgbuf_allow_fdpass(&pair_rd);
	raw_hdr(&hdr, TEST_TYPE, IMSG_HEADER_SIZE, IMSGF_HASFD);
	for (i = 0; i < IMSG_MAX_FDS + 4; i++)
		fds[i] = 0;
	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	iov.iov_base = &hdr;
	iov.iov_len = sizeof(hdr);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cmsg), fds, sizeof(fds));
	cr_assert_eq(sendmsg(pair_sv[0], &msg, 0), (ssize_t)sizeof(hdr));
	before = count_open_fds();
	cr_assert_eq(imsgbuf_read(&pair_rd), -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_eq(pair_rd.nrfds, 0);
	cr_assert_eq(count_open_fds(), before);
}

/* Small messages each with an fd, queued together: every fd arrives. */
Test(fdpass, several_fds_one_flush)
{
	struct imsg	 imsg;
	uint32_t	 i;

	imsgbuf_allow_fdpass(&pair_rd);
	for (i = 0; i < 5; i++) {
		cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, i, 0,
		    i == 2 ? -1 : tagged_pipe(100 + i), &i, sizeof(i)), 0);
	}
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	for (i = 0; i < 5; i++) {
		cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
		cr_assert_eq(imsg_get_peerid(&imsg), i);
		if (i == 2)
			cr_assert_eq(imsg.fd, -1);
		else
			cr_assert_eq(read_tag(imsg.fd), 100 + i);
		imsg_free(&imsg);
	}
}

/*
 * A relay that claimed the fd of a message it forwards sends it without
 * one: the header is rebuilt, not the received one sent again with its
 * fd flag (the peer would then refuse the channel).
 */
Test(fdpass, forward_after_claiming_fd)
{
	int		 sv2[2], fd;
	struct imsgbuf	 out, in;
	struct imsg	 imsg, fwd;
	uint8_t		*payload;

	cr_assert_not_null(payload = calloc(1, IMSG_MAX_PAYLOAD));
	test_socketpair(sv2);
	imsgbuf_init(&out, sv2[0]);
	imsgbuf_init(&in, sv2[1]);
	imsgbuf_allow_fdpass(&pair_rd);
	imsgbuf_allow_fdpass(&out);
	imsgbuf_allow_fdpass(&in);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 5, 0, tagged_pipe(3),
	    payload, IMSG_MAX_PAYLOAD), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	cr_assert_neq(fd = imsg_get_fd(&imsg), -1);
	cr_assert_eq(imsg_forward(&out, &imsg), 0);
	imsg_free(&imsg);
	cr_assert_eq(imsgbuf_flush(&out), 0);
	cr_assert_eq(wait_get(&in, &fwd), 1, "forwarded message refused");
	cr_assert_eq(imsg_get_peerid(&fwd), 5);
	cr_assert_eq(fwd.fd, -1);
	imsg_free(&fwd);
	close(fd);
	imsgbuf_clear(&out);
	imsgbuf_clear(&in);
	close(sv2[0]);
	close(sv2[1]);
	free(payload);
}

/* A relay forwards a message unchanged, fd and all, without copying. */
Test(fdpass, forward_unchanged)
{
	int		 sv2[2];
	struct imsgbuf	 out, in;
	struct imsg	 imsg, fwd;
	uint8_t		*payload, *moved;
	size_t		 i;

	cr_assert_not_null(payload = malloc(IMSG_MAX_PAYLOAD));
	for (i = 0; i < IMSG_MAX_PAYLOAD; i++)
		payload[i] = i * 13;
	test_socketpair(sv2);
	imsgbuf_init(&out, sv2[0]);
	imsgbuf_init(&in, sv2[1]);
	imsgbuf_allow_fdpass(&pair_rd);
	imsgbuf_allow_fdpass(&out);
	imsgbuf_allow_fdpass(&in);
	cr_assert_eq(imsg_compose(&pair_wr, TEST_TYPE, 77, 4242, tagged_pipe(9),
	    payload, IMSG_MAX_PAYLOAD), 0);
	cr_assert_eq(imsgbuf_flush(&pair_wr), 0);
	cr_assert_eq(wait_get(&pair_rd, &imsg), 1);
	moved = imsg.data;
	cr_assert_eq(imsg_forward(&out, &imsg), 0);
	cr_assert_null(imsg.data);
	cr_assert_eq(imsg.fd, -1);
	imsg_free(&imsg);
	/* The payload went to the queue as it was, not as a copy. */
	cr_assert_eq(out.outq_bytes, MAX_IMSGSIZE);
	cr_assert_arr_eq(moved, payload, IMSG_MAX_PAYLOAD);
	cr_assert_eq(imsgbuf_flush(&out), 0);
	cr_assert_eq(wait_get(&in, &fwd), 1);
	cr_assert_eq(imsg_get_type(&fwd), TEST_TYPE);
	cr_assert_eq(imsg_get_peerid(&fwd), 77);
	cr_assert_eq(imsg_get_pid(&fwd), 4242);
	cr_assert_eq(imsg_get_len(&fwd), IMSG_MAX_PAYLOAD);
	cr_assert_arr_eq(fwd.data, payload, IMSG_MAX_PAYLOAD);
	cr_assert_eq(read_tag(fwd.fd), 9);
	imsg_free(&fwd);

	/* A message built by hand is copied instead. */
	memset(&imsg, 0, sizeof(imsg));
	imsg.hdr.type = TEST_TYPE;
	imsg.hdr.len = IMSG_HEADER_SIZE + 3;
	imsg.fd = -1;
	imsg.data = payload;
	cr_assert_eq(imsg_forward(&out, &imsg), 0);
	cr_assert_eq(imsg.data, payload);
	cr_assert_eq(imsgbuf_flush(&out), 0);
	cr_assert_eq(wait_get(&in, &fwd), 1);
	cr_assert_eq(imsg_get_len(&fwd), 3);
	cr_assert_arr_eq(fwd.data, payload, 3);
	imsg_free(&fwd);

	imsgbuf_clear(&out);
	imsgbuf_clear(&in);
	close(sv2[0]);
	close(sv2[1]);
	free(payload);
}
