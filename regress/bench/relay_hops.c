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
 * The floor of a process hop on this machine, for exec_tty.sh: one byte
 * and its echo, straight to an echoing process and through two minimal
 * relays between (epoll, read, write: what a hop of spaced or
 * spaced-docker cannot go below).  Two relays are four hops a round, as
 * spaced and spaced-docker add to a keystroke.  With a pause between
 * bytes (milliseconds) the hops start cold, as keys typed by a person.
 * Prints the two medians, microseconds.
 * usage: relay_hops [samples [pause]]
 */

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void
relay(int a, int b)
{
	struct epoll_event	 e, ev[2];
	char			 buf[4096];
	ssize_t			 r;
	int			 ep, i, n;

	if ((ep = epoll_create1(0)) == -1)
		err(1, "epoll_create1");
	e.events = EPOLLIN;
	e.data.fd = a;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, a, &e) == -1)
		err(1, "epoll_ctl");
	e.data.fd = b;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, b, &e) == -1)
		err(1, "epoll_ctl");
	for (;;) {
		if ((n = epoll_wait(ep, ev, 2, -1)) == -1)
			err(1, "epoll_wait");
		for (i = 0; i < n; i++) {
			if ((r = read(ev[i].data.fd, buf, sizeof(buf))) <= 0)
				_exit(0);
			if (write(ev[i].data.fd == a ? b : a, buf, r) != r)
				_exit(1);
		}
	}
}

static void
echo(int fd)
{
	char	 buf[64];
	ssize_t	 r;

	while ((r = read(fd, buf, sizeof(buf))) > 0)
		if (write(fd, buf, r) != r)
			break;
	_exit(0);
}

static double
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
by_value(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median round trip, microseconds, through relays relays. */
static double
round_trip(int relays, int n, double pause_ms)
{
	struct timespec	 pause;
	double		*v, t0, p50;
	char		 c = 'x';
	int		 sv[2], mine, left, i;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		err(1, "socketpair");
	mine = sv[0];
	left = sv[1];
	for (i = 0; i < relays; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
			err(1, "socketpair");
		if (fork() == 0) {
			close(mine);
			close(sv[0]);
			relay(left, sv[1]);
		}
		close(left);
		close(sv[1]);
		left = sv[0];
	}
	if (fork() == 0) {
		close(mine);
		echo(left);
	}
	close(left);
	if ((v = calloc(n, sizeof(*v))) == NULL)
		err(1, "calloc");
	pause.tv_sec = pause_ms / 1000;
	pause.tv_nsec = (long)(pause_ms * 1e6) % 1000000000L;
	for (i = 0; i < n; i++) {
		if (pause_ms > 0)
			nanosleep(&pause, NULL);
		t0 = now_us();
		if (write(mine, &c, 1) != 1 || read(mine, &c, 1) != 1)
			errx(1, "a hop failed");
		v[i] = now_us() - t0;
	}
	close(mine);
	while (wait(NULL) > 0)
		;
	qsort(v, n, sizeof(*v), by_value);
	p50 = v[n / 2];
	free(v);
	return p50;
}

int
main(int argc, char *argv[])
{
	int	 n = argc > 1 ? atoi(argv[1]) : 20000;
	double	 pause_ms = argc > 2 ? atof(argv[2]) : 0;
	double	 direct, relayed;

	if (n < 1 || pause_ms < 0)
		errx(1, "usage: relay_hops [samples [pause]]");
	direct = round_trip(0, n, pause_ms);
	relayed = round_trip(2, n, pause_ms);
	printf("%.1f %.1f\n", direct, relayed);
	return 0;
}
