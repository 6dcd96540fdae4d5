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
 * The window's path rules: "/model/<id>/<rest>" and a rest that must not
 * climb out, however many times it was percent-encoded.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gatekeeper/spaced-gatekeeper/gk_rules.h"

static int
walks(const char *rest)
{
	return gk_path_walks_out(rest, strlen(rest));
}

/* ".." percent-encoded n times over: each round encodes every '%' too. */
static char *
encode_dotdot(int n)
{
	char	*s, *t;
	size_t	 i, o;
	int	 round;

	s = strdup("..");
	cr_assert_not_null(s);
	for (round = 0; round < n; round++) {
		t = malloc(strlen(s) * 3 + 1);
		cr_assert_not_null(t);
		for (i = 0, o = 0; s[i] != '\0'; i++) {
			if (s[i] == '.' || s[i] == '%') {
				o += sprintf(t + o, "%%%02X", (unsigned char)s[i]);
			} else
				t[o++] = s[i];
		}
		t[o] = '\0';
		free(s);
		s = t;
	}
	return s;
}

static const char *must_refuse[] = {
	"..", "../x", "x/..", "a/../../b", "a/b/../../../etc/passwd",
	"%2e%2e", "%2E%2E", ".%2e", "%2e.", "%2E%2E/x", "x/%2e%2e/y",
	"..%2f", "..%2F", "..%5c", "..%5C", "..;", "..%3bfoo", "..%3Bfoo",
	"..%3f", "..%23", "%252e%252e", "%25252e%25252e",
	"a\\..\\b", "..\\x", "..?x", "..#x", "x;..;y", "x?..", "x#..",
	"%2e%2e%2fx", "a%2f..%2fb", "a%5c%2e%2e%5cb",
	/* bad escapes: will not decode */
	"%", "%2", "%zz", "%2g", "%g2", "100%", "%%", "a%", "%252",
	"%25zz", "%25%",
	/* a literal '%' sent as "%25" decodes on to a bare '%' */
	"%25", "%2525", "50%25off",
	/* NUL, raw (see below) or decoded */
	"%00", "a%00b", "%2500", "..%00",
};

static const char *must_allow[] = {
	"", "v1/chat/completions", "v1/messages", "@scope%2fname",
	"@scope%2Fname/-/name-1.0.0.tgz", "a..b", "...", ".a", "a.",
	"v1/..x", "x../y", "..a", "a/./b", ".", "./x", "%41", "%2e",
	"%2e%2e%2e", "v1/models?limit=10", "a%20b", "%252541",
	"v1/chat/completions?x=a..b", "....//....",
};

Test(window, path_must_refuse)
{
	size_t	i;

	for (i = 0; i < sizeof(must_refuse) / sizeof(must_refuse[0]); i++)
		cr_expect_eq(walks(must_refuse[i]), 1, "\"%s\" let through",
		    must_refuse[i]);
}

Test(window, path_must_allow)
{
	size_t	i;

	for (i = 0; i < sizeof(must_allow) / sizeof(must_allow[0]); i++)
		cr_expect_eq(walks(must_allow[i]), 0, "\"%s\" refused",
		    must_allow[i]);
}

/*
 * Control first: an encoding that differs by one byte from the ".." is
 * let through, so the refusal below is about the "..", at every depth.
 */
Test(window, encoded_dotdot_at_every_depth)
{
	char	*s, *p;
	int	 n;

	for (n = 0; n <= 8; n++) {
		s = encode_dotdot(n);
		cr_expect_eq(walks(s), 1, "%d times encoded \"%s\" let through",
		    n, s);
		/* Turn the last '.' (0x2E at the deepest level) into '/'. */
		p = strrchr(s, n == 0 ? '.' : 'E');
		cr_assert_not_null(p);
		*p = n == 0 ? '/' : 'F';
		cr_expect_eq(walks(s), 0, "control \"%s\" refused", s);
		free(s);
	}
	s = encode_dotdot(4);
	cr_expect_str_eq(s, "%2525252E%2525252E");
	free(s);
}

Test(window, raw_nul_refused)
{
	char	a[] = "v1\0/x";

	cr_expect_eq(gk_path_walks_out(a, sizeof(a) - 1), 1);
	/* Control: the same bytes before the NUL pass. */
	cr_expect_eq(gk_path_walks_out(a, 2), 0);
}

Test(window, length_cap)
{
	char	*s;
	size_t	 k, n;

	s = malloc(GK_PATH_REST_MAX + 2);
	cr_assert_not_null(s);
	memset(s, 'a', GK_PATH_REST_MAX + 1);
	cr_expect_eq(gk_path_walks_out(s, GK_PATH_REST_MAX), 0);
	cr_expect_eq(gk_path_walks_out(s, GK_PATH_REST_MAX + 1), 1);

	/*
	 * The most rounds a capped rest can take: "%2525...2541" loses two
	 * bytes a round and ends as "A".  It must finish, and allow.
	 */
	k = (GK_PATH_REST_MAX - 3) / 2;
	s[0] = '%';
	for (n = 0; n < k; n++)
		memcpy(s + 1 + 2 * n, "25", 2);
	memcpy(s + 1 + 2 * k, "41", 2);
	n = 3 + 2 * k;
	cr_assert_leq(n, GK_PATH_REST_MAX);
	cr_expect_eq(gk_path_walks_out(s, n), 0);
	/* The same depth ending in ".." is refused. */
	memcpy(s + 1 + 2 * k, "2E", 2);
	s[n] = '.';
	cr_assert_leq(n + 1, GK_PATH_REST_MAX);
	cr_expect_eq(gk_path_walks_out(s, n + 1), 1);
	free(s);
}

Test(window, split)
{
	char		 id[GK_GRANT_ID_MAX + 1], big[200], big2[200];
	const char	*rest;
	size_t		 restlen;
	const char	*p;

	p = "/model/abc/v1/chat/completions";
	cr_expect_eq(gk_window_split(p, strlen(p), id, sizeof(id), &rest,
	    &restlen), 0);
	cr_expect_str_eq(id, "abc");
	cr_expect_eq(restlen, strlen("v1/chat/completions"));
	cr_expect_eq(memcmp(rest, "v1/chat/completions", restlen), 0);

	p = "/model/A_b-9/";
	cr_expect_eq(gk_window_split(p, strlen(p), id, sizeof(id), &rest,
	    &restlen), 0);
	cr_expect_str_eq(id, "A_b-9");
	cr_expect_eq(restlen, 0);

	p = "/model/g/v1?x=1";
	cr_expect_eq(gk_window_split(p, strlen(p), id, sizeof(id), &rest,
	    &restlen), 0);
	cr_expect_eq(restlen, 6);

	/* Only len bytes count. */
	p = "/model/abc/xyz";
	cr_expect_eq(gk_window_split(p, 10, id, sizeof(id), &rest,
	    &restlen), -1);
	cr_expect_eq(gk_window_split(p, 11, id, sizeof(id), &rest,
	    &restlen), 0);
	cr_expect_eq(restlen, 0);

	/* 64 bytes of id fit, 65 do not. */
	memcpy(big, "/model/", 7);
	memset(big + 7, 'i', 64);
	memcpy(big + 71, "/x", 3);
	cr_expect_eq(gk_window_split(big, strlen(big), id, sizeof(id), &rest,
	    &restlen), 0);
	cr_expect_eq(strlen(id), 64);
	cr_expect_eq(gk_window_split(big, strlen(big), id, 64, &rest,
	    &restlen), -1);
	memset(big + 7, 'i', 65);
	memcpy(big + 72, "/x", 3);
	cr_expect_eq(gk_window_split(big, strlen(big), id, sizeof(id), &rest,
	    &restlen), -1);
	/* The cap is the id's, not the buffer's. */
	cr_expect_eq(gk_window_split(big, strlen(big), big2, sizeof(big2),
	    &rest, &restlen), -1);
}

Test(window, split_refuses)
{
	static const char	*bad[] = {
		"", "/", "/model", "/model/", "/model/abc", "/model//x",
		"/models/abc/x", "model/abc/x", "/MODEL/abc/x", "//model/abc/x",
		"/model/a.b/x", "/model/a%2fb/x", "/model/a b/x",
		"/model/a:b/x", "/model/../x", "/model/a?b/x", "/model/\xc3\xa9/x",
	};
	char			 id[GK_GRANT_ID_MAX + 1];
	char			 nul[] = "/model/a\0b/x";
	const char		*rest;
	size_t			 restlen, i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(gk_window_split(bad[i], strlen(bad[i]), id,
		    sizeof(id), &rest, &restlen), -1, "\"%s\" split", bad[i]);
	cr_expect_eq(gk_window_split(nul, sizeof(nul) - 1, id, sizeof(id),
	    &rest, &restlen), -1);
}

Test(window, grant_id_rule)
{
	static const char	*good[] = { "a", "Z", "0", "_", "-", "A_b-9" };
	static const char	*bad[] = { "", ".", "..", "a.b", "a~b", "~",
		"a/b", "a%41", "a b", "a:b", "\xc3\xa9" };
	size_t			 i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_expect_eq(gk_grant_id_ok(good[i], strlen(good[i])), 1,
		    "\"%s\"", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(gk_grant_id_ok(bad[i], strlen(bad[i])), 0,
		    "\"%s\"", bad[i]);
	cr_expect_eq(gk_grant_id_ok("a\0b", 3), 0);
	cr_expect_eq(gk_grant_id_ok(NULL, 0), 0);
}

/*
 * What control takes (gk_grant_id_ok) is exactly what the window routes:
 * every byte in one place of an id, and every length up to past the cap.
 */
Test(window, grant_id_control_equals_window)
{
	char		 id[GK_GRANT_ID_MAX + 1], cand[200], path[256];
	const char	*rest;
	size_t		 restlen, n;
	int		 c, ok, routed;

	for (c = 0; c < 256; c++) {
		cand[0] = 'a';
		cand[1] = (char)c;
		cand[2] = 'b';
		memcpy(path, "/model/", 7);
		memcpy(path + 7, cand, 3);
		memcpy(path + 10, "/x", 2);
		ok = gk_grant_id_ok(cand, 3);
		routed = gk_window_split(path, 12, id, sizeof(id), &rest,
		    &restlen) == 0 && strlen(id) == 3 &&
		    memcmp(id, cand, 3) == 0;
		/* '/' splits early: the window sees "a", control refuses. */
		if (c == '/')
			cr_expect_eq(ok, 0);
		else
			cr_expect_eq(ok, routed, "byte 0x%02x: control %d, "
			    "window %d", c, ok, routed);
	}
	for (n = 1; n <= 130; n++) {
		memset(cand, 'g', n);
		memcpy(path, "/model/", 7);
		memcpy(path + 7, cand, n);
		memcpy(path + 7 + n, "/x", 2);
		ok = gk_grant_id_ok(cand, n);
		routed = gk_window_split(path, n + 9, id, sizeof(id), &rest,
		    &restlen) == 0 && strlen(id) == n;
		cr_expect_eq(ok, routed, "length %zu: control %d, window %d",
		    n, ok, routed);
		cr_expect_eq(ok, n <= GK_GRANT_ID_MAX);
	}
}
