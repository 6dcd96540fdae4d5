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

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_client.h"

static int
call(const char *method, const char *path, const char *body, char *ans,
    size_t size)
{
	return ec_call(method, path, "application/json", body, strlen(body),
	    NULL, 0, ans, size);
}

static long long
one_exec(const char *container, const char *user, const char *cmd)
{
	static char	 ans[65536];
	char		 path[256], body[512], id[128];
	long long	 t0 = ec_now_us();
	int		 st;

	snprintf(path, sizeof(path), "/v1.41/containers/%s/exec", container);
	snprintf(body, sizeof(body), "{\"User\":\"%s\",\"AttachStdout\":true,"
	    "\"AttachStderr\":true,\"Cmd\":[\"%s\"]}", user, cmd);
	if ((st = call("POST", path, body, ans, sizeof(ans))) != 201)
		errx(1, "exec create: %d: %.200s", st, ans);
	ec_field(ans, "Id", id, sizeof(id));
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
	return ec_now_us() - t0;
}

int
main(int argc, char *argv[])
{
	const char	*errstr;
	long long	 rounds, i;

	if (argc != 6)
		errx(2, "usage: engine_exec SOCKET CONTAINER USER ROUNDS CMD");
	ec_sock = argv[1];
	rounds = strtonum(argv[4], 1, 100000, &errstr);
	if (errstr != NULL)
		errx(2, "rounds %s: %s", argv[4], errstr);
	for (i = 0; i < rounds; i++)
		printf("%lld\n", one_exec(argv[2], argv[3], argv[5]));
	return 0;
}
