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
 * The space operations' listings (worker-docker/listing_parse.c): what
 * the engine lists is kept only when the labels make it ours, at most
 * SP_RES_MAX resources, each string whole or not at all.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/space.h"
#include "worker_harness.h"

#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define ID	"0123456789ab"
#define LABELS	"{\"" LABEL_MARKER "\":\"true\",\"" LABEL_ID "\":\"" ID \
		"\",\"" LABEL_ROLE "\":\"gatekeeper\",\"" LABEL_OWNER "\":\"" \
		OWNER "\"}"

static struct sp	 sp;

/* The containers listing body through take_listing; its result. */
static int
take(const char *body, const char *id)
{
	free(sp.res);
	memset(&sp, 0, sizeof(sp));
	strlcpy(sp.sq.sq_owner, OWNER, sizeof(sp.sq.sq_owner));
	return take_listing(&sp, wh_answer(200, body), RES_CONTAINER, id);
}

/* One container of ours, its name and state as given. */
static char *
one(const char *name, const char *state)
{
	char	*s;

	cr_assert_neq(asprintf(&s, "[{\"Id\":\"%064d\",\"Names\":[\"/%s\"],"
	    "\"State\":\"%s\",\"Labels\":" LABELS "}]", 7, name, state), -1);
	return s;
}

Test(listing, a_name_or_state_past_its_field_is_never_cut)
{
	char	 longer[SPACE_RESOURCE_MAX + 1], *s;

	memset(longer, 'n', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	/* The control: ours, kept as the engine named it. */
	cr_assert_eq(take(s = one("spaced-space-" ID "-gatekeeper",
	    "running"), ID), 0);
	free(s);
	cr_assert_eq(sp.nres, 1);
	cr_assert_str_eq(sp.res[0].r_name, "spaced-space-" ID "-gatekeeper");
	cr_assert_str_eq(sp.res[0].r_state, "running");
	cr_assert_str_eq(sp.res[0].r_id, ID);
	/* A name that does not fit is no name: not acted on by a cut one. */
	cr_assert_eq(take(s = one(longer, "running"), ID), 0);
	free(s);
	cr_assert_eq(sp.nres, 0, "kept as \"%s\"", sp.res[0].r_name);
	/* A state that does not fit is none. */
	cr_assert_eq(take(s = one("g", "runningxxxxxxxxxxxxxxxx"), ID), 0);
	free(s);
	cr_assert_eq(sp.nres, 1);
	cr_assert_str_eq(sp.res[0].r_state, "");
}

Test(listing, at_most_sp_res_max_resources)
{
	char	*s = NULL, *n;
	size_t	 i;

	for (i = 0; i < SP_RES_MAX + 10; i++) {
		cr_assert_neq(asprintf(&n, "%s%s{\"Id\":\"c%zu\",\"Names\":"
		    "[\"/c%zu\"],\"State\":\"running\",\"Labels\":" LABELS
		    "}", s != NULL ? s : "[", i > 0 ? "," : "", i, i), -1);
		free(s);
		s = n;
	}
	cr_assert_neq(asprintf(&n, "%s]", s), -1);
	free(s);
	cr_assert_eq(take(n, NULL), 0);
	cr_assert_eq(sp.nres, SP_RES_MAX);
	/* The control: one short, every one kept. */
	free(n);
	cr_assert_eq(take("[]", NULL), 0);
	cr_assert_eq(sp.nres, 0);
}

Test(listing, another_owners_or_spaces_are_not_kept)
{
	cr_assert_eq(take("[{\"Id\":\"c1\",\"Names\":[\"/c\"],\"Labels\":"
	    LABELS "}]", "aaaaaaaaaaaa"), 0);
	cr_assert_eq(sp.nres, 0);
	cr_assert_eq(take("[{\"Id\":\"c1\",\"Names\":[\"/c\"],\"Labels\":"
	    "{\"" LABEL_MARKER "\":\"true\",\"" LABEL_ID "\":\"" ID "\",\""
	    LABEL_ROLE "\":\"gatekeeper\",\"" LABEL_OWNER "\":\"ffff:0\"}}]",
	    NULL), 0);
	cr_assert_eq(sp.nres, 0);
	cr_assert_eq(take("{\"not\":\"a list\"}", NULL), -1);
}
