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
 * spacectl prompt's other answers from the space's server
 * (spacectl_answer.c): a new session's id is taken whole, of its
 * charset, or not at all; a failed turn's status is the model's only
 * when it is one (three digits: a statusCode of 2^32 + 401 was read as
 * 401 by an int cast, and spacectl advised a new key); the window's
 * refusal names a grant only of the model's URL.
 */

#include <criterion/criterion.h>
#include <string.h>

#include "supervisor/spacectl/spacectl_turn.h"

#define SPACE	"0123456789ab"

static int
sid(const char *body, char *out, size_t len)
{
	json_t	*o;
	int	 rv;

	o = json_loads(body, 0, NULL);
	rv = prompt_sid_take(o, out, len);
	json_decref(o);
	return rv;
}

Test(answer, a_session_id_is_taken_whole_of_its_charset_or_not_at_all)
{
	char	 s[129], id[200];

	cr_assert_eq(sid("{\"id\":\"ses_4f1c2a9e7ffeXq2b\"}", s, sizeof(s)),
	    0);
	cr_assert_str_eq(s, "ses_4f1c2a9e7ffeXq2b");
	strlcpy(s, "kept", sizeof(s));
	cr_assert_eq(sid("{\"id\":\"\"}", s, sizeof(s)), -1, "\"\" taken");
	cr_assert_eq(sid("{\"id\":\"../x\"}", s, sizeof(s)), -1);
	cr_assert_eq(sid("{\"id\":\"a b\"}", s, sizeof(s)), -1);
	cr_assert_eq(sid("{\"id\":7}", s, sizeof(s)), -1);
	cr_assert_eq(sid("[\"id\"]", s, sizeof(s)), -1);
	cr_assert_eq(sid("null", s, sizeof(s)), -1);
	cr_assert_str_eq(s, "kept");
	/* The room, to the byte: 128 fits 127 and its NUL. */
	memset(id, 'a', sizeof(id));
	snprintf(id, sizeof(id), "{\"id\":\"%.*s\"}", 127,
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	cr_assert_eq(sid(id, s, 128), 0);
	cr_assert_eq(strlen(s), 127);
	cr_assert_eq(sid(id, s, 127), -1, "cut to \"%s\"", s);
}

static void
why(const char *body, struct turn_why *w)
{
	static json_t	*o;	/* w's strings are its: held till the next */

	json_decref(o);
	cr_assert_not_null(o = json_loads(body, 0, NULL));
	turn_why(o, SPACE, w);
}

Test(answer, a_status_is_the_models_only_when_it_is_one)
{
	struct turn_why	 w;

	why("{\"data\":{\"statusCode\":4294967697,\"message\":\"m\"}}", &w);
	cr_assert_eq(w.status, 0, "2^32 + 401 read as %d", w.status);
	cr_assert_str_eq(w.code, "turn_failed");
	cr_assert_str_eq(w.advice, "");
	why("{\"data\":{\"statusCode\":-401}}", &w);
	cr_assert_eq(w.status, 0);
	why("{\"data\":{\"statusCode\":1000}}", &w);
	cr_assert_eq(w.status, 0);
	why("{\"data\":{\"statusCode\":\"401\"}}", &w);
	cr_assert_eq(w.status, 0);
	/* The control: the model's own statuses. */
	why("{\"name\":\"APIError\",\"data\":{\"statusCode\":401,"
	    "\"message\":\"Unauthorized\"}}", &w);
	cr_assert_eq(w.status, 401);
	cr_assert_str_eq(w.code, "model_refused");
	cr_assert_str_eq(w.name, "APIError");
	cr_assert_str_eq(w.message, "Unauthorized");
	cr_assert(strstr(w.advice, "spacectl grant " SPACE) != NULL);
	cr_assert_eq(w.own, 0);
	why("{\"data\":{\"statusCode\":500}}", &w);
	cr_assert_str_eq(w.code, "model_failed");
	why("{\"data\":{\"statusCode\":100}}", &w);
	cr_assert_eq(w.status, 100);
}

#define WINDOW(url)	"{\"data\":{\"statusCode\":403,\"message\":\"F\"," \
			"\"responseHeaders\":{\"x-gatekeeper-reason\":\"g\"}," \
			"\"metadata\":{\"url\":\"" url "\"}}}"
#define G64	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

Test(answer, the_windows_refusal_names_a_grant_only_of_the_models_url)
{
	struct turn_why	 w;

	why(WINDOW("http://gatekeeper:8080/model/anthropic_1/v1/messages"),
	    &w);
	cr_assert_eq(w.own, 1);
	cr_assert_str_eq(w.code, "window_refused");
	cr_assert(strstr(w.advice, "grant 'anthropic_1'") != NULL, "%s",
	    w.advice);
	cr_assert_eq(w.message, w.advice);
	/* 64 is a name; 65 is none of ours: the word GRANT. */
	why(WINDOW("http://gatekeeper:8080/model/" G64 "/v1"), &w);
	cr_assert(strstr(w.advice, "grant '" G64 "'") != NULL);
	why(WINDOW("http://gatekeeper:8080/model/" G64 "a/v1"), &w);
	cr_assert(strstr(w.advice, "grant 'GRANT'") != NULL, "%s", w.advice);
	why(WINDOW("http://evil:8080/model/x/v1"), &w);
	cr_assert(strstr(w.advice, "grant 'GRANT'") != NULL);
	why(WINDOW("http://gatekeeper:8080/model/'; rm -rf ~/v1"), &w);
	cr_assert(strstr(w.advice, "grant 'GRANT'") != NULL);
	/* Without the window's header: the server's words, then advice. */
	why("{\"data\":{\"statusCode\":403,\"message\":\"F\"}}", &w);
	cr_assert_eq(w.own, 0);
	cr_assert_str_eq(w.message, "F");
	cr_assert(strstr(w.advice, "holds no grant") != NULL);
}
