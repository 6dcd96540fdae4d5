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
 * The engine's answers as create reads them in its steps
 * (worker-docker/create_parse.c): the uids of the installation's
 * spaces, the owner's spaces counted by id in one pass, the runtime's
 * leftovers at most RT_STALE_MAX and only the installation's, the
 * runtime volume's labels, a space running.  Hostile answers (missing
 * fields, wrong types, a NUL, too deep, a full listing) take nothing
 * that is not there.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/space.h"
#include "worker_harness.h"

#define INSTALL	"0123456789abcdef0123456789abcdef"
#define OWNER	INSTALL ":1000"
#define RKEY	"00112233aabbccdd"
#define SLABELS(owner, id, role) "{\"" LABEL_MARKER "\":\"true\",\"" \
		LABEL_ID "\":\"" id "\",\"" LABEL_ROLE "\":\"" role "\",\"" \
		LABEL_OWNER "\":\"" owner "\"}"
#define RLABELS(owner, key) "{\"" LABEL_MARKER "\":\"true\",\"" \
		LABEL_ROLE "\":\"runtime\",\"" LABEL_OWNER "\":\"" owner \
		"\",\"" LABEL_RUNTIME_KEY "\":\"" key "\"}"

static char	 stale[40][SPACE_RESOURCE_MAX];

Test(create_parse, the_uids_of_the_installations_spaces)
{
	uint32_t	*uids;
	ssize_t		 n;

	/* Another uid of the installation counts; another's does not. */
	n = create_uids_take(wh_answer(200, "[{\"Labels\":"
	    SLABELS(INSTALL ":2000", "00000000000a", "space") "},"
	    "{\"Labels\":" SLABELS("ffffffffffffffffffffffffffffffff:1000",
	    "00000000000b", "space") "},"
	    "{\"Labels\":" SLABELS(INSTALL ":1000", "not-an-id", "space") "},"
	    "{\"Labels\":{\"" LABEL_OWNER "\":\"" OWNER "\",\"" LABEL_ID
	    "\":7}},{\"Labels\":[]},{},3,null]"), OWNER, 100000, 1000, &uids);
	cr_assert_eq(n, 1);
	cr_assert_eq(uids[0], harden_space_uid("00000000000a", 100000, 1000));
	cr_assert_eq(uids[0], 100010);
	free(uids);
	/* No listing: -1, nothing allocated. */
	cr_assert_eq(create_uids_take(wh_answer(200, "{}"), OWNER, 1, 10,
	    &uids), -1);
	cr_assert_null(uids);
	cr_assert_eq(create_uids_take(wh_answer(404, "[]"), OWNER, 1, 10,
	    &uids), -1);
	cr_assert_eq(create_uids_take(wh_answer(200, "[{\"Labels\":"), OWNER, 1,
	    10, &uids), -1);
	/* An owner without its install: none of the listing. */
	cr_assert_eq(create_uids_take(wh_answer(200, "[{\"Labels\":"
	    SLABELS(OWNER, "00000000000a", "space") "}]"), "1000", 1, 10,
	    &uids), 0);
	free(uids);
}

Test(create_parse, the_owners_spaces_by_id_each_once)
{
	char	(*ids)[SPACE_ID_SIZE];
	ssize_t	 n;

	/* A move's two containers of one space, another owner, a gatekeeper. */
	n = create_ids_take(wh_answer(200, "["
	    "{\"Labels\":" SLABELS(OWNER, "00000000000c", "space") "},"
	    "{\"Labels\":" SLABELS(OWNER, "00000000000a", "space") "},"
	    "{\"Labels\":" SLABELS(OWNER, "00000000000c", "space") "},"
	    "{\"Labels\":" SLABELS(INSTALL ":2000", "00000000000d", "space")
	    "},{\"Labels\":" SLABELS(OWNER, "00000000000e", "gatekeeper") "},"
	    "{\"Labels\":" SLABELS(OWNER, "0000000000f", "space") "},"
	    "{\"Labels\":{\"" LABEL_MARKER "\":true}},{\"Labels\":\"x\"},"
	    "[],\"s\"]"), OWNER, &ids);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(ids[0], "00000000000a");
	cr_assert_str_eq(ids[1], "00000000000c");
	cr_assert(create_id_listed(ids, n, "00000000000c"));
	cr_assert(create_id_listed(ids, n, "00000000000a"));
	cr_assert(!create_id_listed(ids, n, "00000000000b"));
	cr_assert(!create_id_listed(ids, n, "00000000000d"));
	free(ids);
	cr_assert_eq(create_ids_take(wh_answer(200, "[]"), OWNER, &ids), 0);
	cr_assert(!create_id_listed(ids, 0, "00000000000a"));
	free(ids);
	cr_assert_eq(create_ids_take(wh_answer(200, "{\"0\":1}"), OWNER, &ids),
	    -1);
	cr_assert_eq(create_ids_take(wh_answer(200, "[\"\\u0000\"]"), OWNER,
	    &ids), -1);
}

/*
 * A listing at the call's cap, every entry a space of the owner: the
 * count read every entry's labels once for each entry before it
 * (minutes of the worker's at the cap); one pass now, each id once.
 */
Test(create_parse, a_full_listing_is_counted_each_id_once)
{
	char		(*ids)[SPACE_ID_SIZE], *b;
	size_t		 len = 0, i, want = SP_LIST_CAP - 512;
	ssize_t		 n;

	cr_assert_not_null(b = malloc(SP_LIST_CAP));
	len += snprintf(b, SP_LIST_CAP, "[");
	for (i = 0; len < want; i++)
		len += snprintf(b + len, SP_LIST_CAP - len, "%s{\"Labels\":"
		    "{\"" LABEL_MARKER "\":\"true\",\"" LABEL_OWNER "\":\""
		    OWNER "\",\"" LABEL_ID "\":\"%012zx\",\"" LABEL_ROLE
		    "\":\"space\"}}", i > 0 ? "," : "", i / 2);
	len += snprintf(b + len, SP_LIST_CAP - len, "]");
	n = create_ids_take(wh_answer(200, b), OWNER, &ids);
	free(b);
	cr_assert_eq(n, (ssize_t)((i + 1) / 2), "%zd of %zu", n, i);
	cr_assert_gt(n, 20000);
	cr_assert(create_id_listed(ids, n, "000000000000"));
	free(ids);
}

Test(create_parse, the_runtimes_leftovers_of_the_installation_only)
{
	char	*s;
	size_t	 n;

	/* The sweep: this key's; the prune: another key's. */
	n = create_runtime_take(wh_answer(200, "["
	    "{\"Id\":\"c1\",\"Labels\":" RLABELS(OWNER, RKEY) "},"
	    "{\"Id\":\"c2\",\"Labels\":" RLABELS(OWNER, "ffffffffffffffff")
	    "},{\"Id\":\"c3\",\"Labels\":" RLABELS(INSTALL ":2000", RKEY) "},"
	    "{\"Id\":\"c/4\",\"Labels\":" RLABELS(OWNER, RKEY) "},"
	    "{\"Id\":\"c5\",\"Labels\":" SLABELS(OWNER, "00000000000a",
	    "space") "},{\"Id\":\"c6\",\"Labels\":{\"" LABEL_RUNTIME_KEY
	    "\":\"" RKEY "\"}},{\"Id\":[\"c7\"],\"Labels\":"
	    RLABELS(OWNER, RKEY) "}]"), 0, OWNER, RKEY, 1, stale,
	    RT_STALE_MAX);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(stale[0], "c1");
	n = create_runtime_take(wh_answer(200, "{\"Volumes\":["
	    "{\"Name\":\"v1\",\"Labels\":" RLABELS(OWNER, RKEY) "},"
	    "{\"Name\":\"v2\",\"Labels\":" RLABELS(OWNER, "ffffffffffffffff")
	    "},{\"Name\":\"v3\",\"Labels\":" RLABELS(OWNER, "fffffffffffffff")
	    "}]}"), 1, OWNER, RKEY, 0, stale, RT_STALE_MAX);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(stale[0], "v2");
	/* At most RT_STALE_MAX. */
	s = wh_many("[", "{\"Id\":\"c%zu\",\"Labels\":" RLABELS(OWNER, RKEY)
	    "}", 30, "]");
	cr_assert_eq(create_runtime_take(wh_answer(200, s), 0, OWNER, RKEY, 1,
	    stale, RT_STALE_MAX), RT_STALE_MAX);
	free(s);
	/* No listing, not 200: none. */
	cr_assert_eq(create_runtime_take(wh_answer(500, "[{\"Id\":\"c1\","
	    "\"Labels\":" RLABELS(OWNER, RKEY) "}]"), 0, OWNER, RKEY, 1,
	    stale, RT_STALE_MAX), 0);
	cr_assert_eq(create_runtime_take(wh_answer(200, "{\"Volumes\":{}}"), 1,
	    OWNER, RKEY, 0, stale, RT_STALE_MAX), 0);
}

Test(create_parse, the_runtime_volume_and_a_space_running)
{
	/* Any installation's volume of the key is the runtime. */
	cr_assert_null(create_runtime_labels(wh_answer(200, "{\"Labels\":"
	    RLABELS(INSTALL ":2000", RKEY) "}"), RKEY));
	cr_assert_not_null(create_runtime_labels(wh_answer(200, "{\"Labels\":"
	    RLABELS(OWNER, "ffffffffffffffff") "}"), RKEY));
	cr_assert_not_null(create_runtime_labels(wh_answer(200, "{\"Labels\":"
	    SLABELS(OWNER, "00000000000a", "space") "}"), RKEY));
	cr_assert_not_null(create_runtime_labels(wh_answer(200, "[]"), RKEY));
	cr_assert_not_null(create_runtime_labels(wh_answer(200, "{"), RKEY));
	/* Running: true alone, and only in a 200 answer. */
	cr_assert(create_running(wh_answer(200, "{\"State\":{\"Running\":"
	    "true}}")));
	cr_assert(!create_running(wh_answer(200, "{\"State\":{\"Running\":"
	    "false}}")));
	cr_assert(!create_running(wh_answer(200, "{\"State\":{\"Running\":"
	    "\"true\"}}")));
	cr_assert(!create_running(wh_answer(200, "{\"State\":{\"Running\":"
	    "1}}")));
	cr_assert(!create_running(wh_answer(200, "{\"State\":true}")));
	cr_assert(!create_running(wh_answer(200, "{\"Running\":true}")));
	cr_assert(!create_running(wh_answer(404, "{\"State\":{\"Running\":"
	    "true}}")));
	cr_assert(!create_running(wh_answer(200, "{\"State\":{\"Running\":true}"
	    ",\"State\":{\"Running\":true}}")));
}
