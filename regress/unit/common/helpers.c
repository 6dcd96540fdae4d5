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

#include <sys/types.h>
#include <sys/socket.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "helpers.h"

void
test_socketpair(int sv[2])
{
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv),
	    0);
}

int		 pair_sv[2];
struct imsgbuf	 pair_wr, pair_rd;

void
pair_setup(void)
{
	test_socketpair(pair_sv);
	imsgbuf_init(&pair_wr, pair_sv[0]);
	imsgbuf_init(&pair_rd, pair_sv[1]);
}

void
pair_teardown(void)
{
	imsgbuf_clear(&pair_wr);
	imsgbuf_clear(&pair_rd);
	close(pair_sv[0]);
	close(pair_sv[1]);
}

int
lowest_free_fd(void)
{
	int	 fd;

	cr_assert_neq(fd = dup(0), -1);
	close(fd);
	return fd;
}

int
fd_is_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

int
count_open_fds(void)
{
	int	 fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) != -1)
			n++;
	return n;
}

int
count_proc_fds(void)
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

void
write_all(int fd, const void *buf, size_t len)
{
	const uint8_t	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		cr_assert_gt(n, 0, "write: %s", strerror(errno));
		p += n;
		len -= n;
	}
}

size_t
read_full(int fd, void *buf, size_t len)
{
	uint8_t	*p = buf;
	size_t	 got = 0;
	ssize_t	 n;

	while (got < len) {
		n = read(fd, p + got, len - got);
		if (n == -1 && errno == EINTR)
			continue;
		cr_assert_neq(n, -1, "read: %s", strerror(errno));
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

void
send_raw_fd(int sock, const void *buf, size_t len, int fd)
{
	struct msghdr	 msg;
	struct iovec	 iov;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	} cmsgbuf;
	struct cmsghdr	*cmsg;

	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	iov.iov_base = (void *)(uintptr_t)buf;	/* sendmsg does not write it */
	iov.iov_len = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	cr_assert_eq(sendmsg(sock, &msg, 0), (ssize_t)len);
}

void
raw_hdr(struct imsg_hdr *hdr, uint32_t type, size_t len, uint16_t flags)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = type;
	hdr->len = len;
	hdr->flags = flags;
	hdr->pid = getpid();
}

int
wait_get(struct imsgbuf *ibuf, struct imsg *imsg)
{
	struct pollfd	 pfd;
	ssize_t		 n;
	int		 r;

	for (;;) {
		if ((r = imsgbuf_get(ibuf, imsg)) != 0)
			return r;
		pfd.fd = ibuf->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, -1) == -1 && errno != EINTR)
			return -1;
		n = imsgbuf_read(ibuf);
		if (n == 0)
			return 0;
		if (n == -1 && errno != EAGAIN)
			return -1;
	}
}
