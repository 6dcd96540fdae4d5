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
 * Nothing of the user's runs: not their hooks from a global
 * core.hooksPath, not their core.fsmonitor program, not auto gc or
 * maintenance, in any request of spaced-git.  Each with a control that
 * shows it running for an ordinary git command.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fixture.h"

TestSuite(programs, .init = fx_setup, .fini = fx_teardown);

/* Every request once, and the refusals that get furthest. */
static void
every_operation(void)
{
	struct git_snap		 gs, hs;
	struct space_done	 sd;
	struct fx_answer	 fa;
	struct git_req		 gq;
	char			 path[PATH_MAX];

	memset(&gq, 0, sizeof(gq));
	cr_assert_eq(fx_serve(fx_repo, IMSG_GIT_FILES_REQ, &gq, sizeof(gq),
	    &fa), 0);
	cr_assert_gt(fa.fa_nfiles, 0);
	fx_answer_free(&fa);
	cr_assert_eq(fx_serve(fx_repo, IMSG_GIT_LIMITS_REQ, &gq, sizeof(gq),
	    &fa), 0);
	fx_answer_free(&fa);
	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, &gs, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, NULL, &sd), -1);
	cr_assert_eq(fx_snapshot(fx_repo, FX_OTHER_ID, 1, &hs, &sd), 0);
	snprintf(path, sizeof(path), "%s/p", fx_root);
	cr_assert_eq(fx_pack(fx_repo, &gs, GIT_PACK_START, path, &sd), 0);
	cr_assert_eq(fx_history(fx_repo, FX_ID, &hs, &sd), 0);
	cr_assert_eq(fx_pack(fx_repo, &hs, GIT_PACK_HISTORY, path, &sd), 0);
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0);
	cr_assert_eq(fx_refs_remove(fx_repo, FX_OTHER_ID, &sd), 0);
}

Test(programs, hooks_and_fsmonitor_never_run)
{
	/* Control: git runs them, on a copy of the same repository. */
	cr_assert_eq(fx_sh("cp -a . ../control && cd ../control && "
	    "git status >/dev/null 2>&1 && git commit -q --allow-empty -m c "
	    "&& git update-ref refs/x HEAD"), 0);
	cr_assert_eq(fx_sh("test -s ../marks/fsmonitor && test -s "
	    "../marks/hook-pre-commit && test -s ../marks/hook-post-commit "
	    "&& test -s ../marks/hook-reference-transaction"), 0);
	cr_assert_eq(fx_sh("rm -f ../marks/*"), 0);
	cr_assert_eq(fx_marks_count(), 0);

	fx_before();
	every_operation();
	cr_assert_eq(fx_marks_count(), 0, "a program of the user's ran");
	cr_assert_eq(fx_untouched(FX_ID), 0);
}

/* Two packs, and the config that makes git consolidate them. */
static void
two_packs_and_auto_gc(void)
{
	cr_assert_eq(fx_sh(GITQ " repack -q -d && echo more | " GITQ
	    " hash-object -w --stdin >/dev/null && "
	    "t=$(" GITQ " commit-tree -m more HEAD^{tree}) && "
	    GITQ " update-ref refs/tags/more $t && " GITQ " repack -q && "
	    GITQ " config gc.auto 1 && " GITQ " config gc.autoPackLimit 1 && "
	    GITQ " config gc.autoDetach false && "
	    GITQ " config maintenance.auto true && "
	    "test $(ls .git/objects/pack/*.pack | wc -l) -eq 2"), 0);
}

Test(programs, auto_gc_and_maintenance_never_run)
{
	char	*packs, *after;

	two_packs_and_auto_gc();
	/* Control: an ordinary commit consolidates them. */
	cr_assert_eq(fx_sh("cp -a . ../control && cd ../control && " GITQ
	    " commit -q --allow-empty -m c >/dev/null 2>&1 && "
	    "test $(ls .git/objects/pack/*.pack | wc -l) -eq 1"), 0);

	packs = fx_out("sha256sum .git/objects/pack/*");
	fx_before();
	every_operation();
	cr_assert_eq(fx_untouched(FX_ID), 0);
	after = fx_out("sha256sum .git/objects/pack/*");
	cr_assert_str_eq(after, packs);
	free(packs);
	free(after);
}
