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

/* Pure parse of /proc/<pid>/status for the audit table. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spaced.h"

/* Copies the value of "Key:\t..." (tabs become spaces); -1 if absent. */
static int
status_field(const char *buf, size_t len, const char *key, char *out,
    size_t outsz)
{
	const char	*p = buf, *end = buf + len, *eol;
	size_t		 klen = strlen(key), n = 0;

	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', end - p)) == NULL)
			eol = end;
		if ((size_t)(eol - p) <= klen || memcmp(p, key, klen) != 0 ||
		    p[klen] != ':')
			continue;
		for (p += klen + 1; p < eol && (*p == '\t' || *p == ' '); p++)
			;
		for (; p < eol && n + 1 < outsz; p++)
			out[n++] = *p == '\t' ? ' ' : *p;
		out[n] = '\0';
		return p == eol ? 0 : -1;
	}
	return -1;
}

static int
status_int(const char *buf, size_t len, const char *key, int32_t *out)
{
	char		 v[32], *end;
	long		 l;

	if (status_field(buf, len, key, v, sizeof(v)) == -1)
		return -1;
	l = strtol(v, &end, 10);
	if (end == v || *end != '\0' || l < 0 || l > 1000)
		return -1;
	*out = (int32_t)l;
	return 0;
}

int
audit_parse_status(const char *buf, size_t len, struct ctl_privileges *cv)
{
	if (status_field(buf, len, "Uid", cv->cv_uid, sizeof(cv->cv_uid)) ==
	    -1 ||
	    status_field(buf, len, "Gid", cv->cv_gid, sizeof(cv->cv_gid)) ==
	    -1 ||
	    status_field(buf, len, "CapEff", cv->cv_capeff,
	    sizeof(cv->cv_capeff)) == -1 ||
	    status_int(buf, len, "Seccomp", &cv->cv_seccomp) == -1 ||
	    status_int(buf, len, "NoNewPrivs", &cv->cv_nnp) == -1)
		return -1;
	return 0;
}
