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
 * Request round trip spacectl -> spaced -> worker -> back: N pings over
 * the control socket, each timed, against a raw socketpair echo between
 * two processes measured in the same run.  Prints median and p99 of both
 * and the ratio of the medians.  usage: ctl_rtt socket [count]
 */

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "imsg.h"
#include "ctl_proto.h"

static double
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
stats(const char *what, double *v, int n, double *median)
{
	qsort(v, n, sizeof(*v), cmp);
	*median = v[n / 2];
	printf("%-34s median %8.1f us   p99 %8.1f us   (n=%d)\n", what,
	    v[n / 2], v[(n * 99) / 100], n);
}

/* One request, its answers until END. */
static void
ping(struct imsgbuf *ib, uint32_t proc)
{
	struct ping_msg	 pg = { proc };
	struct imsg	 imsg;
	ssize_t		 r;
	int		 n, done = 0;

	if (imsg_compose(ib, IMSG_CTL_PING, CTL_PEERID(0), 0, -1, &pg,
	    sizeof(pg)) == -1 || imsgbuf_flush(ib) == -1)
		err(1, "send");
	while (!done) {
		if ((n = imsgbuf_get(ib, &imsg)) == -1)
			err(1, "get");
		if (n == 0) {
			if ((r = imsgbuf_read(ib)) == 0)
				errx(1, "spaced went away");
			if (r == -1 && errno == EAGAIN) {
				struct pollfd pfd = { ib->fd, POLLIN, 0 };

				(void)poll(&pfd, 1, 5000);
			} else if (r == -1)
				err(1, "read");
			continue;
		}
		if (imsg_get_type(&imsg) != IMSG_CTL_END)
			errx(1, "answer %u", imsg_get_type(&imsg));
		done = 1;
		imsg_free(&imsg);
	}
}

int
main(int argc, char *argv[])
{
	struct sockaddr_un	 sun;
	struct imsgbuf		 ib;
	double			*v, t, m_ctl, m_raw;
	char			 buf[32];
	int			 s, sp[2], i, n = 2000;
	pid_t			 pid;

	if (argc < 2)
		errx(2, "usage: ctl_rtt socket [count]");
	if (argc > 2)
		n = atoi(argv[2]);
	if (n < 100)
		n = 100;
	if ((v = calloc(n, sizeof(*v))) == NULL)
		err(1, "calloc");

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, argv[1], sizeof(sun.sun_path));
	/* One connection per 1000 requests: spaced's idle timer is 30 s. */
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "%s", argv[1]);
	imsgbuf_init(&ib, s);
	for (i = 0; i < 50; i++)
		ping(&ib, PROC_GIT);	/* warm up */
	for (i = 0; i < n; i++) {
		t = now_us();
		ping(&ib, PROC_GIT);
		v[i] = now_us() - t;
	}
	stats("spacectl->spaced->spaced-git->back", v, n, &m_ctl);
	imsgbuf_clear(&ib);
	close(s);

	/* Baseline: the same size of message, echoed by another process. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
		err(1, "socketpair");
	if ((pid = fork()) == 0) {
		close(sp[0]);
		while (read(sp[1], buf, 20) == 20)
			if (write(sp[1], buf, 20) != 20)
				break;
		_exit(0);
	}
	close(sp[1]);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < n; i++) {
		t = now_us();
		if (write(sp[0], buf, 20) != 20 || read(sp[0], buf, 20) != 20)
			err(1, "echo");
		v[i] = now_us() - t;
	}
	close(sp[0]);
	waitpid(pid, NULL, 0);
	stats("baseline: socketpair echo", v, n, &m_raw);
	printf("ratio baseline/spaced (median): %.2f (two hops and two "
	    "dispatches against one hop)\n", m_raw / m_ctl);
	free(v);
	return 0;
}
