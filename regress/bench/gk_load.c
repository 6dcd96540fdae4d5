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
 * Load and sink for regress/bench/gatekeeper.sh, in C so that neither
 * end is slower than the gatekeeper between them.  The client writes a
 * pattern in 1 MiB writes; the sink counts and never hashes.  "verify"
 * checks every byte of one stream, run apart from the timed ones.
 *   gk_load sink ADDR PORT                serve: count, or check on VERIFY
 *   gk_load thru ADDR PORT TARGET BYTES   one stream; MB/s
 *   gk_load par ADDR PORT TARGET N BYTES  N streams at once; aggregate
 *   gk_load verify ADDR PORT TARGET BYTES one stream, checked byte by byte
 * TARGET "-" is a direct connection, else a CONNECT through ADDR:PORT.
 */

#include <sys/socket.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	(1 << 20)
#define PERIOD	251	/* the pattern: byte at offset o is o % 251 */

static unsigned char	 pattern[CHUNK + PERIOD];

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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
			err(1, "write");
		}
		p += n;
		len -= n;
	}
}

static struct sockaddr_in
address(const char *addr, const char *port)
{
	struct sockaddr_in	 sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(atoi(port));
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		errx(2, "bad address %s", addr);
	return sin;
}

/* A connection to the sink, through the corridor unless target is "-". */
static int
open_stream(const char *addr, const char *port, const char *target)
{
	struct sockaddr_in	 sin = address(addr, port);
	char			 head[512];
	size_t			 got = 0;
	int			 fd;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		err(1, "connect %s:%s", addr, port);
	if (strcmp(target, "-") == 0)
		return fd;
	snprintf(head, sizeof(head), "CONNECT %s HTTP/1.1\r\n\r\n", target);
	put(fd, head, strlen(head));
	/* A byte at a time: nothing of the tunnel is read as the head. */
	while (got < 4 || memcmp(head + got - 4, "\r\n\r\n", 4) != 0) {
		if (got + 1 >= sizeof(head) || read(fd, head + got, 1) != 1)
			errx(1, "CONNECT %s: no answer", target);
		got++;
	}
	head[got] = '\0';
	if (strncmp(head, "HTTP/1.1 200 ", 13) != 0)
		errx(1, "CONNECT %s refused: %.40s", target, head);
	return fd;
}

/* One stream of n bytes to the sink; fails unless it counted all. */
static void
stream(const char *addr, const char *port, const char *target,
    long long n, int verify)
{
	char		 reply[64];
	long long	 sent = 0, k;
	ssize_t		 r;
	size_t		 got = 0;
	int		 fd = open_stream(addr, port, target);

	put(fd, verify ? "VERIFY\n" : "SINK\n", verify ? 7 : 5);
	while (sent < n) {
		k = n - sent < CHUNK ? n - sent : CHUNK;
		put(fd, pattern + sent % PERIOD, k);
		sent += k;
	}
	shutdown(fd, SHUT_WR);
	while (got + 1 < sizeof(reply) &&
	    (r = read(fd, reply + got, sizeof(reply) - 1 - got)) > 0)
		got += r;
	reply[got] = '\0';
	close(fd);
	if (atoll(reply) != n)
		errx(1, "the sink counted %s of %lld bytes", reply, n);
}

/* Per connection: count to EOF (or check the pattern), answer the count. */
static void
serve(int fd)
{
	static unsigned char	 buf[CHUNK];
	char			 mode[8], reply[32];
	long long		 got = 0, i;
	size_t			 m = 0;
	ssize_t			 n;
	int			 bad = 0;

	while (m < sizeof(mode) - 1 && read(fd, mode + m, 1) == 1 &&
	    mode[m] != '\n')
		m++;
	mode[m] = '\0';
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (strcmp(mode, "VERIFY") == 0)
			for (i = 0; i < n; i++)
				if (buf[i] != (got + i) % PERIOD)
					bad = 1;
		got += n;
	}
	snprintf(reply, sizeof(reply), "%lld\n", bad ? -1 : got);
	put(fd, reply, strlen(reply));
	_exit(0);
}

static void
sink(const char *addr, const char *port)
{
	struct sockaddr_in	 sin = address(addr, port);
	int			 s, fd, one = 1;

	signal(SIGCHLD, SIG_IGN);
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == -1 ||
	    bind(s, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(s, 128) == -1)
		err(1, "listen %s:%s", addr, port);
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		if ((fd = accept(s, NULL, NULL)) == -1)
			continue;
		if (fork() == 0) {
			close(s);
			serve(fd);
		}
		close(fd);
	}
}

/* n streams at once, a process each; fails if any does. */
static void
parallel(const char *addr, const char *port, const char *target, int k,
    long long n)
{
	double	 t;
	int	 i, status, bad = 0;

	t = now();
	for (i = 0; i < k; i++)
		if (fork() == 0) {
			stream(addr, port, target, n, 0);
			_exit(0);
		}
	for (i = 0; i < k; i++)
		if (wait(&status) == -1 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			bad = 1;
	t = now() - t;
	if (bad)
		errx(1, "a stream failed");
	printf("%.1f MB/s (%d streams, %lld bytes)\n", k * n / t / 1e6, k,
	    k * n);
}

int
main(int argc, char *argv[])
{
	double	 t;
	int	 i;

	for (i = 0; i < (int)sizeof(pattern); i++)
		pattern[i] = i % PERIOD;
	signal(SIGPIPE, SIG_IGN);
	if (argc == 4 && strcmp(argv[1], "sink") == 0)
		sink(argv[2], argv[3]);
	else if (argc == 6 && strcmp(argv[1], "thru") == 0) {
		t = now();
		stream(argv[2], argv[3], argv[4], atoll(argv[5]), 0);
		t = now() - t;
		printf("%.1f MB/s (%lld bytes)\n", atoll(argv[5]) / t / 1e6,
		    atoll(argv[5]));
	} else if (argc == 6 && strcmp(argv[1], "verify") == 0) {
		stream(argv[2], argv[3], argv[4], atoll(argv[5]), 1);
		printf("intact (%lld bytes)\n", atoll(argv[5]));
	} else if (argc == 7 && strcmp(argv[1], "par") == 0)
		parallel(argv[2], argv[3], argv[4], atoi(argv[5]),
		    atoll(argv[6]));
	else
		errx(2, "usage: gk_load sink|thru|par|verify ...");
	return 0;
}
