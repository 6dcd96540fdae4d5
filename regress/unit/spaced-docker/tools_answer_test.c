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
 * The engine's answers as tools ensure, its prune and the filler's
 * corridor read them (worker-docker/tools_answer.c): only what the
 * labels make the owner's of the key, at most the caller's room, a
 * name or id plain and whole or not at all; an answer that does not
 * parse (not JSON, nested past jansson's depth, a NUL in a string)
 * takes nothing.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/tools_answer.h"
#include "worker-docker/tools_volume.h"
#include "worker_harness.h"

#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define KEY	"0123456789abcdef"
#define TLABELS(role, owner, key) "{\"" LABEL_MARKER "\":\"true\",\"" \
		LABEL_ROLE "\":\"" role "\",\"" LABEL_OWNER "\":\"" owner \
		"\",\"" LABEL_TOOLS_KEY "\":\"" key "\"}"

static char	 out[40][SPACE_RESOURCE_MAX];

/* A body nested n arrays deep around a valid answer. */
static char *
nested(size_t n, const char *inner)
{
	char	*s;
	size_t	 len = strlen(inner);

	cr_assert_not_null(s = malloc(2 * n + len + 1));
	memset(s, '[', n);
	memcpy(s + n, inner, len);
	memset(s + n + len, ']', n);
	s[2 * n + len] = '\0';
	return s;
}

Test(tools_answer, a_volume_is_ours_only_by_its_labels)
{
	char	*s;

	/* The control: the owner's volume of this key. */
	cr_assert_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    TLABELS("tools", OWNER, KEY) "}"), OWNER, TOOLS_ROLE_VOLUME,
	    KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    TLABELS("tools", "ffff:0", KEY) "}"), OWNER, TOOLS_ROLE_VOLUME,
	    KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    TLABELS("tools", OWNER, "fedcba9876543210") "}"), OWNER,
	    TOOLS_ROLE_VOLUME, KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    TLABELS("tools-fill", OWNER, KEY) "}"), OWNER, TOOLS_ROLE_VOLUME,
	    KEY));
	/* Missing, of the wrong type, not JSON, a NUL, too deep. */
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{}"), OWNER,
	    TOOLS_ROLE_VOLUME, KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    "[1]}"), OWNER, TOOLS_ROLE_VOLUME, KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    "{\"" LABEL_MARKER "\":true,\"" LABEL_ROLE "\":\"tools\",\""
	    LABEL_OWNER "\":\"" OWNER "\",\"" LABEL_TOOLS_KEY "\":\"" KEY
	    "\"}}"), OWNER, TOOLS_ROLE_VOLUME, KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"),
	    OWNER, TOOLS_ROLE_VOLUME, KEY));
	cr_assert_not_null(tools_answer_labels(wh_answer(200, "{\"Labels\":"
	    "{\"" LABEL_MARKER "\":\"true\",\"" LABEL_ROLE "\":\"tools\",\""
	    LABEL_OWNER "\":\"" OWNER "\\u0000\",\"" LABEL_TOOLS_KEY "\":\""
	    KEY "\"}}"), OWNER, TOOLS_ROLE_VOLUME, KEY));
	s = nested(100000, "{\"Labels\":" TLABELS("tools", OWNER, KEY) "}");
	cr_assert_not_null(tools_answer_labels(wh_answer(200, s), OWNER,
	    TOOLS_ROLE_VOLUME, KEY));
	free(s);
}

Test(tools_answer, at_most_max_one_shots_of_the_key_whole)
{
	char	 longid[SPACE_RESOURCE_MAX + 1], *s;
	size_t	 n, i;

	/* Fill and check one-shots of the key, TV_STALE_MAX of 30. */
	s = wh_many("[", "{\"Id\":\"c%zu\",\"Labels\":" TLABELS("tools-fill",
	    OWNER, KEY) "}", 30, "]");
	n = tools_stale_take(wh_answer(200, s), OWNER, KEY, out, TV_STALE_MAX);
	free(s);
	cr_assert_eq(n, TV_STALE_MAX);
	for (i = 0; i < n; i++) {
		cr_assert_eq(strncmp(out[i], "c", 1), 0);
		cr_assert_eq(atoi(out[i] + 1), (int)i);
	}
	n = tools_stale_take(wh_answer(200, "[{\"Id\":\"k\",\"Labels\":"
	    TLABELS("tools-check", OWNER, KEY) "}]"), OWNER, KEY, out,
	    TV_STALE_MAX);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(out[0], "k");
	/* Another key, owner or role; an Id not plain, too long, no Id. */
	memset(longid, 'a', sizeof(longid) - 1);
	longid[sizeof(longid) - 1] = '\0';
	cr_assert_neq(asprintf(&s, "[{\"Id\":\"x1\",\"Labels\":"
	    TLABELS("tools-fill", OWNER, "fedcba9876543210") "},"
	    "{\"Id\":\"x2\",\"Labels\":" TLABELS("tools-fill", "ffff:0", KEY)
	    "},{\"Id\":\"x3\",\"Labels\":" TLABELS("tools", OWNER, KEY) "},"
	    "{\"Id\":\"x/4\",\"Labels\":" TLABELS("tools-fill", OWNER, KEY)
	    "},{\"Id\":\"%s\",\"Labels\":" TLABELS("tools-fill", OWNER, KEY)
	    "},{\"Id\":5,\"Labels\":" TLABELS("tools-fill", OWNER, KEY) "},"
	    "{\"Labels\":" TLABELS("tools-fill", OWNER, KEY) "},"
	    "{\"Id\":\"x8\",\"Labels\":\"" KEY "\"},7,null,\"x\"]", longid),
	    -1);
	n = tools_stale_take(wh_answer(200, s), OWNER, KEY, out, TV_STALE_MAX);
	free(s);
	cr_assert_eq(n, 0, "took %s", out[0]);
	/* Not a listing, not 200. */
	cr_assert_eq(tools_stale_take(wh_answer(200, "{\"Id\":\"c\"}"), OWNER,
	    KEY, out, TV_STALE_MAX), 0);
	cr_assert_eq(tools_stale_take(wh_answer(500, "[{\"Id\":\"c\","
	    "\"Labels\":" TLABELS("tools-fill", OWNER, KEY) "}]"), OWNER, KEY,
	    out, TV_STALE_MAX), 0);
}

static int
held_c3(const char *name, void *arg)
{
	(*(int *)arg)++;
	return strcmp(name, "spaced-tools-003") == 0;
}

#define HEX64	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"
#define TVOL	"{\"Name\":\"spaced-tools-%03zu\",\"Labels\":" \
		TLABELS("tools", OWNER, KEY) "}"

Test(tools_answer, a_prune_spares_the_kept_and_takes_at_most_max)
{
	struct tools_keep	 tk;
	char			*s;
	size_t			 n;
	int			 asked = 0;

	memset(&tk, 0, sizeof(tk));
	strlcpy(tk.tk_volume[0], "spaced-tools-001", sizeof(tk.tk_volume[0]));
	s = wh_many("{\"Volumes\":[", TVOL, 6, "]}");
	/* keep (000), a profile's (001), held (003): 002, 004, 005. */
	n = tools_prune_take(wh_answer(200, s), OWNER, "spaced-tools-000", &tk,
	    held_c3, &asked, out, TV_STALE_MAX);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(out[0], "spaced-tools-002");
	cr_assert_str_eq(out[1], "spaced-tools-004");
	cr_assert_str_eq(out[2], "spaced-tools-005");
	cr_assert_eq(asked, 4);
	/* At most max. */
	n = tools_prune_take(wh_answer(200, s), OWNER, "x", &tk, held_c3,
	    &asked, out, 2);
	cr_assert_eq(n, 2);
	free(s);
	s = wh_many("{\"Volumes\":[", TVOL, 30, "]}");
	cr_assert_eq(tools_prune_take(wh_answer(200, s), OWNER, "x", &tk,
	    held_c3, &asked, out, TV_STALE_MAX), TV_STALE_MAX);
	free(s);
	/* Another owner's, not a tools volume, no labels: none. */
	cr_assert_eq(tools_prune_take(wh_answer(200, "{\"Volumes\":["
	    "{\"Name\":\"a\",\"Labels\":" TLABELS("tools", "ffff:0", KEY) "},"
	    "{\"Name\":\"b\",\"Labels\":" TLABELS("tools-fill-socket", OWNER,
	    KEY) "},{\"Name\":\"c\"},{\"Name\":[\"d\"],\"Labels\":"
	    TLABELS("tools", OWNER, KEY) "}]}"), OWNER, "x", &tk, held_c3,
	    &asked, out, TV_STALE_MAX), 0);
	cr_assert_eq(tools_prune_take(wh_answer(200, "[]"), OWNER, "x", &tk,
	    held_c3, &asked, out, TV_STALE_MAX), 0);
	cr_assert_eq(tools_prune_take(wh_answer(200, "{\"Volumes\":{}}"), OWNER,
	    "x", &tk, held_c3, &asked, out, TV_STALE_MAX), 0);
}

Test(tools_answer, a_made_answer_gives_a_plain_id_whole_or_none)
{
	struct harden_report	 hr;
	char			 id[SPACE_RESOURCE_MAX], longid[SPACE_RESOURCE_MAX + 1];
	char			*s;

	/* The control: no warning, a plain id. */
	harden_report_init(&hr);
	strlcpy(id, "", sizeof(id));
	cr_assert_null(tools_made_take(wh_answer(201, "{\"Id\":\"" HEX64 "\","
	    "\"Warnings\":[]}"), OWNER, TOOLS_ROLE_FILL_GK, KEY, &hr, id,
	    sizeof(id)));
	cr_assert_eq(hr.hr_n, 0, "%s", hr.hr_v[0].hv_check);
	cr_assert_str_eq(id, HEX64);
	/* A warning is a violation; an id not plain or too long none. */
	harden_report_init(&hr);
	strlcpy(id, "", sizeof(id));
	cr_assert_null(tools_made_take(wh_answer(201, "{\"Id\":\"a/b\","
	    "\"Warnings\":[\"dropped\"]}"), OWNER, TOOLS_ROLE_FILL_GK, KEY,
	    &hr, id, sizeof(id)));
	cr_assert_gt(hr.hr_n, 0);
	cr_assert_str_eq(id, "");
	memset(longid, 'a', sizeof(longid) - 1);
	longid[sizeof(longid) - 1] = '\0';
	cr_assert_neq(asprintf(&s, "{\"Id\":\"%s\"}", longid), -1);
	harden_report_init(&hr);
	cr_assert_null(tools_made_take(wh_answer(201, s), OWNER,
	    TOOLS_ROLE_FILL_GK, KEY, &hr, id, sizeof(id)));
	free(s);
	cr_assert_str_eq(id, "");
	/* A room smaller than the id: none, never cut. */
	cr_assert_null(tools_made_take(wh_answer(201, "{\"Id\":\"abcdef\"}"),
	    OWNER, TOOLS_ROLE_FILL_GK, KEY, &hr, id, 4));
	cr_assert_str_eq(id, "");
	/* The socket volume: its labels say whose. */
	cr_assert_null(tools_made_take(wh_answer(201, "{\"Name\":\"v\","
	    "\"Labels\":" TLABELS("tools-fill-socket", OWNER, KEY) "}"), OWNER,
	    TOOLS_ROLE_FILL_SOCK, KEY, &hr, NULL, 0));
	cr_assert_not_null(tools_made_take(wh_answer(201, "{\"Name\":\"v\","
	    "\"Labels\":" TLABELS("tools-fill-socket", "ffff:0", KEY) "}"),
	    OWNER, TOOLS_ROLE_FILL_SOCK, KEY, &hr, NULL, 0));
	cr_assert_not_null(tools_made_take(wh_answer(201, "not json"), OWNER,
	    TOOLS_ROLE_FILL_SOCK, KEY, &hr, NULL, 0));
}
