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
 * The exec helper's receive (ns_helper_recv): a message with more fds
 * than wanted, or more than its buffer holds, is refused and leaves no
 * fd open in the receiver.  The control: a plain recvmsg with room for
 * one fd is given two (the kernel rounds the room up), both left open.
 */

#include <sys/socket.h>
#include <sys/uio.h>

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "worker-ns/ns.h"

static int	 sp[2];

static void
setup(void)
{
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
	    sp), 0);
}

static void
teardown(void)
{
	close(sp[0]);
	close(sp[1]);
}

TestSuite(helper_recv, .init = setup, .fini = teardown);

/* The fds this process holds open. */
static int
open_fds(void)
{
	DIR		*d = opendir("/proc/self/fd");
	struct dirent	*e;
	int		 n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* Sends len bytes of buf with n fds, each a fresh /dev/null. */
static void
send_fds(const void *buf, size_t len, int n)
{
	struct msghdr	 msg;
	struct iovec	 iov = { (void *)(uintptr_t)buf, len };
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(16 * sizeof(int))];
	}		 cm;
	int		 fds[16], i;

	cr_assert_leq(n, 16);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	for (i = 0; i < n; i++)
		cr_assert_neq(fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC),
		    -1);
	if (n > 0) {
		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(n * sizeof(int));
		CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(n * sizeof(int));
		CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
		CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
		memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), fds, n * sizeof(int));
	}
	cr_assert_eq(sendmsg(sp[0], &msg, 0), (ssize_t)len);
	for (i = 0; i < n; i++)
		close(fds[i]);
}

Test(helper_recv, wanted_fds_kept)
{
	char	 buf[8];
	int	 fds[4], nfds, before = open_fds(), i;

	send_fds("request", 8, 4);
	cr_assert_eq(ns_helper_recv(sp[1], buf, sizeof(buf), fds, 4, &nfds),
	    8);
	cr_assert_eq(nfds, 4);
	cr_assert_str_eq(buf, "request");
	cr_assert_eq(open_fds(), before + 4, "the four are held");
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	cr_assert_eq(open_fds(), before);
}

Test(helper_recv, extra_fd_for_a_pidfd_closed)
{
	pid_t	 init = 1, got;
	int	 fd = -1, nfds, before = open_fds();

	send_fds(&init, sizeof(init), 2);
	cr_assert_eq(ns_helper_recv(sp[1], &got, sizeof(got), &fd, 1, &nfds),
	    -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_eq(nfds, 0);
	cr_assert_eq(open_fds(), before, "%d fds left open",
	    open_fds() - before);
}

Test(helper_recv, fds_past_the_buffer_closed)
{
	char	 buf[8];
	int	 fds[4], nfds, before = open_fds();

	send_fds("request", 8, 9);	/* the kernel installs what fits */
	cr_assert_eq(ns_helper_recv(sp[1], buf, sizeof(buf), fds, 4, &nfds),
	    -1);
	cr_assert_eq(errno, EBADMSG);
	cr_assert_eq(open_fds(), before, "%d fds left open",
	    open_fds() - before);
}

Test(helper_recv, long_message_refused_its_fds_closed)
{
	char	 buf[4];
	int	 fds[4], nfds, before = open_fds();

	send_fds("request", 8, 3);
	cr_assert_eq(ns_helper_recv(sp[1], buf, sizeof(buf), fds, 4, &nfds),
	    -1);
	cr_assert_eq(open_fds(), before);
}

Test(helper_recv, eof_is_zero)
{
	char	 buf[8];
	int	 fds[4], nfds;

	close(sp[0]);
	sp[0] = -1;
	cr_assert_eq(ns_helper_recv(sp[1], buf, sizeof(buf), fds, 4, &nfds),
	    0);
	cr_assert_eq(nfds, 0);
}

/* The control: what the old receive of a pidfd was left holding. */
Test(helper_recv, plain_recvmsg_holds_the_extra)
{
	pid_t		 init = 1, got;
	struct msghdr	 msg;
	struct iovec	 iov = { &got, sizeof(got) };
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(sizeof(int))];
	}		 cm;
	int		 before = open_fds(), fds[2];

	send_fds(&init, sizeof(init), 2);
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	cr_assert_eq(recvmsg(sp[1], &msg, MSG_CMSG_CLOEXEC), sizeof(got));
	cr_assert_eq(msg.msg_flags & MSG_CTRUNC, 0, "both fit");
	cr_assert_eq(open_fds(), before + 2);
	memcpy(fds, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(fds));
	close(fds[0]);
	close(fds[1]);
}
