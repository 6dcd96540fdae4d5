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
 * The answers of a space's server and of its token file
 * (server_parse.h).  Pure (STYLE.md 18); linear in the input.
 */

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "server_parse.h"
#include "space_server.h"

/* A decimal of at most 10 digits from s..end; -1 when it is not. */
static long long
dec(const uint8_t *s, size_t n)
{
	long long	 v = 0;
	size_t		 i;

	if (n == 0 || n > 10)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * curl's line, the last of stderr: "spaced-curl SSS H B\n".  stderr is
 * curl's alone (the server reaches only stdout), and --disable keeps a
 * ~/.curlrc from adding to it.
 */
static int
trailer(const uint8_t *err, size_t n, long long v[3])
{
	const uint8_t	*p, *line, *end;
	size_t		 k = strlen(SERVER_TRAILER);
	int		 i;

	if (n < 2 || err[n - 1] != '\n')
		return -1;
	end = err + n - 1;
	for (line = end; line > err && line[-1] != '\n'; line--)
		;
	if ((size_t)(end - line) <= k || memcmp(line, SERVER_TRAILER, k) != 0 ||
	    line[k] != ' ')
		return -1;
	p = line + k + 1;
	for (i = 0; i < 3; i++) {
		const uint8_t	*q = memchr(p, i < 2 ? ' ' : '\n', end + 1 - p);

		if (q == NULL || (v[i] = dec(p, q - p)) == -1)
			return -1;
		p = q + 1;
	}
	return p == end + 1 ? 0 : -1;
}

static int
tchar(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' &&
	    strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* "HTTP/1.1 200 OK", "HTTP/2 200": the status, or -1. */
static int
status_line(const uint8_t *s, size_t n)
{
	size_t	 v;

	if (n < 12 || memcmp(s, "HTTP/", 5) != 0)
		return -1;
	if (n >= 12 && memcmp(s + 5, "1.1 ", 4) == 0)
		v = 9;
	else if (memcmp(s + 5, "1.0 ", 4) == 0)
		v = 9;
	else if (memcmp(s + 5, "2 ", 2) == 0 || memcmp(s + 5, "3 ", 2) == 0)
		v = 7;
	else
		return -1;
	if (n < v + 3 || (n > v + 3 && s[v + 3] != ' '))
		return -1;
	return (int)dec(s + v, 3) >= 100 ? (int)dec(s + v, 3) : -1;
}

/* The header blocks, h..h+n exactly; the last one's fields kept. */
static int
headers(const uint8_t *h, size_t n, struct server_answer *sa)
{
	const uint8_t	*p = h, *end = h + n, *eol, *colon, *v, *ve;
	size_t		 lines = 0, len, off = 0, i;
	int		 status = -1, in_block = 0;

	sa->sa_nheaders = 0;
	while (p < end) {
		if ((eol = memchr(p, '\n', end - p)) == NULL)
			return -1;
		len = eol - p;
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (++lines > SERVER_HEADER_LINES_MAX)
			return -1;
		if (!in_block) {
			if ((status = status_line(p, len)) == -1)
				return -1;
			in_block = 1;
			/* A new block: only the last one's fields count. */
			sa->sa_nheaders = 0;
			off = 0;
		} else if (len == 0) {
			in_block = 0;
			/* 1xx: another block follows; else it was the last. */
			if (status >= 200 && eol + 1 != end)
				return -1;
		} else {
			/* No obs-fold, no space before the colon. */
			if ((colon = memchr(p, ':', len)) == NULL ||
			    colon == p)
				return -1;
			for (i = 0; p + i < colon; i++)
				if (!tchar(p[i]))
					return -1;
			for (v = colon + 1; v < p + len &&
			    (*v == ' ' || *v == '\t'); v++)
				;
			for (ve = p + len; ve > v &&
			    (ve[-1] == ' ' || ve[-1] == '\t'); ve--)
				;
			for (i = 0; v + i < ve; i++)
				if ((v[i] < 0x20 && v[i] != '\t') ||
				    v[i] == 0x7f)
					return -1;
			struct server_header *sh =
			    &sa->sa_headers[sa->sa_nheaders++];
			sh->sh_name = (uint32_t)off;
			sh->sh_namelen = (uint32_t)(colon - p);
			for (i = 0; p + i < colon; i++)
				sa->sa_hbuf[off++] = (char)((p[i] >= 'A' &&
				    p[i] <= 'Z') ? p[i] + 32 : p[i]);
			sa->sa_hbuf[off++] = '\0';
			sh->sh_value = (uint32_t)off;
			sh->sh_valuelen = (uint32_t)(ve - v);
			memcpy(sa->sa_hbuf + off, v, ve - v);
			off += ve - v;
			sa->sa_hbuf[off++] = '\0';
		}
		p = eol + 1;
	}
	/* Ended inside a block, or only 1xx blocks. */
	if (in_block || status < 200)
		return -1;
	sa->sa_status = (uint16_t)status;
	return 0;
}

/*
 * The verdict, with *code the error code (common/proto/errors.h) when it is
 * not SERVER_ANSWER.  sa is filled for SERVER_ANSWER only.
 */
enum server_verdict
server_answer_parse(const struct server_exec_msg *se, const uint8_t *out,
    const uint8_t *err, struct server_answer *sa, const char **code)
{
	long long	 t[3];

	*code = ERR_SERVER_UNREADABLE;
	/* More than the runner takes: never "output too large". */
	if (se->se_truncated || se->se_outlen > SERVER_OUT_MAX ||
	    se->se_errlen > SERVER_ERR_MAX)
		return SERVER_UNREADABLE;
	if (se->se_timedout) {
		*code = ERR_SERVER_UNREACHABLE;
		return SERVER_UNREACHABLE;
	}
	if (trailer(err, se->se_errlen, t) == -1) {
		/*
		 * No line of curl's: curl never ran or did not finish.  The
		 * exec's own failures (the container is gone) end the wait;
		 * "curl:" at the start of stderr is curl's, and not yet.
		 */
		if (se->se_errlen >= 5 && memcmp(err, "curl:", 5) == 0) {
			*code = ERR_SERVER_UNREACHABLE;
			return SERVER_UNREACHABLE;
		}
		if (se->se_exit == 125 || se->se_exit == 126 ||
		    se->se_exit == 127 || se->se_exit == 1 ||
		    se->se_exit == -1) {
			*code = ERR_DOCKER_FAILED;
			return SERVER_EXEC_FAILED;
		}
		return SERVER_UNREADABLE;
	}
	/* curl ran and said no: refused, HTTP/0.9, timed out. */
	if (se->se_exit != 0) {
		*code = ERR_SERVER_UNREACHABLE;
		return SERVER_UNREACHABLE;
	}
	if (t[1] > SERVER_HEADERS_MAX || t[1] + t[2] != (long long)se->se_outlen)
		return SERVER_UNREADABLE;
	if (headers(out, (size_t)t[1], sa) == -1 || sa->sa_status != t[0])
		return SERVER_UNREADABLE;
	sa->sa_body = (size_t)t[1];
	sa->sa_bodylen = (size_t)t[2];
	*code = NULL;
	return SERVER_ANSWER;
}

size_t
server_header_count(const struct server_answer *sa, const char *name)
{
	size_t		 n = 0;
	uint32_t	 i;

	for (i = 0; i < sa->sa_nheaders; i++)
		if (strcmp(sa->sa_hbuf + sa->sa_headers[i].sh_name, name) == 0)
			n++;
	return n;
}

const char *
server_header_value(const struct server_answer *sa, const char *name,
    size_t k)
{
	uint32_t	 i;

	for (i = 0; i < sa->sa_nheaders; i++)
		if (strcmp(sa->sa_hbuf + sa->sa_headers[i].sh_name, name) ==
		    0 && k-- == 0)
			return sa->sa_hbuf + sa->sa_headers[i].sh_value;
	return NULL;
}

/*
 * 1 when the answer is ready: status as wanted and, with a field, a
 * JSON object body whose field is true.  Anything else is 0.
 */
int
server_ready(const struct server_answer *sa, const uint8_t *out,
    uint16_t status, const char *field)
{
	json_t		*o;
	json_error_t	 e;
	int		 ready;

	if (sa->sa_status != status)
		return 0;
	if (field == NULL || field[0] == '\0')
		return 1;
	if (sa->sa_bodylen == 0 || sa->sa_bodylen > SERVER_OUT_MAX)
		return 0;
	/* null, not JSON, not an object, not true: not ready yet. */
	if ((o = json_loadb((const char *)out + sa->sa_body, sa->sa_bodylen,
	    JSON_REJECT_DUPLICATES, &e)) == NULL)
		return 0;
	ready = json_is_object(o) && json_is_true(json_object_get(o, field));
	json_decref(o);
	return ready;
}

/*
 * The token read back: 32 to 128 characters of base64url and nothing
 * else, into tok (NUL-terminated); -1 with *code.
 */
int
server_token_parse(const struct server_exec_msg *se, const uint8_t *out,
    char tok[SERVER_TOKEN_MAX + 1], const char **code)
{
	size_t	 i, n = se->se_outlen;

	*code = ERR_TOKEN_UNREADABLE;
	/* Huge, empty, a FIFO that held the read: all the same. */
	if (se->se_timedout || se->se_truncated || se->se_exit != 0 ||
	    n < SERVER_TOKEN_MIN || n > SERVER_TOKEN_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if (!((out[i] >= 'a' && out[i] <= 'z') ||
		    (out[i] >= 'A' && out[i] <= 'Z') ||
		    (out[i] >= '0' && out[i] <= '9') ||
		    out[i] == '-' || out[i] == '_'))
			return -1;
	memcpy(tok, out, n);
	tok[n] = '\0';
	*code = NULL;
	return 0;
}
