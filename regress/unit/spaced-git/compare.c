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
 * The comparator itself: each difference the spec plants must be seen,
 * and the two allowed kinds must not be.
 */

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"

TestSuite(compare, .init = fx_setup, .fini = fx_teardown);

/* Loose objects are files under .git/objects/xx/; the first found. */
#define ONE_LOOSE	"$(find .git/objects -type f -path " \
			"'.git/objects/[0-9a-f][0-9a-f]/*' | head -1)"

static const char *const plants[] = {
	GITQ " config foo.bar 1",
	"printf '#!/bin/sh\\n' > .git/hooks/pre-commit",
	"echo '*.x' >> .git/info/exclude",
	GITQ " rev-parse HEAD > .git/MERGE_HEAD",
	"touch .git/sharedindex.0123456789012345678901234567890123456789",
	"mkdir newly-empty",
	"mkdir .git/objects/zz",
	GITQ " pack-refs --all",
	"mkdir -p .git/logs/refs/spaced/spaces/" FX_ID " && touch "
	    ".git/logs/refs/spaced/spaces/" FX_ID "/start",
	GITQ " update-ref refs/spaced/outside HEAD",
	GITQ " update-ref refs/spaced/spaces/" FX_OTHER_ID "/start HEAD",
	GITQ " update-ref refs/spaced/spaces/" FX_ID "/other HEAD",
	"f=" ONE_LOOSE " && chmod u+w $f && printf x >> $f",
	"f=" ONE_LOOSE " && chmod u+w $f",
	"rm " ONE_LOOSE,
	"echo x | " GITQ " -C nested hash-object -w --stdin >/dev/null",
	"mkfifo a-fifo",
	"chmod +x src/untracked.c",
	"echo z >> src/untracked.c",
	"rm .env",
	"ln -sf tool.sh new-link",
	"touch .git/index.lock",
	"mkdir -p .git/refs/spaced/spaces/" FX_ID "/deeper",
};

#define NPLANTS	(sizeof(plants) / sizeof(plants[0]))

/* By index: a pointer would not survive into the test's own process. */
ParameterizedTestParameters(compare, each_plant_is_seen)
{
	static int	 idx[NPLANTS];
	size_t		 i;

	for (i = 0; i < NPLANTS; i++)
		idx[i] = (int)i;
	return (cr_make_param_array(int, idx, NPLANTS));
}

ParameterizedTest(int *i, compare, each_plant_is_seen)
{
	const char	*plant = plants[*i];

	fx_before();
	cr_assert_eq(fx_sh("%s", plant), 0, "%s", plant);
	cr_assert_geq(fx_untouched(FX_ID), 1, "not seen: %s", plant);
}

/* A socket: by type only, never opened. */
Test(compare, a_socket_is_seen)
{
	struct sockaddr_un	 sun;
	int			 s;

	fx_before();
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	/* A path of its own: fx_repo may be longer than sun_path. */
	cr_assert_eq(chdir(fx_repo), 0);
	strlcpy(sun.sun_path, "sock", sizeof(sun.sun_path));
	cr_assert_neq(s = socket(AF_UNIX, SOCK_STREAM, 0), -1);
	cr_assert_eq(bind(s, (struct sockaddr *)&sun, sizeof(sun)), 0);
	cr_assert_geq(fx_untouched(FX_ID), 1);
	/* And one that was there is read as a type, not opened. */
	fx_before();
	cr_assert_eq(fx_untouched(FX_ID), 0);
	close(s);
}

Test(compare, this_spaces_ref_moved_is_seen)
{
	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/spaces/" FX_ID
	    "/start HEAD"), 0);
	fx_before();
	cr_assert_eq(fx_sh("t=$(" GITQ " commit-tree -m x HEAD^{tree}) && "
	    GITQ " update-ref refs/spaced/spaces/" FX_ID "/start $t"), 0);
	cr_assert_geq(fx_untouched(FX_ID), 1);
}

Test(compare, allowed_kinds_pass)
{
	fx_before();
	cr_assert_eq(fx_untouched(FX_ID), 0);
	/* New loose objects in new and in existing fan-out folders. */
	cr_assert_eq(fx_sh("for i in 1 2 3 4 5 6 7 8; do echo $i | " GITQ
	    " hash-object -w --stdin; done >/dev/null"), 0);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	/* This space's ref, added, then removed with its folders. */
	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/spaces/" FX_ID
	    "/start HEAD"), 0);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_eq(fx_sh("rm -r .git/refs/spaced"), 0);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	/* The same ref is not allowed under another space's name. */
	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/spaces/" FX_ID
	    "/start HEAD"), 0);
	cr_assert_geq(fx_untouched(FX_OTHER_ID), 1);
}

Test(compare, manifest_round_trip)
{
	struct rc_manifest	 a, b;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	cr_assert_eq(fx_sh("printf x > \"$(printf 'tab\\there')\" && "
	    "printf y > \"$(printf 'new\\nline')\" && printf z > 'back\\\\s'"),
	    0);
	cr_assert_eq(rc_take(fx_repo, &a), 0);
	cr_assert_not_null(fp = open_memstream(&buf, &len));
	cr_assert_eq(rc_save(&a, fp), 0);
	fclose(fp);
	cr_assert_not_null(fp = fmemopen(buf, len, "r"));
	cr_assert_eq(rc_load(fp, &b), 0);
	fclose(fp);
	cr_assert_eq(a.rm_n, b.rm_n);
	cr_assert_eq(rc_diff(&a, &b, FX_ID, stderr), 0);
	rc_free(&a);
	rc_free(&b);
	free(buf);
}
