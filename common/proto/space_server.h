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

#ifndef SPACED_SPACE_SERVER_H
#define SPACED_SPACE_SERVER_H

/*
 * The request side of the channel to the server inside a space: curl's
 * config on its stdin, so no header or token is in an argv; the answer
 * framed by a line of curl's own (docs/notes/common-space-server.md).
 */

#include <stddef.h>
#include <stdint.h>

#define SERVER_CURL_PATH	"/usr/bin/curl"
#define SERVER_CURL_ARGV	{ SERVER_CURL_PATH, "--disable", "--config", \
				    "-", NULL }
#define SERVER_TRAILER		"spaced-curl"
#define SERVER_ATTEMPT_MS	3000	/* one readiness attempt, at most */
#define SERVER_ATTEMPT_FIRST_MS	500	/* the first; +1 s after each timeout */
#define SERVER_ATTEMPT_STEP_MS	1000
#define SERVER_ATTEMPT_APART_MS	500	/* start to start, never before an end */
#define SERVER_REQUEST_MS	30000	/* spacectl server */
#define SERVER_BODY_MAX		(1024 * 1024)
#define SERVER_REQ_HEADERS_MAX	16
#define SERVER_CONFIG_MAX	(SERVER_BODY_MAX * 2 + 16384)

/* One request: header lines "Name: value"; body NULL for none. */
struct server_request {
	const char	*sr_method;
	uint16_t	 sr_port;
	const char	*sr_path;
	const char	*sr_auth_user;	/* basic auth with sr_token; or NULL */
	const char	*sr_token;
	const char	*sr_headers[SERVER_REQ_HEADERS_MAX];
	size_t		 sr_nheaders;
	const uint8_t	*sr_body;
	size_t		 sr_bodylen;
	int		 sr_max_ms;	/* curl's max-time and connect-timeout */
};

int	 server_curl_config(const struct server_request *, char *buf,
	    size_t len);

void	 server_attempt_next(int *ms, long took_ms);
long	 server_attempt_pause(long took_ms);

/* The limits and the verdict spaced-journal gives spaced (server_parse.h). */
#define SERVER_OUT_MAX		(SERVER_HEADERS_MAX + 1024 * 1024)
#define SERVER_ERR_MAX		4096
#define SERVER_HEADERS_MAX	(64 * 1024)
#define SERVER_HEADER_LINES_MAX	200
#define SERVER_TOKEN_MIN	32
#define SERVER_TOKEN_MAX	128

/* What the place forwards: fixed, so it is one imsg with its lengths. */
struct server_exec_msg {
	int32_t		 se_exit;	/* the exec's exit code, -1 none */
	uint32_t	 se_timedout;	/* killed at its time limit */
	uint32_t	 se_truncated;	/* more output than the runner takes */
	uint32_t	 se_outlen;	/* then this many bytes of stdout */
	uint32_t	 se_errlen;	/* and of stderr */
};

enum server_verdict {
	SERVER_ANSWER = 0,	/* an HTTP answer: status, headers, body */
	SERVER_UNREACHABLE,	/* curl said why not, or it was cut off */
	SERVER_EXEC_FAILED,	/* no curl ran: the container is gone */
	SERVER_UNREADABLE,	/* output we do not take */
};

#endif /* SPACED_SPACE_SERVER_H */
