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
 * tools list's listings (worker-docker/tools_listing.c): at most
 * TV_VOLUMES_MAX of the owner's volumes, sorted, and at most
 * TOOLS_MOUNTS_MAX spaces named a volume (the rest said by tv_more).
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/tools_volume.h"
#include "worker_harness.h"

#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define VOLUME	"{\"Name\":\"spaced-tools-%03zu\",\"Labels\":{\"" \
		LABEL_MARKER "\":\"true\",\"" LABEL_ROLE "\":\"tools\",\"" \
		LABEL_OWNER "\":\"" OWNER "\",\"" LABEL_TOOLS_KEY "\":\"" \
		"0123456789abcdef\"}}"
#define MOUNTER	"{\"Id\":\"c%zu\",\"Labels\":{\"" LABEL_MARKER "\":" \
		"\"true\",\"" LABEL_ID "\":\"%012zu\",\"" LABEL_ROLE "\":" \
		"\"space\",\"" LABEL_OWNER "\":\"" OWNER "\"},\"Mounts\":" \
		"[{\"Name\":\"spaced-tools-000\",\"Destination\":\"" TOOLS_DIR \
		"\"}]}"

static struct tv	 tv;

/* n volumes (names backwards) or spaces that mount the first, listed. */
static void
take(int volumes, size_t n, const char *head, const char *tail)
{
	struct docker_parser	*p;
	char			*s, *x, *item;
	size_t			 i;
	int			 rv;

	cr_assert_neq(asprintf(&s, "%s", head), -1);
	for (i = 0; i < n; i++) {
		if (volumes)
			rv = asprintf(&item, VOLUME, n - 1 - i);
		else
			rv = asprintf(&item, MOUNTER, i, i + 1);
		cr_assert_neq(rv, -1);
		x = s;
		cr_assert_neq(asprintf(&s, "%s%s%s", x, i > 0 ? "," : "",
		    item), -1);
		free(x);
		free(item);
	}
	x = s;
	cr_assert_neq(asprintf(&s, "%s%s", x, tail), -1);
	free(x);
	p = wh_answer(200, s);
	free(s);
	if (volumes)
		tools_take_volumes(&tv, p);
	else
		tools_take_mounts(&tv, p);
}

Test(tools_listing, at_most_tv_volumes_max_volumes_sorted)
{
	memset(&tv, 0, sizeof(tv));
	strlcpy(tv.req.te_owner, OWNER, sizeof(tv.req.te_owner));
	take(1, TV_VOLUMES_MAX + 6, "{\"Volumes\":[", "]}");
	cr_assert_eq(tv.nvols, TV_VOLUMES_MAX);
	cr_assert(strcmp(tv.vols[0].tv_name, tv.vols[1].tv_name) < 0);
	free(tv.vols);
}

Test(tools_listing, at_most_tools_mounts_max_spaces_a_volume)
{
	memset(&tv, 0, sizeof(tv));
	strlcpy(tv.req.te_owner, OWNER, sizeof(tv.req.te_owner));
	take(1, 1, "{\"Volumes\":[", "]}");
	cr_assert_eq(tv.nvols, 1);
	cr_assert_str_eq(tv.vols[0].tv_name, "spaced-tools-000");
	take(0, TOOLS_MOUNTS_MAX + 3, "[", "]");
	cr_assert_eq(tv.vols[0].tv_nmounts, TOOLS_MOUNTS_MAX);
	cr_assert_eq(tv.vols[0].tv_more, 1);
	cr_assert_str_eq(tv.vols[0].tv_mounts[0], "000000000001");
	free(tv.vols);
}
