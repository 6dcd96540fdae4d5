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

/* The curl config of a request to the server inside (space_server.h). */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "space_server.h"

struct out {
	char	*o_buf;
	size_t	 o_len;
	size_t	 o_off;
	int	 o_bad;
};

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	if (o->o_bad)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->o_buf + o->o_off, o->o_len - o->o_off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->o_len - o->o_off)
		o->o_bad = 1;
	else
		o->o_off += (size_t)n;
}

/*
 * A quoted config string: curl's escapes for \ " and the line breaks
 * and tab; any other control byte or a NUL is refused (ctl_ok 0 refuses
 * line breaks too, for a header).
 */
static void
quoted(struct out *o, const uint8_t *s, size_t n, int breaks_ok)
{
	size_t	 i;

	put(o, "\"");
	for (i = 0; i < n && !o->o_bad; i++) {
		switch (s[i]) {
		case '\\':
			put(o, "\\\\");
			break;
		case '"':
			put(o, "\\\"");
			break;
		case '\t':
			put(o, "\\t");
			break;
		case '\n':
		case '\r':
			if (!breaks_ok)
				o->o_bad = 1;
			else
				put(o, s[i] == '\n' ? "\\n" : "\\r");
			break;
		default:
			if (s[i] < 0x20 || s[i] == 0x7f)
				o->o_bad = 1;
			else
				put(o, "%c", s[i]);
		}
	}
	put(o, "\"\n");
}

static void
qstr(struct out *o, const char *key, const char *v, int breaks_ok)
{
	put(o, "%s = ", key);
	quoted(o, (const uint8_t *)v, strlen(v), breaks_ok);
}

/*
 * The curl config for it, NUL-terminated, into buf; its length, or -1
 * when a value is not acceptable (a method not [A-Z]+, a path not
 * starting with "/", a NUL anywhere, a control character in a header)
 * or buf is short.
 */
int
server_curl_config(const struct server_request *sr, char *buf, size_t len)
{
	struct out	 o = { buf, len, 0, 0 };
	char		 url[512], cred[512];
	unsigned char	 b64[700];
	size_t		 i;

	if (len == 0 || sr->sr_method == NULL || sr->sr_path == NULL ||
	    sr->sr_method[0] == '\0' || strspn(sr->sr_method,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(sr->sr_method) ||
	    sr->sr_path[0] != '/' || strpbrk(sr->sr_path, " #") != NULL ||
	    sr->sr_port == 0 || sr->sr_max_ms <= 0 ||
	    sr->sr_nheaders > SERVER_REQ_HEADERS_MAX ||
	    sr->sr_bodylen > SERVER_BODY_MAX ||
	    (sr->sr_body != NULL && memchr(sr->sr_body, '\0',
	    sr->sr_bodylen) != NULL))
		return -1;
	/* Loopback by address: no name to resolve, no proxy to take. */
	if ((size_t)snprintf(url, sizeof(url), "http://127.0.0.1:%u%s",
	    sr->sr_port, sr->sr_path) >= sizeof(url))
		return -1;
	qstr(&o, "url", url, 0);
	qstr(&o, "request", sr->sr_method, 0);
	put(&o, "noproxy = \"*\"\n");
	put(&o, "max-time = %d.%03d\n", sr->sr_max_ms / 1000,
	    sr->sr_max_ms % 1000);
	put(&o, "connect-timeout = %d.%03d\n", sr->sr_max_ms / 1000,
	    sr->sr_max_ms % 1000);
	put(&o, "silent\nshow-error\ninclude\n");
	/* Never follow: a redirect would be a request we did not write. */
	put(&o, "proto = \"=http\"\n");
	put(&o, "write-out = \"%%{stderr}" SERVER_TRAILER " %%{http_code} "
	    "%%{size_header} %%{size_download}\\n\"\n");
	if (sr->sr_auth_user != NULL && sr->sr_token != NULL) {
		/* The header, not "user =": that would be on curl's argv. */
		if ((size_t)snprintf(cred, sizeof(cred), "%s:%s",
		    sr->sr_auth_user, sr->sr_token) >= sizeof(cred))
			return -1;
		EVP_EncodeBlock(b64, (const unsigned char *)cred,
		    (int)strlen(cred));
		explicit_bzero(cred, sizeof(cred));
		put(&o, "header = \"Authorization: Basic %s\"\n", b64);
		explicit_bzero(b64, sizeof(b64));
	}
	for (i = 0; i < sr->sr_nheaders; i++) {
		if (strchr(sr->sr_headers[i], ':') == NULL)
			return -1;
		qstr(&o, "header", sr->sr_headers[i], 0);
	}
	/* data-raw: a body starting with "@" is no file name then. */
	if (sr->sr_body != NULL) {
		put(&o, "data-raw = ");
		quoted(&o, sr->sr_body, sr->sr_bodylen, 1);
	}
	if (o.o_bad) {
		explicit_bzero(buf, len);
		return -1;
	}
	return (int)o.o_off;
}

/*
 * The readiness wait's next limit: after an attempt with the limit *ms
 * that took took_ms, a second more when it used its limit up, at most
 * SERVER_ATTEMPT_MS.  And the pause before the next attempt: it begins
 * SERVER_ATTEMPT_APART_MS after this one began, or at once when this
 * one took longer.
 */
void
server_attempt_next(int *ms, long took_ms)
{
	if (took_ms >= *ms && *ms < SERVER_ATTEMPT_MS)
		*ms = *ms + SERVER_ATTEMPT_STEP_MS > SERVER_ATTEMPT_MS ?
		    SERVER_ATTEMPT_MS : *ms + SERVER_ATTEMPT_STEP_MS;
}

long
server_attempt_pause(long took_ms)
{
	return took_ms >= SERVER_ATTEMPT_APART_MS ? 0 :
	    SERVER_ATTEMPT_APART_MS - took_ms;
}
