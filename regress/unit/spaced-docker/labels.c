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
 * Labels, names and ids (common/proto/labels.c), hostile labels among them:
 * a name proves nothing, so only labels that say this owner and this
 * space make a resource ours.
 */

#include <criterion/criterion.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/docker_harden.h"
#include "harden_fixture.h"

static void
meta(struct space_meta *m)
{
	memset(m, 0, sizeof(*m));
	strlcpy(m->sm_id, FX_ID, sizeof(m->sm_id));
	strlcpy(m->sm_owner, FX_OWNER, sizeof(m->sm_owner));
	strlcpy(m->sm_project, FX_PROJECT, sizeof(m->sm_project));
	strlcpy(m->sm_name, FX_NAME, sizeof(m->sm_name));
	strlcpy(m->sm_created, FX_CREATED, sizeof(m->sm_created));
	m->sm_memory = 4ULL << 30;
}

Test(labels, new_ids_are_valid_and_differ)
{
	char	 a[SPACE_ID_SIZE], b[SPACE_ID_SIZE];
	int	 i, same = 0;

	for (i = 0; i < 100; i++) {
		space_id_new(a);
		space_id_new(b);
		cr_assert(space_id_valid(a), "%s", a);
		cr_assert_eq(strlen(a), SPACE_ID_LEN);
		same += strcmp(a, b) == 0;
	}
	cr_assert_eq(same, 0);
}

Test(labels, user_ids_strict)
{
	cr_assert(space_id_valid("a1b2c3d4e5f6"));
	cr_assert(space_id_valid("000000000000"));
	cr_assert_not(space_id_valid(NULL));
	cr_assert_not(space_id_valid(""));
	cr_assert_not(space_id_valid("a1b2c3d4e5f"));		/* short */
	cr_assert_not(space_id_valid("a1b2c3d4e5f60"));		/* long */
	cr_assert_not(space_id_valid("A1B2C3D4E5F6"));		/* case */
	cr_assert_not(space_id_valid("a1b2c3d4e5fg"));
	cr_assert_not(space_id_valid("a1b2c3d4e5f "));
	cr_assert_not(space_id_valid("../../etc/pa"));
	cr_assert_not(space_id_valid("a1b2c3d4e5f\n"));
	cr_assert_not(space_id_valid("a1b2c3-4e5f6"));
}

Test(labels, owner)
{
	char	 buf[SPACE_OWNER_SIZE];

	cr_assert_eq(space_owner_fmt(buf, sizeof(buf), FX_INSTALL, 1000), 0);
	cr_assert_str_eq(buf, FX_OWNER);
	cr_assert(space_owner_valid(buf));
	cr_assert_eq(space_owner_fmt(buf, sizeof(buf), FX_INSTALL, 0), 0);
	cr_assert(space_owner_valid(buf));
	cr_assert_eq(space_owner_fmt(buf, sizeof(buf), "short", 1), -1);
	cr_assert_eq(space_owner_fmt(buf, sizeof(buf), "ABCDEF0123456789", 1),
	    -1);
	cr_assert_eq(space_owner_fmt(buf, 10, FX_INSTALL, 1), -1);
	cr_assert_not(space_owner_valid(FX_INSTALL));
	cr_assert_not(space_owner_valid(FX_INSTALL ":"));
	cr_assert_not(space_owner_valid(FX_INSTALL ":01000"));
	cr_assert_not(space_owner_valid(FX_INSTALL ":4294967296"));
	cr_assert_not(space_owner_valid(FX_INSTALL ":-1"));
	cr_assert_not(space_owner_valid(FX_INSTALL ":1000:1"));
	cr_assert_not(space_owner_valid(":1000"));
	cr_assert(space_owner_valid(FX_INSTALL ":4294967295"));
}

Test(labels, names)
{
	char	 buf[SPACE_RESOURCE_MAX];

	cr_assert_eq(space_resource_name(buf, sizeof(buf), FX_ID, ROLE_SPACE),
	    0);
	cr_assert_str_eq(buf, FX_SPACE);
	space_resource_name(buf, sizeof(buf), FX_ID, ROLE_GATEKEEPER);
	cr_assert_str_eq(buf, FX_GK);
	space_resource_name(buf, sizeof(buf), FX_ID, ROLE_NETWORK);
	cr_assert_str_eq(buf, FX_NET);
	space_resource_name(buf, sizeof(buf), FX_ID, ROLE_SOCKET);
	cr_assert_str_eq(buf, FX_SOCK);
	space_resource_name(buf, sizeof(buf), FX_ID, ROLE_WORK);
	cr_assert_str_eq(buf, FX_WORK);
	space_resource_name(buf, sizeof(buf), FX_ID, ROLE_HOME);
	cr_assert_str_eq(buf, FX_HOME);
	cr_assert_eq(space_resource_name(buf, sizeof(buf), "x/../y",
	    ROLE_SPACE), -1);
	cr_assert_eq(space_resource_name(buf, sizeof(buf), FX_ID, ROLE_MAX),
	    -1);
	cr_assert_eq(space_resource_name(buf, 20, FX_ID, ROLE_SPACE), -1);
	/* the aside name of a move: the space's, then "-old" */
	cr_assert_eq(space_aside_name(buf, sizeof(buf), FX_ID), 0);
	cr_assert_str_eq(buf, FX_SPACE "-old");
	cr_assert_eq(space_aside_name(buf, sizeof(buf), "x/../y"), -1);
	cr_assert_eq(space_aside_name(buf, sizeof(FX_SPACE "-old") - 1, FX_ID),
	    -1);
	cr_assert_eq(runtime_volume_name(buf, sizeof(buf), FX_KEY), 0);
	cr_assert_str_eq(buf, FX_RUNTIME);
	cr_assert_eq(runtime_volume_name(buf, sizeof(buf), "abc"), -1);
	cr_assert_eq(runtime_volume_name(buf, sizeof(buf), "../" FX_KEY), -1);
	cr_assert_eq(space_role_parse("gatekeeper"), ROLE_GATEKEEPER);
	cr_assert_eq(space_role_parse("net"), -1);	/* a suffix, not a role */
	cr_assert_eq(space_role_parse(NULL), -1);
}

Test(labels, fields)
{
	cr_assert(space_created_valid("2026-01-31T12:00:00Z"));
	cr_assert_not(space_created_valid("2026-13-31T12:00:00Z"));
	cr_assert_not(space_created_valid("2026-01-31T24:00:00Z"));
	cr_assert_not(space_created_valid("2026-01-31 12:00:00Z"));
	cr_assert_not(space_created_valid("2026-01-31T12:00:00"));
	cr_assert(space_name_valid("a, b: é"));
	cr_assert_not(space_name_valid(""));
	cr_assert_not(space_name_valid("a\nb"));
	cr_assert_not(space_name_valid("a\x7f"));
	/* Not UTF-8: a list of its owner's spaces could not print it. */
	cr_assert_not(space_name_valid("bad\xffutf"));
	cr_assert_not(space_name_valid("\xc3"));
	cr_assert_not(space_name_valid("\xc0\xaf"));		/* overlong */
	cr_assert_not(space_name_valid("\xed\xa0\x80"));	/* surrogate */
	cr_assert_not(space_name_valid("\xf4\x90\x80\x80"));
	cr_assert_not(space_name_valid("c1\xc2\x9b" "2J"));	/* CSI */
	cr_assert(space_name_valid("\xc2\xa0\xe2\x98\x83\xf0\x9f\x98\x80"));
	/* utf8_char_len reads no byte past what it is given. */
	cr_assert_eq(utf8_char_len((const unsigned char *)"\xc3\xa9", 2), 2);
	cr_assert_eq(utf8_char_len((const unsigned char *)"\xc3\xa9", 1), 0);
	cr_assert_eq(utf8_char_len((const unsigned char *)"\xf0\x9f\x98\x80",
	    3), 0);
	cr_assert_eq(utf8_char_len((const unsigned char *)"a", 0), 0);
	/* 64 bytes: a character may not cross the end. */
	cr_assert(space_name_valid("0123456789012345678901234567890123456789"
	    "0123456789012345678901\xc3\xa9"));
	cr_assert_not(space_name_valid("0123456789012345678901234567890123456789"
	    "01234567890123456789012\xc3\xa9"));
	cr_assert_not(space_name_valid(
	    "01234567890123456789012345678901234567890123456789012345678901234"));
	cr_assert(space_project_valid(FX_PROJECT));
	cr_assert_not(space_project_valid("0123456789abcde"));
}

Test(labels, build_and_parse_round_trip)
{
	struct space_meta	 m, back;
	json_t			*l;
	int			 r;

	meta(&m);
	for (r = 0; r < ROLE_MAX; r++) {
		l = space_labels_build(&m, r);
		cr_assert_not_null(l);
		cr_assert_eq(json_object_size(l), 8);
		cr_assert_null(space_labels_parse(l, FX_OWNER, FX_ID, r,
		    &back));
		cr_assert_eq(memcmp(&m, &back, sizeof(m)), 0);
		cr_assert_null(space_labels_check(l, FX_OWNER, NULL, -1));
		json_decref(l);
	}
	m.sm_memory = 0;
	cr_assert_null(space_labels_build(&m, ROLE_SPACE));
}

Test(labels, hostile)
{
	struct space_meta	 m;
	json_t			*l;

	meta(&m);
	l = space_labels_build(&m, ROLE_SPACE);
	/* The right name on a stranger's container proves nothing. */
	cr_assert_str_eq(space_labels_check(l,
	    "ffffffffffffffffffffffffffffffff:1000", FX_ID, ROLE_SPACE),
	    "other owner");
	cr_assert_str_eq(space_labels_check(l, FX_INSTALL ":1001", FX_ID,
	    ROLE_SPACE), "other owner");
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, "000000000000",
	    ROLE_SPACE), "other space");
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, FX_ID,
	    ROLE_GATEKEEPER), "other role");
	cr_assert_str_eq(space_labels_check(l, NULL, FX_ID, -1),
	    "other owner");
	cr_assert_str_eq(space_labels_check(NULL, FX_OWNER, FX_ID, -1),
	    "no labels");
	cr_assert_str_eq(space_labels_check(json_null(), FX_OWNER, FX_ID, -1),
	    "no labels");

	json_object_set_new(l, LABEL_MARKER, json_string("TRUE"));
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, FX_ID, -1),
	    "not a space");
	json_object_set_new(l, LABEL_MARKER, json_true());	/* not a string */
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, FX_ID, -1),
	    "not a space");
	json_object_set_new(l, LABEL_MARKER, json_string("true"));
	json_object_set_new(l, LABEL_ID, json_string("A1B2C3D4E5F6"));
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, NULL, -1), "bad id");
	json_object_set_new(l, LABEL_ID, json_string(FX_ID));
	json_object_set_new(l, LABEL_ROLE, json_string("admin"));
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, FX_ID, -1),
	    "bad role");
	json_object_set_new(l, LABEL_ROLE, json_string("space"));
	cr_assert_null(space_labels_check(l, FX_OWNER, FX_ID, ROLE_SPACE));

	/* Ours by marker, owner and id, but a label missing or bad. */
	json_object_del(l, LABEL_CREATED);
	cr_assert_str_eq(space_labels_parse(l, FX_OWNER, FX_ID, -1, NULL),
	    "bad " LABEL_CREATED);
	json_object_set_new(l, LABEL_CREATED, json_string(FX_CREATED));
	json_object_set_new(l, LABEL_MEMORY, json_string("0x10"));
	cr_assert_str_eq(space_labels_parse(l, FX_OWNER, FX_ID, -1, NULL),
	    "bad " LABEL_MEMORY);
	json_object_set_new(l, LABEL_MEMORY, json_string("99999999999999999999"));
	cr_assert_str_eq(space_labels_parse(l, FX_OWNER, FX_ID, -1, NULL),
	    "bad " LABEL_MEMORY);
	json_decref(l);

	/* Only the marker and a name-like id: not ours. */
	l = json_pack("{s:s, s:s}", LABEL_MARKER, "true", LABEL_ID, FX_ID);
	cr_assert_str_eq(space_labels_check(l, FX_OWNER, FX_ID, -1),
	    "other owner");
	json_decref(l);
}

Test(labels, runtime)
{
	json_t	*l = runtime_labels_build(FX_OWNER, FX_KEY);

	cr_assert_not_null(l);
	cr_assert_null(runtime_labels_check(l, FX_OWNER, FX_KEY));
	cr_assert_str_eq(runtime_labels_check(l, FX_OWNER, "0000000000000000"),
	    "other key");
	cr_assert_str_eq(runtime_labels_check(l, FX_INSTALL ":0", FX_KEY),
	    "other owner");
	json_object_set_new(l, LABEL_ROLE, json_string("space"));
	cr_assert_str_eq(runtime_labels_check(l, FX_OWNER, FX_KEY),
	    "other role");
	json_decref(l);
	cr_assert_null(runtime_labels_build(FX_OWNER, "xyz"));
}

/* issue 27: a space's uid, the same for every request about it. */
Test(space_uid, from_its_id_in_the_range)
{
	cr_assert_eq(harden_space_uid("000000000000", 2000000000U, 1000000U),
	    2000000000U);
	cr_assert_eq(harden_space_uid("0000000f4240", 2000000000U, 1000000U),
	    2000000000U);	/* 1000000 wraps to the first */
	cr_assert_eq(harden_space_uid("0000000f4241", 2000000000U, 1000000U),
	    2000000001U);
	cr_assert_eq(harden_space_uid("ffffffffffff", 65536U, 1U), 65536U);
	/* no range, no id, a range past the last uid: no uid at all */
	cr_assert_eq(harden_space_uid("0123456789ab", 2000000000U, 0), 0);
	cr_assert_eq(harden_space_uid("0123456789AB", 2000000000U, 10U), 0);
	cr_assert_eq(harden_space_uid("", 2000000000U, 10U), 0);
	cr_assert_eq(harden_space_uid("0123456789ab", 4294967290U, 10U), 0);
}
