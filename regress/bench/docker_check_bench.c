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
 * Round trip of the check operation against the live daemon, fresh connection
 * each call, against a baseline measured in the same run: the same
 * GET /version written and read raw (HTTP/1.0, read to EOF, no parsing).
 * Engine 20.10 runs runc and docker-init --version inside /version, so
 * the daemon dominates; /_ping is printed for scale.
 * Prints medians over N calls and the ratio.  Never asserts a time.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <err.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "place_proto.h"
#include "worker-docker/docker_ops.h"
#include "worker-docker/docker_req.h"

#define CALLS	100

static const char	*sock_path = "/var/run/docker.sock";

static int
connect_docker(void)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, sock_path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		errx(1, "socket path too long");
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		err(1, "socket");
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		err(1, "connect %s", sock_path);
	return fd;
}

static double
now_us(void)
{
	struct timespec	 t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
raw_get(const char *req)
{
	char		 buf[65536];
	int		 fd = connect_docker();

	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		err(1, "write");
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static struct docker_check_msg	 answer;

static void
capture(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (type != IMSG_DOCKER_CHECK_REP || len != sizeof(answer))
		errx(1, "unexpected answer %u", type);
	memcpy(&answer, data, len);
}

/* The check operation as the worker runs it, on a loop of its own. */
static void
checked(void)
{
	struct event_base	*base;

	if ((base = event_base_new()) == NULL)
		errx(1, "event_base_new");
	docker_req_init(base, capture, IMSG_SPACE_CONN_REQ);
	docker_req_start(docker_op_find(IMSG_DOCKER_CHECK_REQ), 1,
	    connect_docker(), 0, NULL, 0);
	event_base_dispatch(base);
	event_base_free(base);
	if (!answer.dc_available)
		errx(1, "check: %s", answer.dc_code);
}

int
main(int argc, char *argv[])
{
	const char	*version = "GET /version HTTP/1.0\r\nHost: docker\r\n\r\n";
	const char	*ping = "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n";
	double		 raw[CALLS], chk[CALLS], png[CALLS], t, mraw, mchk;
	int		 i;

	if (argc > 1)
		sock_path = argv[1];
	for (i = 0; i < 5; i++) {	/* warm up both paths */
		raw_get(version);
		checked();
	}
	/* Interleaved, so drift in the daemon hits both alike. */
	for (i = 0; i < CALLS; i++) {
		t = now_us();
		raw_get(version);
		raw[i] = now_us() - t;
		t = now_us();
		raw_get(ping);
		png[i] = now_us() - t;
		t = now_us();
		checked();
		chk[i] = now_us() - t;
	}
	mraw = median(raw, CALLS);
	mchk = median(chk, CALLS);
	printf("check op, fresh connection:     median %.0f us over %d calls\n",
	    mchk, CALLS);
	printf("baseline raw GET /version:      median %.0f us\n", mraw);
	printf("ratio check/raw: %.2f\n", mchk / mraw);
	/* Context: what the daemon costs without /version's own work. */
	printf("for scale, raw GET /_ping:      median %.0f us\n",
	    median(png, CALLS));
	return 0;
}
