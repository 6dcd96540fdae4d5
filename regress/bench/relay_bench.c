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
 * Throughput of one connection through spaced-relay (TCP on 127.0.0.1
 * to corridor.sock) against the same bytes over a direct UNIX socket,
 * in one run, with large writes; and the relay's resident memory.
 *
 * usage: relay_bench sockdir megabytes relay-pid
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	(1 << 20)

static void
die(const char *what)
{
	perror(what);
	exit(1);
}

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A sink at path: reads to EOF, answers one byte, once. */
static pid_t
sink(const char *path)
{
	struct sockaddr_un	 sun;
	static char		 buf[CHUNK];
	int			 l, c;
	pid_t			 pid;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	unlink(path);
	if ((l = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(l, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(l, 4) == -1)
		die("sink listen");
	if ((pid = fork()) == -1)
		die("fork");
	if (pid == 0) {
		if ((c = accept(l, NULL, NULL)) == -1)
			die("accept");
		while (read(c, buf, sizeof(buf)) > 0)
			;
		if (write(c, "k", 1) != 1)
			die("sink write");
		_exit(0);
	}
	close(l);
	return pid;
}

static double
send_all(int s, size_t mb)
{
	static char	 buf[CHUNK];
	double		 t = now();
	size_t		 i, off;
	ssize_t		 n;
	char		 k;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < mb; i++)
		for (off = 0; off < sizeof(buf); off += (size_t)n)
			if ((n = write(s, buf + off, sizeof(buf) - off)) <= 0)
				die("write");
	shutdown(s, SHUT_WR);
	if (read(s, &k, 1) != 1)
		die("no answer from the sink");
	close(s);
	return now() - t;
}

static double
direct(const char *dir, size_t mb)
{
	struct sockaddr_un	 sun;
	pid_t			 pid;
	double			 t;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/direct.sock", dir);
	pid = sink(sun.sun_path);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		die("connect direct");
	t = send_all(s, mb);
	waitpid(pid, NULL, 0);
	unlink(sun.sun_path);
	return t;
}

static double
relayed(const char *dir, size_t mb)
{
	struct sockaddr_in	 sin;
	char			 path[108];
	pid_t			 pid;
	double			 t;
	int			 s;

	snprintf(path, sizeof(path), "%s/corridor.sock", dir);
	pid = sink(path);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(3128);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		die("connect relay");
	t = send_all(s, mb);
	waitpid(pid, NULL, 0);
	unlink(path);
	return t;
}

static void
rss(const char *pid)
{
	char	 path[64], line[128];
	FILE	*f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	if ((f = fopen(path, "r")) == NULL)
		die(path);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmRSS:", 6) == 0 ||
		    strncmp(line, "VmHWM:", 6) == 0)
			printf("relay %s", line);
	fclose(f);
}

int
main(int argc, char *argv[])
{
	double	 d = 1e9, r = 1e9, t;
	size_t	 mb;
	int	 i;

	if (argc != 4) {
		fprintf(stderr, "usage: relay_bench sockdir megabytes pid\n");
		return 2;
	}
	mb = strtoul(argv[2], NULL, 10);
	rss(argv[3]);
	/* Best of three each, interleaved, so drift hits both alike. */
	for (i = 0; i < 3; i++) {
		if ((t = direct(argv[1], mb)) < d)
			d = t;
		if ((t = relayed(argv[1], mb)) < r)
			r = t;
	}
	printf("direct unix socket: %zu MiB in %.3f s, %.0f MiB/s\n", mb, d,
	    mb / d);
	printf("through the relay:  %zu MiB in %.3f s, %.0f MiB/s\n", mb, r,
	    mb / r);
	printf("ratio relay/direct: %.2f\n", d / r);
	rss(argv[3]);
	return 0;
}
