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
 * The server channel's parsers against the spec's hostile answers, and
 * the curl config the host writes.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gatekeeper/spaced-journal/server_parse.h"
#include "space_server.h"

static struct server_answer	 sa;

/* curl's output for an answer of these headers and body. */
static enum server_verdict
answer(const char *hdr, const char *body, const char **code)
{
	static char		 out[4 * 1024 * 1024], err[256];
	struct server_exec_msg	 se;
	size_t			 h = strlen(hdr), b = strlen(body);
	int			 st = 0;

	cr_assert_lt(h + b, sizeof(out));
	memcpy(out, hdr, h);
	memcpy(out + h, body, b);
	/* What curl reports: the status of the last block. */
	const char *last = hdr, *p;
	for (p = hdr; (p = strstr(p, "HTTP/")) != NULL; p++)
		last = p;
	sscanf(last, "HTTP/%*s %d", &st);
	snprintf(err, sizeof(err), "spaced-curl %03d %zu %zu\n", st, h, b);
	memset(&se, 0, sizeof(se));
	se.se_outlen = (uint32_t)(h + b);
	se.se_errlen = (uint32_t)strlen(err);
	return server_answer_parse(&se, (uint8_t *)out, (uint8_t *)err, &sa,
	    code);
}

static const uint8_t	*body_of;

#define HEALTH_HDR \
	"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" \
	"Content-Length: 36\r\nVary: Origin\r\n\r\n"
#define HEALTH_BODY	"{\"healthy\":true,\"version\":\"1.18.33\"}"

Test(server, opencode_health_is_ready)
{
	const char	*code;
	static char	 out[256];

	cr_assert_eq(answer(HEALTH_HDR, HEALTH_BODY, &code), SERVER_ANSWER);
	cr_assert_eq(sa.sa_status, 200);
	cr_assert_eq(sa.sa_nheaders, 3);
	cr_assert_str_eq(server_header_value(&sa, "content-type", 0),
	    "application/json");
	cr_assert_null(server_header_value(&sa, "Content-Type", 0));
	cr_assert_eq(sa.sa_bodylen, strlen(HEALTH_BODY));
	snprintf(out, sizeof(out), "%s%s", HEALTH_HDR, HEALTH_BODY);
	body_of = (uint8_t *)out;
	cr_assert(server_ready(&sa, body_of, 200, "healthy"));
	cr_assert(!server_ready(&sa, body_of, 204, "healthy"));
	cr_assert(!server_ready(&sa, body_of, 200, "version"));
	cr_assert(server_ready(&sa, body_of, 200, ""));
}

static int
ready_with(const char *body)
{
	static char	 out[4096];
	const char	*code;
	char		 hdr[128];

	snprintf(hdr, sizeof(hdr), "HTTP/1.1 200 OK\r\nContent-Length: %zu"
	    "\r\n\r\n", strlen(body));
	if (answer(hdr, body, &code) != SERVER_ANSWER)
		return -1;
	snprintf(out, sizeof(out), "%s%s", hdr, body);
	return server_ready(&sa, (uint8_t *)out, 200, "healthy");
}

Test(server, bodies_that_are_not_ready)
{
	cr_assert_eq(ready_with("{\"healthy\":true}"), 1);
	cr_assert_eq(ready_with("null"), 0);
	cr_assert_eq(ready_with("not json"), 0);
	cr_assert_eq(ready_with(""), 0);
	cr_assert_eq(ready_with("[true]"), 0);
	cr_assert_eq(ready_with("true"), 0);
	cr_assert_eq(ready_with("{\"healthy\":\"true\"}"), 0);
	cr_assert_eq(ready_with("{\"healthy\":1}"), 0);
	cr_assert_eq(ready_with("{\"healthy\":false}"), 0);
	cr_assert_eq(ready_with("{\"Healthy\":true}"), 0);
	cr_assert_eq(ready_with("{\"healthy\":true,\"healthy\":false}"), 0);
	cr_assert_eq(ready_with("{\"healthy\":true} trailing"), 0);
	cr_assert_eq(ready_with("{\"healthy\":tru"), 0);
}

Test(server, values_per_name_and_odd_names)
{
	const char	*code;

	cr_assert_eq(answer("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\n"
	    "set-cookie:  b=2  \r\n__proto__: x\r\nconstructor: y\r\n\r\n",
	    "", &code), SERVER_ANSWER);
	cr_assert_eq(server_header_count(&sa, "set-cookie"), 2);
	cr_assert_str_eq(server_header_value(&sa, "set-cookie", 0), "a=1");
	cr_assert_str_eq(server_header_value(&sa, "set-cookie", 1), "b=2");
	cr_assert_null(server_header_value(&sa, "set-cookie", 2));
	cr_assert_str_eq(server_header_value(&sa, "__proto__", 0), "x");
	cr_assert_str_eq(server_header_value(&sa, "constructor", 0), "y");
	/* 100 Continue first: the last block's fields only. */
	cr_assert_eq(answer("HTTP/1.1 100 Continue\r\nX-A: 1\r\n\r\n"
	    "HTTP/1.1 201 Created\r\nX-B: 2\r\n\r\n", "ok", &code),
	    SERVER_ANSWER);
	cr_assert_eq(sa.sa_status, 201);
	cr_assert_null(server_header_value(&sa, "x-a", 0));
	cr_assert_str_eq(server_header_value(&sa, "x-b", 0), "2");
}

Test(server, headers_past_64k_or_200_lines)
{
	char		*h;
	const char	*code;
	size_t		 i, off;

	h = malloc(200 * 1024);
	cr_assert_not_null(h);
	/* 199 fields and the status line: 200 lines, taken. */
	off = (size_t)sprintf(h, "HTTP/1.1 200 OK\r\n");
	for (i = 0; i < 198; i++)
		off += (size_t)sprintf(h + off, "x-%zu: v\r\n", i);
	strcpy(h + off, "\r\n");
	cr_assert_eq(answer(h, "", &code), SERVER_ANSWER);
	/* One more: 201 lines. */
	off = (size_t)sprintf(h, "HTTP/1.1 200 OK\r\n");
	for (i = 0; i < 199; i++)
		off += (size_t)sprintf(h + off, "x-%zu: v\r\n", i);
	strcpy(h + off, "\r\n");
	cr_assert_eq(answer(h, "", &code), SERVER_UNREADABLE);
	cr_assert_str_eq(code, ERR_SERVER_UNREADABLE);
	/* Few lines, past 64 KiB. */
	off = (size_t)sprintf(h, "HTTP/1.1 200 OK\r\nx-big: ");
	memset(h + off, 'a', 65 * 1024);
	off += 65 * 1024;
	strcpy(h + off, "\r\n\r\n");
	cr_assert_eq(answer(h, "", &code), SERVER_UNREADABLE);
	cr_assert_str_eq(code, ERR_SERVER_UNREADABLE);
	free(h);
}

/* Refused, not parsed line by line forever: its speed is bench's. */
Test(server, repeated_header_lines_are_refused)
{
	char		*h;
	const char	*code;
	size_t		 i, off, n = 160000;

	h = malloc(n * 8 + 64);
	cr_assert_not_null(h);
	off = (size_t)sprintf(h, "HTTP/1.1 200 OK\r\n");
	for (i = 0; i < n; i++) {
		memcpy(h + off, "a: b\r\n", 6);
		off += 6;
	}
	strcpy(h + off, "\r\n");
	/* regress/bench/journal_headers.sh times it against one pass. */
	cr_assert_eq(answer(h, "", &code), SERVER_UNREADABLE);
	cr_assert_str_eq(code, ERR_SERVER_UNREADABLE);
	free(h);
}

Test(server, huge_answer)
{
	struct server_exec_msg	 se;
	const char		*code;
	uint8_t			 out[16] = "HTTP/1.1 200 OK", err[] =
	    "spaced-curl 200 19 99999999\n";

	memset(&se, 0, sizeof(se));
	/* The runner cut it off: unreadable, never "output too large". */
	se.se_truncated = 1;
	se.se_outlen = 16;
	cr_assert_eq(server_answer_parse(&se, out, err, &sa, &code),
	    SERVER_UNREADABLE);
	cr_assert_str_eq(code, ERR_SERVER_UNREADABLE);
	se.se_truncated = 0;
	se.se_outlen = SERVER_OUT_MAX + 1;
	cr_assert_eq(server_answer_parse(&se, out, err, &sa, &code),
	    SERVER_UNREADABLE);
	/* Counts that do not add up to what came. */
	se.se_outlen = 16;
	se.se_errlen = (uint32_t)strlen((char *)err);
	cr_assert_eq(server_answer_parse(&se, out, err, &sa, &code),
	    SERVER_UNREADABLE);
}

static enum server_verdict
exec_result(int exit, const char *out, const char *err, int timedout,
    const char **code)
{
	struct server_exec_msg	 se;

	memset(&se, 0, sizeof(se));
	se.se_exit = exit;
	se.se_timedout = (uint32_t)timedout;
	se.se_outlen = (uint32_t)strlen(out);
	se.se_errlen = (uint32_t)strlen(err);
	return server_answer_parse(&se, (const uint8_t *)out,
	    (const uint8_t *)err, &sa, code);
}

Test(server, not_http_and_curl_errors)
{
	const char	*code;

	/* Measured, curl 7.88.1: a listener that answers "hello". */
	cr_assert_eq(exec_result(1, "", "curl: (1) Received HTTP/0.9 when "
	    "not allowed\nspaced-curl 000 0 0\n", 0, &code),
	    SERVER_UNREACHABLE);
	cr_assert_str_eq(code, ERR_SERVER_UNREACHABLE);
	/* Nothing listens yet. */
	cr_assert_eq(exec_result(7, "", "curl: (7) Failed to connect to "
	    "127.0.0.1 port 27600 after 0 ms: Couldn't connect to server\n"
	    "spaced-curl 000 0 0\n", 0, &code), SERVER_UNREACHABLE);
	/* A listener that never answers: curl's time limit. */
	cr_assert_eq(exec_result(28, "", "curl: (28) Operation timed out\n"
	    "spaced-curl 000 0 0\n", 0, &code), SERVER_UNREACHABLE);
	/* The exec was killed at its own limit. */
	cr_assert_eq(exec_result(-1, "", "", 1, &code), SERVER_UNREACHABLE);
	/* The container is gone: the exec's own failure, no curl line. */
	cr_assert_eq(exec_result(126, "", "OCI runtime exec failed\n", 0,
	    &code), SERVER_EXEC_FAILED);
	cr_assert_str_eq(code, ERR_DOCKER_FAILED);
	cr_assert_eq(exec_result(1, "", "Error: No such container\n", 0,
	    &code), SERVER_EXEC_FAILED);
	/* curl's exit 1 with curl's words: not the exec's failure. */
	cr_assert_eq(exec_result(1, "", "curl: (1) Protocol x\n", 0, &code),
	    SERVER_UNREACHABLE);
	/* Exit 0 without curl's line: not ours to read. */
	cr_assert_eq(exec_result(0, "HTTP/1.1 200 OK\r\n\r\n", "", 0, &code),
	    SERVER_UNREADABLE);
	/* A status line that is not HTTP. */
	cr_assert_eq(exec_result(0, "hello\r\n\r\n", "spaced-curl 200 9 0\n",
	    0, &code), SERVER_UNREADABLE);
}

Test(server, write_out_injection)
{
	const char	*code;

	/*
	 * A ~/.curlrc write-out (what --disable keeps out) or a body that
	 * spells curl's line: stdout is never read for it, and a second
	 * line on stderr after curl's is not curl's line.
	 */
	cr_assert_eq(exec_result(0, "HTTP/1.1 200 OK\r\n\r\n"
	    "{\"healthy\":true}\nspaced-curl 200 19 16\n",
	    "spaced-curl 200 19 16\n", 0, &code), SERVER_UNREADABLE);
	cr_assert_eq(exec_result(0, "HTTP/1.1 200 OK\r\n\r\n{}",
	    "spaced-curl 200 19 2\nspaced-curl 200 19 2 injected\n", 0,
	    &code), SERVER_UNREADABLE);
	cr_assert_eq(exec_result(0, "HTTP/1.1 200 OK\r\n\r\n{}",
	    "spaced-curl 200 19 2\ninjected", 0, &code), SERVER_UNREADABLE);
	/* A status that disagrees with the parsed one. */
	cr_assert_eq(exec_result(0, "HTTP/1.1 500 X\r\n\r\n{}",
	    "spaced-curl 200 18 2\n", 0, &code), SERVER_UNREADABLE);
	/* Headers smuggled into the body stay body. */
	cr_assert_eq(exec_result(0, "HTTP/1.1 200 OK\r\n\r\n"
	    "X-Evil: 1\r\n\r\n", "spaced-curl 200 19 13\n", 0, &code),
	    SERVER_ANSWER);
	cr_assert_eq(sa.sa_nheaders, 0);
	cr_assert_eq(sa.sa_bodylen, 13);
}

Test(server, malformed_headers)
{
	static const char	*bad[] = {
		"HTTP/1.1 200 OK\r\n folded\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
		"HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nx: a\001b\r\n\r\n",
		"HTTP/1.1 200 OK\r\nx: unterminated",
		"HTTP/1.1 99 X\r\n\r\n",
		"HTTP/1.1 2000 X\r\n\r\n",
		"HTTP/9.9 200 X\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\n",
		"HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
	};
	const char		*code;
	size_t			 i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(answer(bad[i], "", &code), SERVER_UNREADABLE,
		    "%zu", i);
}

static int
token(int exit, const char *out, size_t n, int timedout, char *tok)
{
	struct server_exec_msg	 se;
	const char		*code;
	int			 rc;

	memset(&se, 0, sizeof(se));
	se.se_exit = exit;
	se.se_timedout = (uint32_t)timedout;
	se.se_outlen = (uint32_t)n;
	rc = server_token_parse(&se, (const uint8_t *)out, tok, &code);
	if (rc == -1)
		cr_assert_str_eq(code, ERR_TOKEN_UNREADABLE);
	return rc;
}

Test(server, token_read_back)
{
	char	 tok[SERVER_TOKEN_MAX + 1], big[512];
	/* 32 random bytes in base64url: 43 characters. */
	const char *good = "q1w2e3r4t5y6u7i8o9p0-_ASDFGHJKLZXCVBNMqwert";

	cr_assert_eq(token(0, good, strlen(good), 0, tok), 0);
	cr_assert_str_eq(tok, good);
	memset(big, 'a', sizeof(big));
	cr_assert_eq(token(0, big, 32, 0, tok), 0);
	cr_assert_eq(token(0, big, 128, 0, tok), 0);
	cr_assert_eq(token(0, big, 31, 0, tok), -1);
	cr_assert_eq(token(0, big, 129, 0, tok), -1);	/* huge */
	cr_assert_eq(token(0, "", 0, 0, tok), -1);	/* empty */
	cr_assert_eq(token(-1, "", 0, 1, tok), -1);	/* a FIFO: the limit */
	cr_assert_eq(token(1, good, strlen(good), 0, tok), -1);
	cr_assert_eq(token(0, "q1w2e3r4t5y6u7i8o9p0+/ASDFGHJKLZXCVBNMqwert",
	    43, 0, tok), -1);	/* base64, not base64url */
	cr_assert_eq(token(0, "q1w2e3r4t5y6u7i8o9p0-_ASDFGHJKLZXCVBNMqwer\n",
	    43, 0, tok), -1);
	cr_assert_eq(token(0, "q1w2e3r4t5y6u7i8o9p0-_ASDFGHJKLZXCVBNMqw==",
	    43, 0, tok), -1);
}

Test(server, curl_config)
{
	struct server_request	 sr;
	char			 buf[4096];
	const char		*bad = "X-A: 1\r\nX-B: 2";

	memset(&sr, 0, sizeof(sr));
	sr.sr_method = "GET";
	sr.sr_port = 27600;
	sr.sr_path = "/global/health";
	sr.sr_auth_user = "opencode";
	sr.sr_token = "tok";
	sr.sr_max_ms = SERVER_ATTEMPT_MS;
	cr_assert_gt(server_curl_config(&sr, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "url = \"http://127.0.0.1:27600/global/health\"\n")
	    != NULL, "%s", buf);
	cr_assert(strstr(buf, "max-time = 3.000\n") != NULL);
	/* the first attempt's limit, below a second */
	sr.sr_max_ms = SERVER_ATTEMPT_FIRST_MS;
	cr_assert_gt(server_curl_config(&sr, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "max-time = 0.500\nconnect-timeout = 0.500\n")
	    != NULL, "%s", buf);
	sr.sr_max_ms = SERVER_ATTEMPT_MS;
	/* base64("opencode:tok") */
	cr_assert(strstr(buf, "header = \"Authorization: Basic "
	    "b3BlbmNvZGU6dG9r\"\n") != NULL, "%s", buf);
	cr_assert(strstr(buf, "write-out = \"%{stderr}spaced-curl "
	    "%{http_code} %{size_header} %{size_download}\\n\"\n") != NULL);
	/* A body with quotes, a newline and a leading @ goes as data-raw. */
	sr.sr_body = (const uint8_t *)"@/etc/passwd \"x\"\n\\";
	sr.sr_bodylen = strlen((const char *)sr.sr_body);
	cr_assert_gt(server_curl_config(&sr, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "data-raw = \"@/etc/passwd \\\"x\\\"\\n\\\\\"\n")
	    != NULL, "%s", buf);
	/* A header that would start a second config line: refused. */
	sr.sr_headers[0] = bad;
	sr.sr_nheaders = 1;
	cr_assert_eq(server_curl_config(&sr, buf, sizeof(buf)), -1);
	sr.sr_nheaders = 0;
	sr.sr_method = "get";
	cr_assert_eq(server_curl_config(&sr, buf, sizeof(buf)), -1);
	sr.sr_method = "GET";
	sr.sr_path = "http://elsewhere/";
	cr_assert_eq(server_curl_config(&sr, buf, sizeof(buf)), -1);
	sr.sr_path = "/a b";
	cr_assert_eq(server_curl_config(&sr, buf, sizeof(buf)), -1);
}

/* The readiness wait's cadence (spaced(8)): 0.5 s growing to 3 s. */
Test(server, attempt_next)
{
	int	 ms = SERVER_ATTEMPT_FIRST_MS;

	cr_assert_eq(ms, 500);
	/* Answered or refused within its limit: the same limit. */
	server_attempt_next(&ms, 120);
	cr_assert_eq(ms, 500);
	server_attempt_next(&ms, 499);
	cr_assert_eq(ms, 500);
	/* Used its limit up: one second more each time, up to 3. */
	server_attempt_next(&ms, 500);
	cr_assert_eq(ms, 1500);
	server_attempt_next(&ms, 1499);
	cr_assert_eq(ms, 1500);
	server_attempt_next(&ms, 1600);
	cr_assert_eq(ms, 2500);
	server_attempt_next(&ms, 2600);
	cr_assert_eq(ms, SERVER_ATTEMPT_MS);
	server_attempt_next(&ms, 3400);
	cr_assert_eq(ms, SERVER_ATTEMPT_MS);
	/* A fast answer later does not shrink it again. */
	server_attempt_next(&ms, 100);
	cr_assert_eq(ms, SERVER_ATTEMPT_MS);
}

/* 0.5 s apart start to start; at once after a longer attempt. */
Test(server, attempt_pause)
{
	cr_assert_eq(server_attempt_pause(0), 500);
	cr_assert_eq(server_attempt_pause(120), 380);
	cr_assert_eq(server_attempt_pause(499), 1);
	cr_assert_eq(server_attempt_pause(500), 0);
	cr_assert_eq(server_attempt_pause(3100), 0);
}
