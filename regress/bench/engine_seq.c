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
 * A sequence of Engine API calls spoken raw over the unix socket (a
 * connection a call, no process start a step): the honest floor of the
 * create, tools and agent_ready benches.  Reads the script from stdin,
 * one step a line; any answer but the expected status fails the run.
 *
 *   CALL METHOD PATH STATUS [BODY]   one call, BODY the rest of the line
 *   EXEC CONTAINER STDIN CMD-JSON    an exec to its end, exit code 0;
 *                                    STDIN "-" for none, @FILE for a
 *                                    file's bytes, else its own
 *   HEALTH CONTAINER CMD-JSON        that exec until it exits 0 (30 s)
 *   READY CONTAINER STDIN CMD-JSON   the same with stdin, 0.5 s apart
 *                                    (the spec's readiness wait, 60 s)
 *   PUT CONTAINER DIR FILE           FILE (a tar) unpacked at DIR in it
 *   MARK LABEL                       prints "LABEL ms" since the last
 *
 * usage: engine_seq SOCKET < SCRIPT
 */

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_client.h"

#define ANSWER_MAX	(256 * 1024)

static char	 ans[ANSWER_MAX];
static size_t	 stdin_len;

/* One call; with stdin_bytes, an exec's start with that stdin. */
static int
call_raw(const char *method, const char *path, const char *type,
    const char *body, size_t blen, const char *stdin_bytes)
{
	return ec_call(method, path, type, body, blen, stdin_bytes, stdin_len,
	    ans, sizeof(ans));
}

static int
call(const char *method, const char *path, const char *body,
    const char *stdin_bytes)
{
	return call_raw(method, path, "application/json", body, strlen(body),
	    stdin_bytes);
}

/* A small file read whole (a package, a tar of one): its length. */
static size_t
slurp(const char *file, char *buf, size_t size)
{
	FILE	*f;
	size_t	 n;

	if ((f = fopen(file, "rb")) == NULL)
		err(1, "%s", file);
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

/* PUT .../archive of a tar file. */
static void
put_tar(const char *container, const char *dir, const char *file)
{
	static char	 tar[16 << 20];
	char		 path[1024];
	size_t		 n;
	int		 st;

	n = slurp(file, tar, sizeof(tar));
	snprintf(path, sizeof(path), "/v1.41/containers/%s/archive?path=%s",
	    container, dir);
	if ((st = call_raw("PUT", path, "application/x-tar", tar, n,
	    NULL)) != 200)
		errx(1, "PUT %s: %d: %.200s", path, st, ans);
}

/* An exec of cmd (a JSON array) in container: 1 when it exited 0. */
static int
one_exec(const char *container, const char *stdin_bytes, const char *cmd)
{
	char	 path[512], body[4096], id[128];
	int	 st;

	snprintf(path, sizeof(path), "/v1.41/containers/%s/exec", container);
	snprintf(body, sizeof(body), "{\"AttachStdin\":%s,\"AttachStdout\":"
	    "true,\"AttachStderr\":true,\"Cmd\":%s}",
	    stdin_bytes != NULL ? "true" : "false", cmd);
	if ((st = call("POST", path, body, NULL)) != 201)
		errx(1, "exec create in %s: %d: %.200s", container, st, ans);
	ec_field(ans, "Id", id, sizeof(id));
	snprintf(path, sizeof(path), "/v1.41/exec/%s/start", id);
	st = call("POST", path, "{\"Detach\":false,\"Tty\":false}",
	    stdin_bytes);
	if (st != 200 && st != 101)
		errx(1, "exec start: %d: %.200s", st, ans);
	snprintf(path, sizeof(path), "/v1.41/exec/%s/json", id);
	if ((st = call("GET", path, "", NULL)) != 200)
		errx(1, "exec inspect: %d: %.200s", st, ans);
	return strstr(ans, "\"Running\":false") != NULL &&
	    strstr(ans, "\"ExitCode\":0") != NULL;
}

/* The next word of *p, or "" at the end; *p then holds the rest. */
static char *
word(char **p)
{
	char	*w;

	if (*p == NULL)
		return "";
	w = strsep(p, " ");
	return w;
}

int
main(int argc, char *argv[])
{
	static char	 in[16 << 20];
	char		 line[16384], *p, *verb, *a, *b, *c;
	long long	 mark;
	int		 st, tries;

	if (argc != 2)
		errx(2, "usage: engine_seq SOCKET < SCRIPT");
	ec_sock = argv[1];
	mark = ec_now_us();
	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		p = line;
		verb = word(&p);
		if (strcmp(verb, "MARK") == 0) {
			printf("%s %lld\n", word(&p),
			    (ec_now_us() - mark) / 1000);
			fflush(stdout);
			mark = ec_now_us();
		} else if (strcmp(verb, "CALL") == 0) {
			a = word(&p);
			b = word(&p);
			c = word(&p);
			if ((st = call(a, b, p != NULL ? p : "", NULL)) !=
			    atoi(c))
				errx(1, "%s %s: %d, not %s: %.300s", a, b, st, c,
				    ans);
		} else if (strcmp(verb, "EXEC") == 0 && p != NULL) {
			a = word(&p);
			b = word(&p);
			stdin_len = strlen(b);
			if (b[0] == '@') {
				stdin_len = slurp(b + 1, in, sizeof(in));
				b = in;
			}
			if (p == NULL || !one_exec(a, strcmp(b, "-") == 0 ?
			    NULL : b, p))
				errx(1, "exec in %s failed: %.300s", a, ans);
		} else if (strcmp(verb, "READY") == 0 && p != NULL) {
			a = word(&p);
			b = word(&p);
			stdin_len = strlen(b);
			if (b[0] == '@') {
				stdin_len = slurp(b + 1, in, sizeof(in));
				b = in;
			}
			for (tries = 0; p == NULL || !one_exec(a, b, p);
			    tries++) {
				if (p == NULL || tries >= 120)
					errx(1, "%s: not ready in 60 s", a);
				usleep(500 * 1000);
			}
		} else if (strcmp(verb, "PUT") == 0) {
			a = word(&p);
			b = word(&p);
			put_tar(a, b, word(&p));
		} else if (strcmp(verb, "HEALTH") == 0 && p != NULL) {
			a = word(&p);
			for (tries = 0; p == NULL || !one_exec(a, NULL, p);
			    tries++) {
				if (p == NULL || tries >= 300)
					errx(1, "%s: no health in 30 s", a);
				usleep(100 * 1000);
			}
		} else
			errx(1, "bad step: %s", line);
	}
	return 0;
}
