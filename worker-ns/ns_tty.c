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
 * exec -t in a native space: the command's terminal is made inside, by
 * the command's own process as the space's user (a pty of the space's
 * devpts, owned by it), which hands the master to spaced-ns over a
 * socketpair; spaced-ns carries its bytes as the Docker place carries a
 * Tty exec's, and sets its window.
 */

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ns.h"

/* The space's variables and TERM, as the engine gives a Tty exec. */
char **
ns_tty_env(const char *const *base)
{
	static const char	*env[16];
	size_t			 i;

	for (i = 0; base[i] != NULL && i + 2 < 16; i++)
		env[i] = base[i];
	env[i++] = "TERM=xterm";
	env[i] = NULL;
	return (char **)(uintptr_t)env;
}

/*
 * In the command's process, as the space's user, before its exec: a
 * new session whose controlling terminal is a new pty's slave, on
 * stdin, stdout and stderr; the master goes to spaced-ns on sock.
 */
int
ns_tty_inner(const struct ns_tty *t)
{
	struct winsize	 ws;
	struct msghdr	 msg;
	struct iovec	 iov;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	}		 cm;
	char		 name[64], c = 't';
	int		 ptm, pts;

	if ((ptm = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1 ||
	    unlockpt(ptm) == -1 || ptsname_r(ptm, name, sizeof(name)) != 0)
		return -1;
	if (setsid() == -1 ||
	    (pts = open(name, O_RDWR | O_NOCTTY)) == -1 ||
	    ioctl(pts, TIOCSCTTY, 0) == -1)
		return -1;
	if (t->rows != 0 && t->cols != 0) {
		memset(&ws, 0, sizeof(ws));
		ws.ws_row = t->rows;
		ws.ws_col = t->cols;
		(void)ioctl(pts, TIOCSWINSZ, &ws);
	}
	memset(&msg, 0, sizeof(msg));
	memset(&cm, 0, sizeof(cm));
	iov.iov_base = &c;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	CMSG_FIRSTHDR(&msg)->cmsg_level = SOL_SOCKET;
	CMSG_FIRSTHDR(&msg)->cmsg_type = SCM_RIGHTS;
	CMSG_FIRSTHDR(&msg)->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(CMSG_FIRSTHDR(&msg)), &ptm, sizeof(int));
	if (sendmsg(t->sock, &msg, MSG_NOSIGNAL) != 1)
		return -1;
	close(ptm);
	close(t->sock);
	if (dup2(pts, 0) == -1 || dup2(pts, 1) == -1 || dup2(pts, 2) == -1)
		return -1;
	if (pts > 2)
		close(pts);
	return 0;
}

/*
 * In spaced-ns: the master the command sent, or -1 when it ended
 * before (its error is on its stderr pipe).  It comes within the
 * command's first steps; the socket closes with the command.
 */
int
ns_tty_master(int sock)
{
	struct msghdr	 msg;
	struct iovec	 iov;
	struct cmsghdr	*cmsg;
	union {
		struct cmsghdr	hdr;
		char		buf[CMSG_SPACE(sizeof(int))];
	}		 cm;
	char		 c;
	ssize_t		 n;
	int		 fd = -1;

	memset(&msg, 0, sizeof(msg));
	iov.iov_base = &c;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	while ((n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) == -1 &&
	    errno == EINTR)
		;
	if (n != 1 || (cmsg = CMSG_FIRSTHDR(&msg)) == NULL ||
	    cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
	    cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* exec -t's new window, on the master. */
int
ns_tty_resize(int ptm, uint16_t rows, uint16_t cols)
{
	struct winsize	 ws;

	memset(&ws, 0, sizeof(ws));
	ws.ws_row = rows;
	ws.ws_col = cols;
	return ioctl(ptm, TIOCSWINSZ, &ws);
}
