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
 * The check operation against the real daemon.  The test process connects (the
 * worker never does; the supervisor hands it the fd) and compares the
 * check with a second, independent raw read of GET /version.  CI starts
 * dockerd, so a missing socket is a failure, not a skip.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <criterion/criterion.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "place_proto.h"
#include "worker-docker/docker_check.h"
#include "worker-docker/docker_req.h"
#include "inproc.h"

#ifndef DOCKER_SOCK
#define DOCKER_SOCK	"/var/run/docker.sock"
#endif

static int
connect_docker(void)
{
	struct sockaddr_un	 sun;
	int			 fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strlcpy(sun.sun_path, DOCKER_SOCK, sizeof(sun.sun_path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(fd, 0);
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		cr_assert_fail("no Docker daemon on " DOCKER_SOCK " (%s): "
		    "the live test needs one; start it with tools/dockerd.sh",
		    strerror(errno));
	return fd;
}

/* HTTP/1.0 so the daemon closes after the answer; read to EOF. */
static json_t *
raw_version(void)
{
	const char	*req = "GET /version HTTP/1.0\r\nHost: docker\r\n\r\n";
	static char	 buf[1 << 20];
	size_t		 got = 0;
	ssize_t		 n;
	char		*body;
	json_t		*root;
	int		 fd = connect_docker();

	cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while (got < sizeof(buf) - 1 &&
	    (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	cr_assert(strncmp(buf, "HTTP/1.", 7) == 0, "raw answer: %.40s", buf);
	cr_assert_not_null(body = strstr(buf, "\r\n\r\n"));
	root = json_loads(body + 4, 0, NULL);
	cr_assert_not_null(root, "raw /version body is not JSON");
	return root;
}

static void
assert_same(json_t *root, const char *key, const char *have)
{
	const char	*want = json_string_value(json_object_get(root, key));

	cr_assert_not_null(want, "raw /version has no %s", key);
	cr_assert_str_eq(have, want, "%s", key);
}

Test(live, check_matches_raw_version)
{
	struct docker_check_msg	 m;
	json_t			*raw;
	char			 use[16];

	inproc_check(connect_docker(), 5000, &m);
	cr_assert_eq(m.dc_available, 1, "daemon not available: %s",
	    m.dc_code);
	cr_assert_str_eq(m.dc_code, "");

	raw = raw_version();
	assert_same(raw, "Version", m.dc_version);
	assert_same(raw, "ApiVersion", m.dc_api_version);
	assert_same(raw, "MinAPIVersion", m.dc_min_api_version);
	assert_same(raw, "Os", m.dc_os);
	assert_same(raw, "Arch", m.dc_arch);
	json_decref(raw);

	cr_assert_eq(m.dc_host_isolation, 1);
	cr_assert_null(docker_api_negotiate(m.dc_api_version,
	    m.dc_min_api_version, use, sizeof(use)));
	cr_assert_leq(docker_api_cmp(use, DOCKER_API_OURS_MAX), 0);
	cr_assert_geq(docker_api_cmp(use, DOCKER_API_OURS_MIN), 0);
}

/* keep-alive: one connection serves /_ping, then /version. */
Test(live, two_calls_on_one_connection)
{
	struct event_base	*base = inproc_begin();

	cr_assert_eq(docker_req_start(&inproc_ping_version_op, 5,
	    connect_docker(), 5000, NULL, 0), 0);
	event_base_dispatch(base);
	cr_assert_eq(inproc_answers, 1);
	cr_assert_str_eq((char *)inproc_last, "ok 2 200");
	inproc_end(base);
}
