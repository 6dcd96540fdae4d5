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
 * The packs of spaced-git through its channel, received the way the
 * space's fixed script receives them; the history and the ref removal.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fixture.h"

TestSuite(pack, .init = fx_setup, .fini = fx_teardown);

static void
snapshot(struct git_snap *gs)
{
	struct space_done	 sd;

	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, gs, &sd), 0, "%s: %s",
	    sd.sd_code, sd.sd_message);
}

/* supervisor/spaced/codein.c's codein_script, its git steps, in ../inside. */
static void
receive(const char *pack, const struct git_snap *gs)
{
	cr_assert_eq(fx_sh("cd .. && " GITQ " init -q -b main inside && "
	    "cd inside && " GITQ " index-pack --stdin < '%s' >/dev/null && "
	    "echo %s > .git/shallow && "
	    GITQ " update-ref refs/spaced/base %s && "
	    GITQ " update-ref refs/spaced/start-index %s && "
	    GITQ " update-ref refs/spaced/start %s && "
	    GITQ " checkout -q -B main refs/spaced/start && "
	    GITQ " reset -q --soft refs/spaced/base && "
	    GITQ " read-tree refs/spaced/start-index && "
	    GITQ " fsck --no-progress 2>&1 | grep -v '^notice' | "
	    "{ ! grep .; }", pack, gs->gs_base, gs->gs_base, gs->gs_staged,
	    gs->gs_start), 0);
}

Test(pack, start_unfolds_to_the_hosts_status)
{
	struct git_snap		 gs;
	struct space_done	 sd;
	char			 path[PATH_MAX], *host, *in;

	snapshot(&gs);
	snprintf(path, sizeof(path), "%s/start.pack", fx_root);
	fx_before();
	cr_assert_eq(fx_pack(fx_repo, &gs, GIT_PACK_START, path, &sd), 0,
	    "%s: %s", sd.sd_code, sd.sd_message);
	/* A pack is built in memory: not one byte more in the repository. */
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_eq(fx_new_objects(), 0);
	receive(path, &gs);
	/* The untracked repository stays on the host: its line only. */
	host = fx_out(GITQ " status --porcelain=v1 --untracked-files=all | "
	    "grep -v '^?? nested/$'");
	in = fx_out("cd ../inside && " GITQ " status --porcelain=v1 "
	    "--untracked-files=all");
	cr_assert_str_eq(in, host);
	cr_assert_neq(host[0], '\0');
	free(host);
	free(in);
	cr_assert_eq(fx_sh("test \"$(stat -c %%a ../inside/tool.sh)\" = 755 "
	    "&& test \"$(readlink ../inside/new-link)\" = new.txt"), 0);
}

/* Nothing kept out is in any object of the pack; a control that is. */
Test(pack, nothing_kept_out_is_in_the_start)
{
	struct git_snap		 gs;
	struct space_done	 sd;
	char			 path[PATH_MAX];

	snapshot(&gs);
	snprintf(path, sizeof(path), "%s/start.pack", fx_root);
	cr_assert_eq(fx_pack(fx_repo, &gs, GIT_PACK_START, path, &sd), 0);
	receive(path, &gs);
	cr_assert_eq(fx_sh("cd ../inside && " GITQ " cat-file "
	    "--batch-all-objects --batch > ../objects"), 0);
	cr_assert_neq(fx_sh("grep -q -e sk-bait-ENV -e NODE-MODULES-BAIT -e "
	    "GLOBAL-BAIT -e LOG-BAIT -e NESTED-BAIT ../objects"), 0);
	/* Control: a travelling file's text is found the same way. */
	cr_assert_eq(fx_sh("grep -q 'return 1' ../objects"), 0);
}

Test(pack, history_unshallows)
{
	struct git_snap		 gs, hs;
	struct space_done	 sd;
	char			 path[PATH_MAX], *a, *b;

	cr_assert_eq(fx_sh("for i in 1 2 3; do echo $i >> edited.txt && "
	    GITQ " commit -qam c$i; done"), 0);
	snapshot(&gs);
	snprintf(path, sizeof(path), "%s/start.pack", fx_root);
	cr_assert_eq(fx_pack(fx_repo, &gs, GIT_PACK_START, path, &sd), 0);
	receive(path, &gs);
	fx_before();
	cr_assert_eq(fx_history(fx_repo, FX_ID, &hs, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_str_eq(hs.gs_base, gs.gs_base);
	cr_assert_str_eq(hs.gs_start, gs.gs_start);
	snprintf(path, sizeof(path), "%s/history.pack", fx_root);
	cr_assert_eq(fx_pack(fx_repo, &hs, GIT_PACK_HISTORY, path, &sd), 0);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	cr_assert_eq(fx_sh("cd ../inside && " GITQ " index-pack --stdin < "
	    "'%s' >/dev/null && rm .git/shallow && " GITQ " rev-list --quiet "
	    "--objects %s", path, gs.gs_base), 0);
	a = fx_out(GITQ " rev-list HEAD");
	b = fx_out("cd ../inside && " GITQ " rev-list HEAD");
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

Test(pack, history_refusals)
{
	struct git_snap		 gs;
	struct space_done	 sd;

	fx_before();
	cr_assert_eq(fx_history(fx_repo, FX_ID, &gs, &sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_NOT_A_COMMIT);
	cr_assert_eq(fx_sh("cd .. && " GITQ " clone -q --depth 1 "
	    "file://$PWD/repo shallow"), 0);
	snprintf(fx_repo, sizeof(fx_repo), "%s/shallow", fx_root);
	snapshot(&gs);
	cr_assert_eq(fx_history(fx_repo, FX_ID, &gs, &sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_HOST_SHALLOW);
}

Test(pack, refs_remove_takes_the_space_only)
{
	struct git_snap		 gs;
	struct space_done	 sd;
	char			*refs;

	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/other HEAD && "
	    GITQ " update-ref refs/spaced/spaces/" FX_OTHER_ID "/start HEAD"),
	    0);
	fx_before();
	snapshot(&gs);
	/* One more of this space's, below a folder. */
	cr_assert_eq(fx_sh(GITQ " update-ref refs/spaced/spaces/" FX_ID
	    "/x/y HEAD"), 0);
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_eq(fx_untouched(FX_ID), 0);
	refs = fx_out(GITQ " for-each-ref --format='%%(refname)' refs/spaced");
	cr_assert_str_eq(refs, "refs/spaced/other\n"
	    "refs/spaced/spaces/" FX_OTHER_ID "/start\n");
	free(refs);
	/* git prunes the folders a deleted ref leaves empty; so do we. */
	cr_assert_neq(fx_sh("test -e .git/refs/spaced/spaces/" FX_ID), 0);
	/* Again: nothing left, nothing to do. */
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0);
}

Test(pack, refs_remove_packed)
{
	struct git_snap		 gs;
	struct space_done	 sd;

	snapshot(&gs);
	cr_assert_eq(fx_sh(GITQ " pack-refs --all"), 0);
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_neq(fx_sh(GITQ " rev-parse -q --verify refs/spaced/spaces/"
	    FX_ID "/start"), 0);
}

/*
 * A reflog of the space's ref (core.logAllRefUpdates=always when git
 * wrote it) goes with the ref, and its folders with it.
 */
Test(pack, refs_remove_takes_the_reflog)
{
	struct space_done	 sd;

	cr_assert_eq(fx_sh(GITQ " config core.logAllRefUpdates always && "
	    GITQ " update-ref refs/spaced/spaces/" FX_ID "/start HEAD && "
	    "test -f .git/logs/refs/spaced/spaces/" FX_ID "/start"), 0);
	cr_assert_eq(fx_refs_remove(fx_repo, FX_ID, &sd), 0, "%s",
	    sd.sd_message);
	cr_assert_neq(fx_sh("test -e .git/logs/refs/spaced/spaces/" FX_ID),
	    0);
	cr_assert_neq(fx_sh("test -e .git/refs/spaced/spaces/" FX_ID), 0);
}

Test(pack, refs_remove_refusals)
{
	struct space_done	 sd;
	char			 dir[PATH_MAX];

	fx_before();
	snprintf(dir, sizeof(dir), "%s/moved", fx_root);
	cr_assert_eq(fx_refs_remove(dir, FX_ID, &sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_PROJECT_FOLDER_MISSING);
	snprintf(dir, sizeof(dir), "%s/home", fx_root);
	cr_assert_eq(fx_refs_remove(dir, FX_ID, &sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_NOT_A_GIT_WORK_TREE);
	cr_assert_eq(fx_untouched(FX_ID), 0);
}
