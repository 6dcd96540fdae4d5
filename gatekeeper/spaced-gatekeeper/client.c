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
#include <sys/un.h>
#include <netinet/in.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"
#include "gatekeeper.h"
#include "gk_http.h"

/*
 * spaced-gatekeeper -C METHOD PATH [-p CONTROL_PORT] [-t SECONDS]
 *
 * The control channel from inside the gatekeeper's container: the
 * host's way in through an exec, and the container's health check.  One
 * HTTP/1.1 request to 127.0.0.1:CONTROL_PORT, with the body from stdin
 * for POST; the answer's body goes to stdout.  Blocking and small: the
 * socket is made and its connect begun, then the process confines
 * itself to what it holds (stdio, no filesystem, no new socket, and
 * Landlock's no TCP connect or bind where the kernel has it).
 * Everything after that, stdin included, runs confined, within one
 * deadline for the whole exchange.
 */

static struct timespec	 client_end;

static void __attribute__((__format__(printf, 1, 2))) __dead
client_fail(const char *fmt, ...)
{
	va_list	 ap;
	char	 msg[256];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_warnx("%s", msg);
	exit(2);
}

static __dead void
client_usage(const char *why)
{
	log_warnx("%s", why);
	log_warnx("usage: spaced-gatekeeper -C METHOD PATH [-p CONTROL_PORT | "
	    "-k CTLDIR] [-t SECONDS]");
	exit(2);
}

int
client_method_ok(const char *m)
{
	size_t	 i;

	for (i = 0; m[i] != '\0'; i++)
		if (m[i] < 'A' || m[i] > 'Z')
			return -1;
	return i > 0 && i <= 16 ? 0 : -1;
}

int
client_path_ok(const char *p)
{
	size_t	 i;

	if (p[0] != '/')
		return -1;
	for (i = 0; p[i] != '\0'; i++)
		if ((unsigned char)p[i] <= 0x20 || (unsigned char)p[i] == 0x7f)
			return -1;
	return i <= 2048 ? 0 : -1;
}

/*
 * The answer in buf[0..len), eof when nothing more will come.  1: whole,
 * with *status and the body at buf + *bodyoff, *bodylen long; 0: more
 * is needed; -1: malformed or cut short (*errstr says why).  Pure.
 */
int
client_answer(const char *buf, size_t len, int eof, int *status,
    size_t *bodyoff, size_t *bodylen, const char **errstr)
{
	struct gk_http_head		 h;
	enum gk_body_kind		 kind;
	uint64_t			 length;

	switch (gk_http_parse_response(buf, len, &h)) {
	case GK_HTTP_NEED_MORE:
		if (!eof)
			return 0;
		*errstr = len == 0 ? "no answer" : "answer cut short in its head";
		return -1;
	case GK_HTTP_MALFORMED:
		*errstr = "malformed answer head";
		return -1;
	case GK_HTTP_COMPLETE:
		break;
	}
	if (gk_http_body_framing(&h, &kind, &length) == -1) {
		*errstr = "malformed answer framing";
		return -1;
	}
	*status = h.hh_status;
	*bodyoff = h.hh_headlen;
	switch (kind) {
	case GK_BODY_LENGTH:
		if (length > len - h.hh_headlen) {
			if (!eof)
				return 0;
			*errstr = "answer body cut short";
			return -1;
		}
		*bodylen = (size_t)length;
		return 1;
	case GK_BODY_NONE:
		/* Connection: close, so the body ends with the stream. */
		if (!eof)
			return 0;
		*bodylen = len - h.hh_headlen;
		return 1;
	case GK_BODY_CHUNKED:
	default:
		/* Control answers with a length; anything else is not it. */
		*errstr = "chunked answer";
		return -1;
	}
}

/* Milliseconds left before the deadline; fails when none are. */
static int
client_left(void)
{
	struct timespec	 now;
	long long	 ms;

	if (clock_gettime(CLOCK_MONOTONIC, &now) == -1)
		client_fail("clock_gettime: %s", strerror(errno));
	ms = (client_end.tv_sec - now.tv_sec) * 1000LL +
	    (client_end.tv_nsec - now.tv_nsec) / 1000000;
	if (ms <= 0)
		client_fail("timed out");
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* Wait for fd to be ready for events, within the deadline. */
static void
client_wait(int fd, short events, const char *what)
{
	struct pollfd	 pfd;
	int		 n;

	for (;;) {
		pfd.fd = fd;
		pfd.events = events;
		pfd.revents = 0;
		n = poll(&pfd, 1, client_left());
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			client_fail("%s: poll: %s", what, strerror(errno));
		if (n == 0)
			client_fail("%s: timed out", what);
		return;		/* ready, or an error read/write will tell */
	}
}

/* The body from stdin, at most GK_CLIENT_BODY_MAX bytes. */
static char *
client_stdin(size_t *lenp)
{
	char	*buf;
	size_t	 len = 0;
	ssize_t	 n;

	/* One more than allowed, to see that there is more. */
	if ((buf = malloc(GK_CLIENT_BODY_MAX + 1)) == NULL)
		client_fail("out of memory");
	for (;;) {
		client_wait(STDIN_FILENO, POLLIN, "stdin");
		n = read(STDIN_FILENO, buf + len, GK_CLIENT_BODY_MAX + 1 - len);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == -1)
			client_fail("stdin: %s", strerror(errno));
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > GK_CLIENT_BODY_MAX)
			client_fail("request body over %d bytes",
			    GK_CLIENT_BODY_MAX);
	}
	*lenp = len;
	return buf;
}

/*
 * Send len bytes, unless the answer comes first: a server may answer
 * (413) and close before it reads a body, and then that answer, not
 * the broken pipe, is what counts.  0 when all went out.
 */
static int
client_send(int s, const char *p, size_t len)
{
	struct pollfd	 pfd;
	ssize_t		 n;
	int		 r;

	while (len > 0) {
		pfd.fd = s;
		pfd.events = POLLIN | POLLOUT;
		pfd.revents = 0;
		r = poll(&pfd, 1, client_left());
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			client_fail("send: poll: %s", strerror(errno));
		if (r == 0)
			client_fail("send: timed out");
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
			return -1;
		n = send(s, p, len, MSG_NOSIGNAL);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == -1 && (errno == EPIPE || errno == ECONNRESET))
			return -1;
		if (n == -1)
			client_fail("send: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
client_stdout(const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		n = write(STDOUT_FILENO, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			client_fail("stdout: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
}

int
client_main(int argc, char *argv[])
{
	struct sockaddr_in	 sin;
	struct sockaddr_un	 sun;
	struct sandbox_spec	 sb;
	const char		*method, *path, *errstr, *ctldir = NULL;
	char			 head[4096], *body = NULL, *ans;
	size_t			 bodylen = 0, anslen = 0, off, blen;
	long long		 port = GK_CLIENT_PORT_DEFAULT;
	long long		 secs = GK_CLIENT_DEADLINE_SEC;
	socklen_t		 elen;
	ssize_t			 n;
	int			 i, s, rc, err, status, hl;

	log_procinit("spaced-gatekeeper");
	/* argv[1] is "-C". */
	if (argc < 4)
		client_usage("-C needs METHOD and PATH");
	method = argv[2];
	path = argv[3];
	if (client_method_ok(method) == -1)
		client_usage("METHOD must be uppercase letters");
	if (client_path_ok(path) == -1)
		client_usage("PATH must start with / and hold no blank or "
		    "control byte");
	for (i = 4; i < argc; i += 2) {
		if (i + 1 >= argc)
			client_usage("an option lacks its value");
		if (strcmp(argv[i], "-p") == 0) {
			port = strtonum(argv[i + 1], 1, 65535, &errstr);
			if (errstr != NULL)
				client_usage("CONTROL_PORT is not a port");
		} else if (strcmp(argv[i], "-k") == 0) {
			ctldir = argv[i + 1];
			if (ctldir[0] == '\0')
				client_usage("CTLDIR is empty");
		} else if (strcmp(argv[i], "-t") == 0) {
			secs = strtonum(argv[i + 1], 1, 3600, &errstr);
			if (errstr != NULL)
				client_usage("SECONDS must be 1 to 3600");
		} else
			client_usage("unknown option");
	}
	if (clock_gettime(CLOCK_MONOTONIC, &client_end) == -1)
		client_fail("clock_gettime: %s", strerror(errno));
	client_end.tv_sec += secs;

	if (ctldir != NULL) {
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		if ((size_t)snprintf(sun.sun_path, sizeof(sun.sun_path),
		    "%s/control.sock", ctldir) >= sizeof(sun.sun_path))
			client_usage("CTLDIR is too long for a socket name");
		if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0)) == -1)
			client_fail("socket: %s", strerror(errno));
		/* A unix connect completes or fails at once. */
		if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
			client_fail("connect %s: %s", sun.sun_path,
			    strerror(errno));
	} else {
		if ((s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0)) == -1)
			client_fail("socket: %s", strerror(errno));
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons((uint16_t)port);
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(s, (struct sockaddr *)&sin, sizeof(sin)) == -1 &&
		    errno != EINPROGRESS)
			client_fail("connect 127.0.0.1:%lld: %s", port,
			    strerror(errno));
	}

	/*
	 * stdio only: read and write on stdin, stdout, stderr and the one
	 * socket, poll, the clock, exit.  No socket, connect or bind (and
	 * Landlock's TCP rules deny them too), no path, no exec.
	 */
	memset(&sb, 0, sizeof(sb));
	sb.sb_name = "gatekeeper-client";
	sb.sb_groups = SB_STDIO;
	sb.sb_extra = NULL;
	sb.sb_landlock_dir = NULL;
	sandbox_enter(&sb);

	if (strcmp(method, "POST") == 0)
		body = client_stdin(&bodylen);

	client_wait(s, POLLOUT, "connect");
	elen = sizeof(err);
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &elen) == -1)
		client_fail("getsockopt: %s", strerror(errno));
	if (err != 0)
		client_fail("connect 127.0.0.1:%lld: %s", port, strerror(err));

	if (body != NULL)
		hl = snprintf(head, sizeof(head), "%s %s HTTP/1.1\r\n"
		    "Host: 127.0.0.1:%lld\r\nConnection: close\r\n"
		    "Content-Type: application/json\r\n"
		    "Content-Length: %zu\r\n\r\n", method, path, port, bodylen);
	else
		hl = snprintf(head, sizeof(head), "%s %s HTTP/1.1\r\n"
		    "Host: 127.0.0.1:%lld\r\nConnection: close\r\n\r\n",
		    method, path, port);
	if (hl < 0 || (size_t)hl >= sizeof(head))
		client_fail("request head too long");
	if (client_send(s, head, (size_t)hl) == 0 && body != NULL)
		(void)client_send(s, body, bodylen);
	free(body);

	/* One more than allowed, to see that there is more. */
	if ((ans = malloc(GK_CLIENT_ANSWER_MAX + 1)) == NULL)
		client_fail("out of memory");
	for (;;) {
		client_wait(s, POLLIN, "answer");
		n = read(s, ans + anslen, GK_CLIENT_ANSWER_MAX + 1 - anslen);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == -1)
			client_fail("read: %s", strerror(errno));
		if (n > 0) {
			anslen += (size_t)n;
			if (anslen > GK_CLIENT_ANSWER_MAX)
				client_fail("answer over %d bytes",
				    GK_CLIENT_ANSWER_MAX);
		}
		rc = client_answer(ans, anslen, n == 0, &status, &off, &blen,
		    &errstr);
		if (rc == -1)
			client_fail("%s", errstr);
		if (rc == 1)
			break;
	}
	close(s);
	client_stdout(ans + off, blen);
	if (status < 200 || status > 299) {
		log_warnx("status %d", status);
		exit(1);
	}
	exit(0);
}
