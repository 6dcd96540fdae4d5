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


/* The raw Engine API client of the benches' baselines (engine_client.h). */

#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine_client.h"

const char	*ec_sock;

long long
ec_now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int
ec_dial(void)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, ec_sock, sizeof(sun.sun_path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "connect %s", ec_sock);
	return fd;
}

/*
 * One call on a fresh connection.  With in (an exec's start), the
 * hijacked stream: in's inlen bytes written after the 101, then the write
 * side shut.  The whole answer, up to the close, in ans (NUL-terminated,
 * cut at size; the rest drained); its status code.
 */
int
ec_call(const char *method, const char *path, const char *type,
    const char *body, size_t blen, const char *in, size_t inlen, char *ans,
    size_t size)
{
	char		 req[4096];
	size_t		 got = 0;
	ssize_t		 n;
	int		 fd, len, status;

	fd = ec_dial();
	len = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: docker\r\n"
	    "%sContent-Type: %s\r\nContent-Length: %zu\r\n\r\n", method,
	    path, in != NULL ? "Connection: Upgrade\r\nUpgrade: tcp\r\n" :
	    "Connection: close\r\n", type, blen);
	if (len < 0 || (size_t)len >= sizeof(req))
		errx(1, "request too long");
	if (write(fd, req, len) != len ||
	    (blen > 0 && write(fd, body, blen) != (ssize_t)blen))
		err(1, "write");
	if (in != NULL) {
		/* The engine reads stdin once it has answered 101. */
		if ((n = read(fd, ans, size - 1)) <= 0)
			errx(1, "%s: no answer", path);
		got = n;
		if (write(fd, in, inlen) != (ssize_t)inlen)
			err(1, "write stdin");
		shutdown(fd, SHUT_WR);
	}
	while (got + 1 < size && (n = read(fd, ans + got, size - 1 - got)) > 0)
		got += n;
	/* Drain what did not fit: the stream of an exec's output. */
	while (got + 1 >= size && read(fd, req, sizeof(req)) > 0)
		;
	close(fd);
	ans[got] = '\0';
	if (sscanf(ans, "HTTP/1.%*d %d", &status) != 1)
		errx(1, "%s %s: not HTTP", method, path);
	return status;
}

/* The value of a JSON string field "name":"..." in s, into out. */
void
ec_field(const char *s, const char *name, char *out, size_t size)
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
