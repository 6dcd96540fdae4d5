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
 * spaced.conf(5): one setting a line, "keyword [keyword] value", '#'
 * starts a comment, values may be quoted.  Pure: no I/O but config_print.
 */

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "spaced.h"

#define CONFIG_MAX	(64 * 1024)

void
config_defaults(struct spaced_conf *conf, uid_t uid, const char *runtime_dir,
    const char *state_dir)
{
	memset(conf, 0, sizeof(*conf));
	strlcpy(conf->sc_docker_socket, SPACED_DOCKER_SOCK,
	    sizeof(conf->sc_docker_socket));
	if (uid == 0) {
		strlcpy(conf->sc_socket, SPACED_SOCK_ROOT,
		    sizeof(conf->sc_socket));
		strlcpy(conf->sc_store, SPACED_STORE_ROOT,
		    sizeof(conf->sc_store));
		strlcpy(conf->sc_empty, SPACED_EMPTY_ROOT,
		    sizeof(conf->sc_empty));
		return;
	}
	/* A plain user: no chroot, so no empty directory either. */
	if (runtime_dir != NULL && *runtime_dir == '/')
		snprintf(conf->sc_socket, sizeof(conf->sc_socket),
		    "%s/spaced.sock", runtime_dir);
	if (state_dir != NULL && *state_dir == '/')
		snprintf(conf->sc_store, sizeof(conf->sc_store),
		    "%s/spaced/journal", state_dir);
}

static const struct {
	const char	*kw;
	size_t		 off;
} config_keywords[] = {
	{ "socket",		offsetof(struct spaced_conf, sc_socket) },
	{ "docker socket",	offsetof(struct spaced_conf, sc_docker_socket) },
	{ "journal store",	offsetof(struct spaced_conf, sc_store) },
	{ "empty directory",	offsetof(struct spaced_conf, sc_empty) },
};

/* Reads one value: a quoted string or a bare word, to the end of line. */
static int
config_value(const char *p, const char *end, char *out, size_t outsz,
    const char **errstr)
{
	size_t		 n = 0;
	int		 quoted = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '"') {
		quoted = 1;
		p++;
	}
	for (; p < end; p++) {
		if (quoted && *p == '"')
			break;
		if (!quoted && (*p == ' ' || *p == '\t' || *p == '#'))
			break;
		if (!quoted && *p == '"') {
			*errstr = "quote inside value";
			return -1;
		}
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*errstr = "control character in value";
			return -1;
		}
		if (n + 1 >= outsz) {
			*errstr = "value too long";
			return -1;
		}
		out[n++] = *p;
	}
	if (quoted) {
		if (p >= end) {
			*errstr = "unterminated quote";
			return -1;
		}
		p++;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p != '#') {
		*errstr = "trailing text after value";
		return -1;
	}
	out[n] = '\0';
	if (n == 0) {
		*errstr = "missing value";
		return -1;
	}
	if (out[0] != '/') {
		*errstr = "path must be absolute";
		return -1;
	}
	return 0;
}

int
config_parse(const char *buf, size_t len, struct spaced_conf *conf,
    char *err, size_t errlen)
{
	const char	*line = buf, *end = buf + len, *eol, *p, *errstr;
	char		 value[PATH_MAX];
	size_t		 i, kwlen;
	int		 lineno = 0;

	if (len > CONFIG_MAX) {
		snprintf(err, errlen, "file larger than %d bytes", CONFIG_MAX);
		return -1;
	}
	for (; line < end; line = eol + 1) {
		lineno++;
		if ((eol = memchr(line, '\n', end - line)) == NULL)
			eol = end;
		if (memchr(line, '\0', eol - line) != NULL) {
			snprintf(err, errlen, "line %d: NUL byte", lineno);
			return -1;
		}
		for (p = line; p < eol && isspace((unsigned char)*p); p++)
			;
		if (p == eol || *p == '#')
			continue;
		for (i = 0; i < sizeof(config_keywords) /
		    sizeof(config_keywords[0]); i++) {
			kwlen = strlen(config_keywords[i].kw);
			if ((size_t)(eol - p) > kwlen &&
			    strncmp(p, config_keywords[i].kw, kwlen) == 0 &&
			    (p[kwlen] == ' ' || p[kwlen] == '\t'))
				break;
		}
		if (i == sizeof(config_keywords) / sizeof(config_keywords[0])) {
			snprintf(err, errlen, "line %d: unknown setting",
			    lineno);
			return -1;
		}
		if (config_value(p + kwlen, eol, value, sizeof(value),
		    &errstr) == -1) {
			snprintf(err, errlen, "line %d: %s: %s", lineno,
			    config_keywords[i].kw, errstr);
			return -1;
		}
		strlcpy((char *)conf + config_keywords[i].off, value, PATH_MAX);
		if (eol == end)
			break;
	}
	return 0;
}

void
config_print(const struct spaced_conf *conf, int fd)
{
	size_t		 i;
	const char	*v;

	for (i = 0; i < sizeof(config_keywords) / sizeof(config_keywords[0]);
	    i++) {
		v = (const char *)conf + config_keywords[i].off;
		if (*v != '\0')
			dprintf(fd, "%s \"%s\"\n", config_keywords[i].kw, v);
	}
}
