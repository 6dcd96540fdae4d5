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
 * spaced-journal's parse of a server answer made of many repeated header
 * lines, at n and 2n lines, against one memchr pass over the same bytes
 * (the floor of reading them once).  The caps refuse it early: under 1.0
 * and no growth; a parse that walked every line would grow 2x, or 4x.
 */

#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gatekeeper/spaced-journal/server_parse.h"
#include "space_server.h"

#define REPEAT	1000	/* parses a measure: a refusal is quick */

static struct server_answer	 sa;

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An answer of n "a: b" lines, and the stderr curl writes for it. */
static size_t
make_answer(char *out, size_t n, char *err, size_t errsz)
{
	size_t	 off, i;

	off = (size_t)sprintf(out, "HTTP/1.1 200 OK\r\n");
	for (i = 0; i < n; i++) {
		memcpy(out + off, "a: b\r\n", 6);
		off += 6;
	}
	memcpy(out + off, "\r\n", 2);
	off += 2;
	snprintf(err, errsz, "spaced-curl 200 %zu 0\n", off);
	return off;
}

/* Best of five: seconds of one parse, and of one memchr pass. */
static void
measure(size_t n, double *parse, double *scan)
{
	struct server_exec_msg	 se;
	const char		*code;
	char			*out, err[128], *p;
	size_t			 len, lines;
	double			 t;
	int			 i, j;

	if ((out = malloc(n * 6 + 64)) == NULL)
		exit(1);
	len = make_answer(out, n, err, sizeof(err));
	memset(&se, 0, sizeof(se));
	se.se_outlen = (uint32_t)len;
	se.se_errlen = (uint32_t)strlen(err);
	*parse = *scan = 1e9;
	for (i = 0; i < 5; i++) {
		t = now();
		for (j = 0; j < REPEAT; j++)
			if (server_answer_parse(&se, (uint8_t *)out,
			    (uint8_t *)err, &sa, &code) != SERVER_UNREADABLE) {
				fprintf(stderr, "journal_headers: %zu lines "
				    "were not refused\n", n);
				exit(1);
			}
		t = (now() - t) / REPEAT;
		if (t < *parse)
			*parse = t;
		t = now();
		for (lines = 0, p = out; (p = memchr(p, '\n',
		    len - (size_t)(p - out))) != NULL; p++)
			lines++;
		t = now() - t;
		if (lines != n + 2)
			exit(1);
		if (t < *scan)
			*scan = t;
	}
	free(out);
}

int
main(void)
{
	double	 p1, s1, p2, s2;
	size_t	 n = 160000;

	measure(n, &p1, &s1);
	measure(2 * n, &p2, &s2);
	printf("%zu header lines: parse %.3f us, one memchr pass %.1f us: "
	    "ratio %.5f\n", n, p1 * 1e6, s1 * 1e6, p1 / s1);
	printf("%zu header lines: parse %.3f us, one memchr pass %.1f us: "
	    "ratio %.5f\n", 2 * n, p2 * 1e6, s2 * 1e6, p2 / s2);
	printf("growth 2n/n: parse %.2f, memchr %.2f (2.0 is linear, 4.0 "
	    "quadratic)\n", p2 / p1, s2 / s1);
	return 0;
}
