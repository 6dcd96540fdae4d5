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
 * The check operation against a fake Engine: a forked child on the other end of
 * a socketpair reads our request and writes a canned answer, so the
 * check runs its real I/O path across a process boundary.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "place_proto.h"
#include "worker-docker/docker_check.h"
#include "worker-docker/docker_http.h"
#include "inproc.h"

/* A short deadline keeps the slow-engine test well under 2 s. */
#define SHORT_MS	300

enum fake_mode {
	FAKE_ANSWER,		/* answer, then close */
	FAKE_SILENT,		/* read the request, never answer */
	FAKE_CLOSE,		/* read the request, close without a byte */
};

#define GOOD_JSON(ver, api, min) "{\"Platform\":{\"Name\":\"\"}," \
	"\"Components\":[{\"Name\":\"Engine\",\"Version\":\"" ver "\"}]," \
	"\"Version\":\"" ver "\",\"ApiVersion\":\"" api "\"," \
	"\"MinAPIVersion\":\"" min "\",\"Os\":\"linux\",\"Arch\":\"amd64\"," \
	"\"KernelVersion\":\"6.1.0\"}"

/* Captured from Engine 20.10.24 with curl -i (Date trimmed). */
static const char real_2010[] = "HTTP/1.1 200 OK\r\n"
    "Api-Version: 1.41\r\nContent-Type: application/json\r\n"
    "Docker-Experimental: false\r\nOstype: linux\r\n"
    "Server: Docker/20.10.24+dfsg1 (linux)\r\nContent-Length: 218\r\n\r\n"
    "{\"Platform\":{\"Name\":\"\"},\"Version\":\"20.10.24+dfsg1\","
    "\"ApiVersion\":\"1.41\",\"MinAPIVersion\":\"1.12\",\"GitCommit\":"
    "\"5d6db84\",\"GoVersion\":\"go1.19.8\",\"Os\":\"linux\",\"Arch\":"
    "\"amd64\",\"KernelVersion\":\"6.18.44-fc-v1098\",\"BuildTime\":\"x\"}";

static char *
http_ok(const char *json)
{
	char	*s;

	cr_assert_neq(asprintf(&s, "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(json),
	    json), -1);
	return s;
}

/* A cut answer never gets to /info: the client still waits for it. */
static int		 serve_info = 1;
/* What the fake says to GET /info, the check's second call. */
static const char	*info_json = "{\"SecurityOptions\":"
			    "[\"name=seccomp,profile=default\"]}";

/* After the answer to /version: /info when asked on the connection. */
static void
fake_info(int fd)
{
	char	 req[8192], *a;
	size_t	 got = 0;
	ssize_t	 n;

	while (got < sizeof(req) - 1) {
		if ((n = read(fd, req + got, sizeof(req) - 1 - got)) <= 0)
			return;
		got += n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	if (strncmp(req, "GET /v1.", 8) != 0 || strstr(req, "/info HTTP/1.1")
	    == NULL)
		_exit(5);
	if (asprintf(&a, "HTTP/1.1 200 OK\r\nContent-Type: application/json"
	    "\r\nContent-Length: %zu\r\n\r\n%s", strlen(info_json),
	    info_json) == -1 || write(fd, a, strlen(a)) != (ssize_t)strlen(a))
		_exit(4);
}

/* The child: exit 0 when our request was the one the Engine expects. */
static __attribute__((__noreturn__)) void
fake_engine(int fd, const char *answer, size_t len, enum fake_mode mode)
{
	char	 req[8192];
	size_t	 got = 0;
	ssize_t	 n;
	int	 ok;

	/* Bounded, so a client that never gives up cannot hang the test. */
	alarm(5);
	while (got < sizeof(req) - 1) {
		if ((n = read(fd, req + got, sizeof(req) - 1 - got)) <= 0)
			_exit(3);
		got += n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	ok = strncmp(req, "GET /version HTTP/1.1\r\n", 23) == 0 &&
	    strstr(req, "\r\nHost: docker\r\n") != NULL &&
	    strstr(req, "Content-Length") == NULL;
	if (mode == FAKE_SILENT) {
		while (read(fd, req, sizeof(req)) > 0)
			;
	} else if (mode == FAKE_ANSWER) {
		if (write(fd, answer, len) != (ssize_t)len)
			_exit(4);
		if (serve_info)
			fake_info(fd);
	}
	close(fd);
	_exit(ok ? 0 : 2);
}

static void
check_against(const char *answer, size_t len, enum fake_mode mode,
    int timeout_ms, struct docker_check_msg *m)
{
	int	 sv[2], status;
	pid_t	 pid;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	if ((pid = fork()) == 0) {
		close(sv[0]);
		fake_engine(sv[1], answer, len, mode);
	}
	cr_assert_gt(pid, 0);
	close(sv[1]);
	memset(m, 0xa5, sizeof(*m));	/* the check must set every byte */
	inproc_check(sv[0], timeout_ms, m);	/* takes sv[0] */
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "fake engine did not get a proper GET /version (status %d)",
	    status);
}

static void
check_json(const char *json, struct docker_check_msg *m)
{
	char	*a = http_ok(json);

	check_against(a, strlen(a), FAKE_ANSWER, 5000, m);
	free(a);
}

static void
assert_unavailable(const struct docker_check_msg *m, const char *code)
{
	cr_assert_eq(m->dc_available, 0);
	cr_assert_eq(m->dc_host_isolation, 0);
	cr_assert_str_eq(m->dc_code, code);
}

static void
assert_terminated(const struct docker_check_msg *m)
{
	cr_assert_not_null(memchr(m->dc_code, '\0', sizeof(m->dc_code)));
	cr_assert_not_null(memchr(m->dc_version, '\0',
	    sizeof(m->dc_version)));
	cr_assert_not_null(memchr(m->dc_api_version, '\0',
	    sizeof(m->dc_api_version)));
	cr_assert_not_null(memchr(m->dc_min_api_version, '\0',
	    sizeof(m->dc_min_api_version)));
	cr_assert_not_null(memchr(m->dc_os, '\0', sizeof(m->dc_os)));
	cr_assert_not_null(memchr(m->dc_arch, '\0', sizeof(m->dc_arch)));
}

Test(check, good_engine_28_isolates)
{
	struct docker_check_msg	 m;

	check_json(GOOD_JSON("28.0.1", "1.48", "1.24"), &m);
	assert_terminated(&m);
	cr_assert_eq(m.dc_available, 1);
	cr_assert_str_eq(m.dc_code, "");
	cr_assert_str_eq(m.dc_version, "28.0.1");
	cr_assert_str_eq(m.dc_api_version, "1.48");
	cr_assert_str_eq(m.dc_min_api_version, "1.24");
	cr_assert_str_eq(m.dc_os, "linux");
	cr_assert_str_eq(m.dc_arch, "amd64");
	cr_assert_eq(m.dc_host_isolation, 1);
}

Test(check, real_engine_2010_answer)
{
	struct docker_check_msg	 m;

	check_against(real_2010, strlen(real_2010), FAKE_ANSWER, 5000, &m);
	assert_terminated(&m);
	cr_assert_eq(m.dc_available, 1);
	cr_assert_str_eq(m.dc_version, "20.10.24+dfsg1");
	cr_assert_str_eq(m.dc_api_version, "1.41");
	/* loopback only: isolated by construction, 20.10 included */
	cr_assert_eq(m.dc_host_isolation, 1);
}

Test(check, every_engine_isolates)
{
	struct docker_check_msg	 m;

	check_json(GOOD_JSON("27.5.1", "1.47", "1.24"), &m);
	cr_assert_eq(m.dc_available, 1);
	cr_assert_eq(m.dc_host_isolation, 1);
	/* a dev build without a number */
	check_json(GOOD_JSON("dev", "1.52", "1.24"), &m);
	cr_assert_eq(m.dc_available, 1);
	cr_assert_eq(m.dc_host_isolation, 1);
}

Test(check, chunked_answer)
{
	const char	*a = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
			    "\r\n10\r\n{\"Version\":\"29.1\r\n"
			    "5b\r\n.0\",\"ApiVersion\":\"1.52\",\"MinAPIVersion\":"
			    "\"1.44\",\"Os\":\"linux\",\"Arch\":\"arm64\","
			    "\"Extra\":[1,2,3]}\r\n0\r\n\r\n";
	struct docker_check_msg	 m;

	check_against(a, strlen(a), FAKE_ANSWER, 5000, &m);
	cr_assert_eq(m.dc_available, 1, "code %s", m.dc_code);
	cr_assert_str_eq(m.dc_version, "29.1.0");
	cr_assert_str_eq(m.dc_arch, "arm64");
	cr_assert_eq(m.dc_host_isolation, 1);
}

Test(check, too_old)
{
	struct docker_check_msg	 m;

	check_json(GOOD_JSON("20.10.0", "1.40", "1.12"), &m);
	assert_terminated(&m);
	assert_unavailable(&m, ERR_DOCKER_TOO_OLD);
	/* what was found stays, so the message can name it */
	cr_assert_str_eq(m.dc_api_version, "1.40");
	/* positive control: one step up is enough */
	check_json(GOOD_JSON("20.10.0", "1.41", "1.12"), &m);
	cr_assert_eq(m.dc_available, 1);
}

Test(check, too_new)
{
	struct docker_check_msg	 m;

	check_json(GOOD_JSON("40.0.0", "1.70", "1.60"), &m);
	assert_unavailable(&m, ERR_DOCKER_TOO_NEW);
	check_json(GOOD_JSON("40.0.0", "1.70", "1.52"), &m);
	cr_assert_eq(m.dc_available, 1);
}

Test(check, not_json)
{
	struct docker_check_msg	 m;

	check_json("<html>hello</html>", &m);
	assert_terminated(&m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json("[\"Version\",\"28.0.0\"]", &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json(GOOD_JSON("28.0.1", "1.48", "1.24") "trailing", &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
}

Test(check, duplicate_keys)
{
	struct docker_check_msg	 m;

	/* a second ApiVersion that a last-wins reader would believe */
	check_json("{\"Version\":\"20.10.0\",\"ApiVersion\":\"1.40\","
	    "\"MinAPIVersion\":\"1.12\",\"Os\":\"linux\",\"Arch\":\"amd64\","
	    "\"ApiVersion\":\"1.48\"}", &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	/* and a duplicate deep inside something we do not read */
	check_json("{\"Version\":\"28.0.0\",\"ApiVersion\":\"1.48\","
	    "\"MinAPIVersion\":\"1.12\",\"Os\":\"linux\",\"Arch\":\"amd64\","
	    "\"Platform\":{\"Name\":\"a\",\"Name\":\"b\"}}", &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	/* positive control: the same without the duplicate */
	check_json("{\"Version\":\"28.0.0\",\"ApiVersion\":\"1.48\","
	    "\"MinAPIVersion\":\"1.12\",\"Os\":\"linux\",\"Arch\":\"amd64\","
	    "\"Platform\":{\"Name\":\"a\"}}", &m);
	cr_assert_eq(m.dc_available, 1);
}

Test(check, fields_refused_not_truncated)
{
	struct docker_check_msg	 m;
	char			 json[512], v[128];

	/* 63 characters fit dc_version[64]: positive control */
	memset(v, '9', 63);
	v[63] = '\0';
	snprintf(json, sizeof(json), GOOD_JSON("%s", "1.48", "1.24"), v, v);
	check_json(json, &m);
	cr_assert_eq(m.dc_available, 1, "code %s", m.dc_code);
	cr_assert_str_eq(m.dc_version, v);
	/* 64 do not: refused whole */
	memset(v, '9', 64);
	v[64] = '\0';
	snprintf(json, sizeof(json), GOOD_JSON("%s", "1.48", "1.24"), v, v);
	check_json(json, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(m.dc_version, "");

	check_json(GOOD_JSON("28.0.0\\n", "1.48", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json(GOOD_JSON("28.0.0", "1.48", "1.24\\u0000"), &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json(GOOD_JSON("28.0.0", "1.48.1", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json(GOOD_JSON("", "1.48", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json("{\"Version\":\"28.0.0\",\"ApiVersion\":1.48,"
	    "\"MinAPIVersion\":\"1.12\",\"Os\":\"linux\",\"Arch\":\"amd64\"}",
	    &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_json("{\"Version\":\"28.0.0\",\"ApiVersion\":\"1.48\","
	    "\"MinAPIVersion\":\"1.12\",\"Os\":\"linux\"}", &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
}

Test(check, not_200)
{
	const char		*json = GOOD_JSON("28.0.1", "1.48", "1.24");
	struct docker_check_msg	 m;
	char			*a;

	/* a well-formed body under an error status is not believed */
	cr_assert_neq(asprintf(&a, "HTTP/1.1 500 Internal Server Error\r\n"
	    "Content-Length: %zu\r\n\r\n%s", strlen(json), json), -1);
	check_against(a, strlen(a), FAKE_ANSWER, 5000, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	free(a);
}

Test(check, over_cap)
{
	const char		*a = "HTTP/1.1 200 OK\r\n"
				    "Content-Length: 1048577\r\n\r\n{";
	struct docker_check_msg	 m;

	check_against(a, strlen(a), FAKE_ANSWER, 5000, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
}

Test(check, slow_engine_times_out)
{
	struct docker_check_msg	 m;

	check_against(NULL, 0, FAKE_SILENT, SHORT_MS, &m);
	assert_terminated(&m);
	assert_unavailable(&m, ERR_TIMEOUT);
}

Test(check, closes_early)
{
	struct docker_check_msg	 m;
	char			*a;

	check_against(NULL, 0, FAKE_CLOSE, 5000, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREACHABLE);
	/* half an answer, then close: what came is unreadable */
	a = http_ok(GOOD_JSON("28.0.1", "1.48", "1.24"));
	serve_info = 0;
	check_against(a, strlen(a) - 10, FAKE_ANSWER, 5000, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	check_against(a, 20, FAKE_ANSWER, 5000, &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	free(a);
}

Test(check, not_a_socket)
{
	struct docker_check_msg	 m;
	int			 p[2];

	cr_assert_eq(pipe(p), 0);
	inproc_check(p[1], SHORT_MS, &m);	/* closes p[1] */
	assert_unavailable(&m, ERR_DOCKER_UNREACHABLE);
	cr_assert_eq(fcntl(p[1], F_GETFD), -1, "the fd was not closed");
	close(p[0]);
	inproc_check(p[1], SHORT_MS, &m);	/* closed fd */
	assert_unavailable(&m, ERR_DOCKER_UNREACHABLE);
}

Test(negotiate, versions)
{
	char	 b[16];

	cr_assert_null(docker_api_negotiate("1.41", NULL, b, sizeof(b)));
	cr_assert_str_eq(b, "1.41");
	cr_assert_null(docker_api_negotiate("1.48", "1.24", b, sizeof(b)));
	cr_assert_str_eq(b, "1.48");
	cr_assert_null(docker_api_negotiate("1.52", "1.44", b, sizeof(b)));
	cr_assert_str_eq(b, "1.52");
	/* theirs is newer: ours */
	cr_assert_null(docker_api_negotiate("1.53", NULL, b, sizeof(b)));
	cr_assert_str_eq(b, "1.52");
	cr_assert_null(docker_api_negotiate("1.100", NULL, b, sizeof(b)));
	cr_assert_str_eq(b, "1.52");
	cr_assert_null(docker_api_negotiate("2.0", NULL, b, sizeof(b)));
	cr_assert_str_eq(b, "1.52");
	/* numeric, not lexical: 1.9 is older than 1.41 */
	cr_assert_str_eq(docker_api_negotiate("1.9", NULL, b, sizeof(b)),
	    ERR_DOCKER_TOO_OLD);
	cr_assert_str_eq(docker_api_negotiate("1.40", NULL, b, sizeof(b)),
	    ERR_DOCKER_TOO_OLD);
	cr_assert_str_eq(docker_api_negotiate("0.99", NULL, b, sizeof(b)),
	    ERR_DOCKER_TOO_OLD);
	cr_assert_str_eq(docker_api_negotiate("1.60", "1.53", b, sizeof(b)),
	    ERR_DOCKER_TOO_NEW);
	cr_assert_str_eq(docker_api_negotiate("", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate(".41", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.41.0", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.41 ", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.00041", NULL, b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.41", "x", b, sizeof(b)),
	    ERR_DOCKER_UNREADABLE);
	cr_assert_str_eq(docker_api_negotiate("1.41", NULL, b, 4),
	    ERR_INTERNAL);
}

Test(http, request_head)
{
	struct docker_request	 rq = { .rq_method = "GET",
				    .rq_path = "/version" };
	char			 b[512];
	int			 n;

	n = docker_http_head(&rq, b, sizeof(b));
	cr_assert_gt(n, 0);
	cr_assert_str_eq(b, "GET /version HTTP/1.1\r\nHost: docker\r\n"
	    "User-Agent: spaced\r\n\r\n");
	rq.rq_method = "POST";
	rq.rq_path = "/v1.41/networks/create";
	rq.rq_body = "{}";
	rq.rq_body_len = 2;
	n = docker_http_head(&rq, b, sizeof(b));
	cr_assert_str_eq(b, "POST /v1.41/networks/create HTTP/1.1\r\n"
	    "Host: docker\r\nUser-Agent: spaced\r\n"
	    "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n");
	cr_assert_eq(docker_http_head(&rq, b, 20), -1, "must not truncate");
	/* request splitting through the path or method is refused */
	rq.rq_path = "/x HTTP/1.1\r\nHost: evil\r\n\r\nGET /y";
	cr_assert_eq(docker_http_head(&rq, b, sizeof(b)), -1);
	rq.rq_path = "/x\ty";
	cr_assert_eq(docker_http_head(&rq, b, sizeof(b)), -1);
	rq.rq_path = "version";
	cr_assert_eq(docker_http_head(&rq, b, sizeof(b)), -1);
	rq.rq_path = "/ok";
	rq.rq_method = "GET /x";
	cr_assert_eq(docker_http_head(&rq, b, sizeof(b)), -1);
	rq.rq_method = "GET";
	rq.rq_body = NULL;		/* a length without a body */
	cr_assert_eq(docker_http_head(&rq, b, sizeof(b)), -1);
}

Test(check, no_seccomp_profile)
{
	struct docker_check_msg	 m;

	info_json = "{\"SecurityOptions\":[\"name=apparmor\"]}";
	check_json(GOOD_JSON("28.0.1", "1.48", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_NO_SECCOMP);
	info_json = "{\"SecurityOptions\":[\"name=seccomp,profile=unconfined\"]}";
	check_json(GOOD_JSON("28.0.1", "1.48", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_NO_SECCOMP);
	info_json = "not json";
	check_json(GOOD_JSON("28.0.1", "1.48", "1.24"), &m);
	assert_unavailable(&m, ERR_DOCKER_UNREADABLE);
	info_json = "{\"SecurityOptions\":[\"name=seccomp,profile=builtin\","
	    "\"name=cgroupns\"]}";
	check_json(GOOD_JSON("28.0.1", "1.48", "1.24"), &m);
	cr_assert_eq(m.dc_available, 1);
}
