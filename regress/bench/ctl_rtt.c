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
 * two processes measured in the same run; then the same pings while
 * another client keeps ten slow checks in flight (spaced's Engine is a
 * stand-in that answers after a delay: ctl_rtt.sh).  Prints median and
 * p99 of each and the ratios.  usage: ctl_rtt socket [count]
 */

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
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

static int
ctl_connect(const char *path)
{
	struct sockaddr_un	 sun;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, path, sizeof(sun.sun_path));
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "%s", path);
	return s;
}

/*
 * The load: ten checks in flight on one connection, each sent again as
 * soon as it ends, until the parent kills us.  Counts what ended.
 */
static void __attribute__((noreturn))
slow_load(const char *path, int inflight)
{
	struct imsgbuf	 ib;
	struct imsg	 imsg;
	struct pollfd	 pfd;
	ssize_t		 r;
	int		 n, t;

	imsgbuf_init(&ib, ctl_connect(path));
	for (t = 1; t <= inflight; t++)
		if (imsg_compose(&ib, IMSG_CTL_CHECK, CTL_PEERID(t), 0, -1,
		    NULL, 0) == -1)
			err(1, "compose");
	if (imsgbuf_flush(&ib) == -1)
		err(1, "send");
	for (;;) {
		while ((n = imsgbuf_get(&ib, &imsg)) == 1) {
			t = imsg_get_type(&imsg);
			if (t == IMSG_CTL_END || t == IMSG_CTL_FAIL) {
				if (imsg_compose(&ib, IMSG_CTL_CHECK,
				    imsg_get_peerid(&imsg), 0, -1, NULL, 0)
				    == -1 || imsgbuf_flush(&ib) == -1)
					err(1, "send");
			}
			imsg_free(&imsg);
		}
		if (n == -1)
			err(1, "get");
		pfd.fd = ib.fd;
		pfd.events = POLLIN;
		(void)poll(&pfd, 1, 5000);
		if ((r = imsgbuf_read(&ib)) == 0)
			_exit(0);
		if (r == -1 && errno != EAGAIN)
			err(1, "read");
	}
}

int
main(int argc, char *argv[])
{
	struct imsgbuf		 ib;
	double			*v, t, m_ctl, m_raw, m_load, p99_ctl, p99_load;
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

	s = ctl_connect(argv[1]);
	imsgbuf_init(&ib, s);
	for (i = 0; i < 50; i++)
		ping(&ib, PROC_DOCKER);	/* warm up */
	for (i = 0; i < n; i++) {
		t = now_us();
		ping(&ib, PROC_DOCKER);
		v[i] = now_us() - t;
	}
	stats("spacectl->spaced->spaced-docker->back", v, n, &m_ctl);
	p99_ctl = v[(n * 99) / 100];

	/* The same pings, with ten slow checks in flight meanwhile. */
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0)
		slow_load(argv[1], 10);
	usleep(200 * 1000);	/* let the ten reach the Engine */
	for (i = 0; i < n; i++) {
		t = now_us();
		ping(&ib, PROC_DOCKER);
		v[i] = now_us() - t;
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	stats("the same, ten slow checks in flight", v, n, &m_load);
	p99_load = v[(n * 99) / 100];
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
	printf("ratio loaded/alone: median %.2f, p99 %.2f (1.0: the slow "
	    "checks cost the pings nothing)\n", m_load / m_ctl,
	    p99_load / p99_ctl);
	free(v);
	return 0;
}
