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
 * A stand-in Docker Engine for tests and benches.  Listens on one unix
 * socket per mode in a directory and answers GET /_ping and GET
 * /version as Engine 20.10.24 does, after a delay (-d ms), or in one of
 * the hostile ways below.  Each connection gets a child of its own, so
 * ten slow answers run side by side like the real daemon's.  Prints
 * "ready" on stdout once every socket listens; dies with its parent.
 * Each GET /version read (a check's first call) appends one byte to
 * dir/versions, so a test sees how many are in at once without a clock.
 *
 * usage: fake_engine [-d delay_ms] dir
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum mode {
	M_OK,		/* keep-alive, Content-Length, as 20.10 answers */
	M_CHUNKED,	/* the same body chunked, one write per chunk */
	M_STALL,	/* read the request, never answer */
	M_TRUNCATED,	/* announce the body, send half, close */
	M_OVERSIZED,	/* a chunked body that never ends */
	M_BADCHUNK,	/* a chunk size that is not hex */
	M_CLOSE,	/* close without a byte */
	M_GARBAGE,	/* not HTTP at all */
	M_MAX
};

static const char *mode_names[M_MAX] = {
	"ok", "chunked", "stall", "truncated", "oversized", "badchunk",
	"close", "garbage",
};

/* GET /version from Engine 20.10.24 (Debian 12), verbatim. */
static const char version_json[] =
    "{\"Platform\":{\"Name\":\"\"},\"Components\":[{\"Name\":\"Engine\","
    "\"Version\":\"20.10.24+dfsg1\",\"Details\":{\"ApiVersion\":\"1.41\","
    "\"Arch\":\"amd64\",\"BuildTime\":\"2026-05-07T21:09:36.000000000+00:00\","
    "\"Experimental\":\"false\",\"GitCommit\":\"5d6db84\",\"GoVersion\":"
    "\"go1.19.8\",\"KernelVersion\":\"6.18.44-fc-v1147\",\"MinAPIVersion\":"
    "\"1.12\",\"Os\":\"linux\"}},{\"Name\":\"containerd\",\"Version\":"
    "\"1.6.20~ds1\",\"Details\":{\"GitCommit\":\"1.6.20~ds1-1+deb12u3\"}},"
    "{\"Name\":\"runc\",\"Version\":\"1.1.5+ds1\",\"Details\":{\"GitCommit\":"
    "\"1.1.5+ds1-1+deb12u1\"}},{\"Name\":\"docker-init\",\"Version\":"
    "\"0.19.0\",\"Details\":{\"GitCommit\":\"\"}}],\"Version\":"
    "\"20.10.24+dfsg1\",\"ApiVersion\":\"1.41\",\"MinAPIVersion\":\"1.12\","
    "\"GitCommit\":\"5d6db84\",\"GoVersion\":\"go1.19.8\",\"Os\":\"linux\","
    "\"Arch\":\"amd64\",\"KernelVersion\":\"6.18.44-fc-v1147\",\"BuildTime\":"
    "\"2026-05-07T21:09:36.000000000+00:00\"}";

#define HDRS	"Api-Version: 1.41\r\nDocker-Experimental: false\r\n" \
		"Ostype: linux\r\nServer: Docker/20.10.24+dfsg1 (linux)\r\n" \
		"Date: Thu, 03 Dec 2026 11:57:59 GMT\r\n"

static int	 delay_ms;
static char	 count_path[1024];

/* One byte per /version read: the count tests read instead of a clock. */
static void
count_version(void)
{
	int	 fd;

	if ((fd = open(count_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0644)) == -1)
		_exit(1);
	if (write(fd, "r", 1) != 1)
		_exit(1);
	close(fd);
}

static void
put(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(0);	/* the client left: fine */
		}
		p += n;
		len -= n;
	}
}

static void
putf(int fd, const char *fmt, ...)
    __attribute__((__format__(printf, 2, 3)));

static void
putf(int fd, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1)
		_exit(1);
	put(fd, s, n);
	free(s);
}

/*
 * Reads one request head into buf and skips its body.  Returns 0 at
 * EOF before a byte, 1 with the request line in buf.
 */
static int
get_request(int fd, char *buf, size_t len)
{
	size_t	 got = 0;
	ssize_t	 n;
	char	*end, *cl;
	long	 body;

	for (;;) {
		if (got == len - 1)
			_exit(1);
		if ((n = read(fd, buf + got, 1)) == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (got == 0)
				return 0;
			_exit(0);
		}
		got += n;
		buf[got] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) != NULL)
			break;
	}
	if ((cl = strcasestr(buf, "\r\nContent-Length:")) != NULL &&
	    (body = strtol(cl + 17, NULL, 10)) > 0) {
		char	 skip[512];

		while (body > 0) {
			n = read(fd, skip, body > (long)sizeof(skip) ?
			    sizeof(skip) : (size_t)body);
			if (n <= 0)
				_exit(0);
			body -= n;
		}
	}
	return 1;
}

static void
answer_ok(int fd, const char *path, int chunked)
{
	const char	*body, *ctype;
	size_t		 len, at, piece;

	if (strcmp(path, "/_ping") == 0) {
		body = "OK";
		ctype = "text/plain; charset=utf-8";
	} else if (strcmp(path, "/version") == 0 ||
	    (strncmp(path, "/v1.", 4) == 0 && strstr(path, "/version") != NULL)) {
		body = version_json;
		ctype = "application/json";
	} else if (strncmp(path, "/v1.", 4) == 0 &&
	    strstr(path, "/info") != NULL) {
		/* the part of GET /info the check reads */
		body = "{\"SecurityOptions\":[\"name=seccomp,profile=default\"]}";
		ctype = "application/json";
	} else {
		body = "{\"message\":\"page not found\"}";
		putf(fd, "HTTP/1.1 404 Not Found\r\n" HDRS
		    "Content-Type: application/json\r\n"
		    "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
		return;
	}
	len = strlen(body);
	if (!chunked) {
		putf(fd, "HTTP/1.1 200 OK\r\n" HDRS "Content-Type: %s\r\n"
		    "Content-Length: %zu\r\n\r\n%s", ctype, len, body);
		return;
	}
	putf(fd, "HTTP/1.1 200 OK\r\n" HDRS "Content-Type: %s\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n", ctype);
	for (at = 0; at < len; at += piece) {
		piece = len - at < 97 ? len - at : 97;
		putf(fd, "%zx\r\n%.*s\r\n", piece, (int)piece, body + at);
	}
	put(fd, "0\r\n\r\n", 5);
}

static void
serve(int fd, enum mode mode)
{
	char		 req[8192], path[1024];
	struct timespec	 ts;
	int		 i;

	/* Dies with the listener: a stalled child must not outlive a test. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (mode == M_CLOSE)
		_exit(0);
	while (get_request(fd, req, sizeof(req))) {
		if (sscanf(req, "%*s %1023s", path) != 1)
			_exit(1);
		if (strstr(path, "/version") != NULL)
			count_version();
		if (mode == M_STALL) {
			while (read(fd, req, sizeof(req)) > 0)
				;
			_exit(0);
		}
		/* The delay is the engine's /version (runc --version) only. */
		ts.tv_sec = delay_ms / 1000;
		ts.tv_nsec = (long)(delay_ms % 1000) * 1000000L;
		while (strstr(path, "/info") == NULL &&
		    nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
		switch (mode) {
		case M_OK:
		case M_CHUNKED:
			answer_ok(fd, path, mode == M_CHUNKED);
			continue;
		case M_TRUNCATED:
			putf(fd, "HTTP/1.1 200 OK\r\n" HDRS
			    "Content-Type: application/json\r\n"
			    "Content-Length: %zu\r\n\r\n%.*s",
			    strlen(version_json), (int)strlen(version_json) / 2,
			    version_json);
			break;
		case M_OVERSIZED:
			putf(fd, "HTTP/1.1 200 OK\r\n" HDRS
			    "Content-Type: application/json\r\n"
			    "Transfer-Encoding: chunked\r\n\r\n");
			memset(req, ' ', sizeof(req));
			/* 64 MiB at most, so a client without a cap ends too */
			for (i = 0; i < 8192; i++) {
				putf(fd, "%zx\r\n", sizeof(req));
				put(fd, req, sizeof(req));
				put(fd, "\r\n", 2);
			}
			break;
		case M_BADCHUNK:
			putf(fd, "HTTP/1.1 200 OK\r\n" HDRS
			    "Content-Type: application/json\r\n"
			    "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n");
			break;
		case M_GARBAGE:
			putf(fd, "SSH-2.0-OpenSSH_9.2\r\n\r\n");
			break;
		default:
			break;
		}
		_exit(0);
	}
	_exit(0);
}

static __attribute__((__noreturn__)) void
usage(void)
{
	fprintf(stderr, "usage: fake_engine [-d delay_ms] dir\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct sockaddr_un	 sun;
	struct pollfd		 pfd[M_MAX];
	const char		*errstr;
	int			 ch, i, fd;
	pid_t			 pid;

	while ((ch = getopt(argc, argv, "d:")) != -1) {
		switch (ch) {
		case 'd':
			delay_ms = strtonum(optarg, 0, 600000, &errstr);
			if (errstr != NULL)
				errx(2, "delay %s: %s", optarg, errstr);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	if (snprintf(count_path, sizeof(count_path), "%s/versions",
	    argv[optind]) >= (int)sizeof(count_path))
		errx(1, "directory name too long");
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGCHLD, SIG_IGN);	/* children reap themselves */
	signal(SIGPIPE, SIG_IGN);

	for (i = 0; i < M_MAX; i++) {
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		if (snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/%s.sock",
		    argv[optind], mode_names[i]) >= (int)sizeof(sun.sun_path))
			errx(1, "socket path too long");
		unlink(sun.sun_path);
		if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
			err(1, "socket");
		if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
			err(1, "bind %s", sun.sun_path);
		if (listen(fd, 128) == -1)
			err(1, "listen");
		pfd[i].fd = fd;
		pfd[i].events = POLLIN;
	}
	printf("ready\n");
	fflush(stdout);

	for (;;) {
		if (poll(pfd, M_MAX, -1) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		for (i = 0; i < M_MAX; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			if ((fd = accept4(pfd[i].fd, NULL, NULL,
			    SOCK_CLOEXEC)) == -1)
				continue;
			if ((pid = fork()) == 0)
				serve(fd, i);
			close(fd);
		}
	}
}
