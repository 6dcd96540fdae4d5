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
 * The honest floor of an exec: the Engine API spoken raw over its unix
 * socket (HTTP/1.1, a connection a call), as a daemon would, with no
 * process start per step.  Creates, starts and inspects an exec of CMD
 * in CONTAINER as USER ROUNDS times; prints each round's microseconds,
 * from the first connect to the exit code.  Any failed step (a refused
 * call, a nonzero exit code) fails the run.
 * usage: engine_exec SOCKET CONTAINER USER ROUNDS CMD
 */

#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char	*sock_path;

static long long
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * One call on a fresh connection: the whole answer, up to the close, in
 * ans (NUL-terminated, cut at size); its status code.
 */
static int
call(const char *method, const char *path, const char *body, char *ans,
    size_t size)
{
	struct sockaddr_un	 sun;
	char			 req[1024];
	size_t			 got = 0;
	ssize_t			 n;
	int			 fd, len, status;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, sock_path, sizeof(sun.sun_path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "connect %s", sock_path);
	len = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: docker\r\n"
	    "Connection: close\r\nContent-Type: application/json\r\n"
	    "Content-Length: %zu\r\n\r\n%s", method, path, strlen(body), body);
	if (len < 0 || (size_t)len >= sizeof(req))
		errx(1, "request too long");
	if (write(fd, req, len) != len)
		err(1, "write");
	while (got + 1 < size &&
	    (n = read(fd, ans + got, size - 1 - got)) > 0)
		got += n;
	/* Drain what did not fit: the stream of the exec's output. */
	while (got + 1 >= size && read(fd, req, sizeof(req)) > 0)
		;
	close(fd);
	ans[got] = '\0';
	if (sscanf(ans, "HTTP/1.%*d %d", &status) != 1)
		errx(1, "%s %s: not HTTP", method, path);
	return status;
}

/* The value of a JSON string field "name":"..." in s, into out. */
static void
field(const char *s, const char *name, char *out, size_t size)
{
	char		 key[64];
	const char	*p, *e;

	snprintf(key, sizeof(key), "\"%s\":\"", name);
	if ((p = strstr(s, key)) == NULL)
		errx(1, "no %s in: %.200s", name, s);
	p += strlen(key);
	if ((e = strchr(p, '"')) == NULL || (size_t)(e - p) >= size)
		errx(1, "bad %s", name);
	memcpy(out, p, e - p);
	out[e - p] = '\0';
}

static long long
one_exec(const char *container, const char *user, const char *cmd)
{
	static char	 ans[65536];
	char		 path[256], body[512], id[128];
	long long	 t0 = now_us();
	int		 st;

	snprintf(path, sizeof(path), "/v1.41/containers/%s/exec", container);
	snprintf(body, sizeof(body), "{\"User\":\"%s\",\"AttachStdout\":true,"
	    "\"AttachStderr\":true,\"Cmd\":[\"%s\"]}", user, cmd);
	if ((st = call("POST", path, body, ans, sizeof(ans))) != 201)
		errx(1, "exec create: %d: %.200s", st, ans);
	field(ans, "Id", id, sizeof(id));
	snprintf(path, sizeof(path), "/v1.41/exec/%s/start", id);
	if ((st = call("POST", path, "{\"Detach\":false,\"Tty\":false}", ans,
	    sizeof(ans))) != 200)
		errx(1, "exec start: %d: %.200s", st, ans);
	snprintf(path, sizeof(path), "/v1.41/exec/%s/json", id);
	if ((st = call("GET", path, "", ans, sizeof(ans))) != 200)
		errx(1, "exec inspect: %d: %.200s", st, ans);
	if (strstr(ans, "\"Running\":false") == NULL ||
	    strstr(ans, "\"ExitCode\":0") == NULL)
		errx(1, "the exec did not end with 0: %.300s", ans);
	return now_us() - t0;
}

int
main(int argc, char *argv[])
{
	const char	*errstr;
	long long	 rounds, i;

	if (argc != 6)
		errx(2, "usage: engine_exec SOCKET CONTAINER USER ROUNDS CMD");
	sock_path = argv[1];
	rounds = strtonum(argv[4], 1, 100000, &errstr);
	if (errstr != NULL)
		errx(2, "rounds %s: %s", argv[4], errstr);
	for (i = 0; i < rounds; i++)
		printf("%lld\n", one_exec(argv[2], argv[3], argv[5]));
	return 0;
}
