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
 * The pack writer's reuse of the repository's stored entries
 * (worker-git/spaced-git/git_pack.c): what it copies is exactly the objects the
 * space needs, deltas whose bases stay behind are written whole, and an
 * entry that does not match its index is never sent as it is stored.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "fixture.h"

TestSuite(reuse, .init = fx_setup, .fini = fx_teardown);

/* 40 commits of a 200-line file, one line each: a history of deltas. */
#define HISTORY_SH \
	"seq 1 200 | sed 's/$/ line of the long file/' > long.txt && " \
	GITQ " add long.txt && " GITQ " commit -qm long && " \
	"for i in $(seq 1 40); do sed -i \"${i}s/$/ edit $i/\" long.txt && " \
	GITQ " commit -qam e$i || exit 1; done"

static char	 pack_start[PATH_MAX], pack_history[PATH_MAX];
static struct git_snap gs;

static void
start_in(void)
{
	struct space_done	 sd;

	cr_assert_eq(fx_snapshot(fx_repo, FX_ID, 0, &gs, &sd), 0, "%s: %s",
	    sd.sd_code, sd.sd_message);
	snprintf(pack_start, sizeof(pack_start), "%s/start.pack", fx_root);
	snprintf(pack_history, sizeof(pack_history), "%s/history.pack",
	    fx_root);
	cr_assert_eq(fx_pack(fx_repo, &gs, GIT_PACK_START, pack_start, &sd),
	    0, "%s: %s", sd.sd_code, sd.sd_message);
	cr_assert_eq(fx_sh("cd .. && " GITQ " init -q -b main inside && "
	    "cd inside && " GITQ " index-pack --stdin < '%s' >/dev/null && "
	    "echo %s > .git/shallow && " GITQ " update-ref refs/heads/main %s",
	    pack_start, gs.gs_base, gs.gs_base), 0);
}

/* The history into ../inside as the space's script takes it. */
static int
history_in(struct space_done *sd)
{
	struct git_snap		 hs;

	cr_assert_eq(fx_history(fx_repo, FX_ID, &hs, sd), 0, "%s",
	    sd->sd_message);
	if (fx_pack(fx_repo, &hs, GIT_PACK_HISTORY, pack_history, sd) != 0)
		return -1;
	cr_assert_eq(fx_sh("cd ../inside && " GITQ " index-pack --stdin < "
	    "'%s' >/dev/null && rm .git/shallow && " GITQ " rev-list --quiet "
	    "--objects %s && " GITQ " fsck --no-progress 2>&1 | "
	    "grep -v -e '^notice' -e '^dangling' | { ! grep .; }", pack_history,
	    gs.gs_base), 0);
	return 0;
}

static size_t
stored(const struct space_done *sd)
{
	size_t	 objects, as_stored;

	cr_assert_eq(sscanf(sd->sd_message, "%zu objects (%zu as stored)",
	    &objects, &as_stored), 2, "%s", sd->sd_message);
	return as_stored;
}

Test(reuse, a_packed_history_goes_as_stored)
{
	struct space_done	 sd;
	char			*a, *b;

	cr_assert_eq(fx_sh(HISTORY_SH " && " GITQ " repack -adq "
	    "--window=50 --depth=50 && " GITQ " commit -q --allow-empty "
	    "-m loose"), 0);
	/* Control: the host stores most of it as deltas. */
	cr_assert_eq(fx_sh(GITQ " verify-pack -v .git/objects/pack/*.idx | "
	    "awk '$7 != \"\" && $2 == \"blob\"' | wc -l | "
	    "awk '{ exit $1 < 30 }'"), 0);
	start_in();
	cr_assert_eq(history_in(&sd), 0, "%s", sd.sd_message);
	cr_assert_gt(stored(&sd), 80, "%s", sd.sd_message);
	/* The space stores them as deltas too: they came as they were. */
	cr_assert_eq(fx_sh("cd ../inside && " GITQ " verify-pack -v "
	    ".git/objects/pack/*.idx | awk '$7 != \"\" && $2 == \"blob\"' | "
	    "wc -l | awk '{ exit $1 < 30 }'"), 0);
	a = fx_out(GITQ " rev-list --objects %s | sort", gs.gs_base);
	b = fx_out("cd ../inside && " GITQ " rev-list --objects %s | sort",
	    gs.gs_base);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

/*
 * A pack holds what no branch of the space reaches: here a blob of a
 * deleted branch that the kept blob is stored as a delta of.  It stays
 * on the host; the kept blob goes whole.
 */
Test(reuse, what_the_space_does_not_reach_stays)
{
	struct space_done	 sd;
	char			*secret, *kept, *base;

	cr_assert_eq(fx_sh("seq 1 300 | sed 's/$/ shared text/' > shared.txt "
	    "&& " GITQ " add shared.txt && " GITQ " commit -qm shared && "
	    GITQ " checkout -q -b side && echo SIDE-SECRET-BAIT >> shared.txt "
	    "&& seq 1 300 >> shared.txt && " GITQ " commit -qam side && "
	    GITQ " checkout -q main"), 0);
	secret = fx_out(GITQ " rev-parse side:shared.txt");
	kept = fx_out(GITQ " rev-parse main:shared.txt");
	cr_assert_eq(fx_sh(GITQ " repack -adq --window=250 && " GITQ
	    " branch -qD side"), 0);
	/* Controls: the pack holds the secret, and the kept blob on it. */
	cr_assert_eq(fx_sh(GITQ " cat-file --batch-all-objects --batch | "
	    "grep -q SIDE-SECRET-BAIT"), 0);
	kept[strcspn(kept, "\n")] = '\0';
	secret[strcspn(secret, "\n")] = '\0';
	base = fx_out(GITQ " verify-pack -v .git/objects/pack/*.idx | "
	    "awk '$1 == \"%s\" { printf \"%%s\", $7 }'", kept);
	cr_assert_str_eq(base, secret, "%s is not stored on %s", kept, secret);
	start_in();
	cr_assert_eq(history_in(&sd), 0, "%s", sd.sd_message);
	cr_assert_eq(fx_sh("cd ../inside && " GITQ " cat-file "
	    "--batch-all-objects --batch > ../objects && test -s ../objects"),
	    0);
	cr_assert_neq(fx_sh("grep -q SIDE-SECRET-BAIT ../objects"), 0);
	cr_assert_eq(fx_sh("grep -q 'shared text' ../objects"), 0);
	free(secret);
	free(kept);
	free(base);
}

/* The offset and stored size of an object in the host's pack. */
static void
where(const char *rev, long long *off, long long *len)
{
	char	*line;

	line = fx_out("o=$(" GITQ " rev-parse %s) && " GITQ " verify-pack -v "
	    ".git/objects/pack/*.idx | awk -v o=$o '$1 == o { print $5, $4 }'",
	    rev);
	cr_assert_eq(sscanf(line, "%lld %lld", off, len), 2, "%s: %s", rev,
	    line);
	free(line);
}

static void
damage(long long at)
{
	/* Every bit flipped: a fixed byte left a random one as it was
	 * once in 256 runs (the CI of 2026-12-06, in the fresh root). */
	cr_assert_eq(fx_sh("p=$(ls .git/objects/pack/*.pack) && chmod u+w $p "
	    "&& b=$(dd if=$p bs=1 skip=%lld count=1 status=none | od -An "
	    "-tu1) && printf \"\\\\$(printf %%03o $((b ^ 255)))\" | "
	    "dd of=$p bs=1 seek=%lld conv=notrunc status=none", at, at), 0);
}

/*
 * A byte of a stored entry changed: its CRC no longer matches and it
 * is not sent as stored; read through libgit2, it fails its hash.
 */
Test(reuse, a_damaged_entry_is_not_sent)
{
	struct space_done	 sd;
	long long		 off, len;

	cr_assert_eq(fx_sh("seq 1 500 > gone.txt && " GITQ " add gone.txt && "
	    GITQ " commit -qm gone && " GITQ " rm -q gone.txt && " GITQ
	    " commit -qm del && " GITQ " repack -adq"), 0);
	where("HEAD~1:gone.txt", &off, &len);
	start_in();
	damage(off + len / 2);
	cr_assert_eq(history_in(&sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_GIT_COMMAND_FAILED);
}

/* An entry larger than the writer's window is copied and checked as it goes. */
Test(reuse, a_large_entry_streams)
{
	struct space_done	 sd;
	char			*a, *b;

	cr_assert_eq(fx_sh("head -c 3000000 /dev/urandom > big.bin && "
	    GITQ " add big.bin && " GITQ " commit -qm big && " GITQ " rm -q "
	    "big.bin && " GITQ " commit -qm del && " GITQ " repack -adq"), 0);
	start_in();
	cr_assert_eq(history_in(&sd), 0, "%s", sd.sd_message);
	a = fx_out(GITQ " rev-parse HEAD~1:big.bin");
	b = fx_out("cd ../inside && " GITQ " cat-file blob %.40s | "
	    GITQ " hash-object --stdin", a);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

Test(reuse, a_damaged_large_entry_ends_the_pack)
{
	struct space_done	 sd;
	long long		 off, len;

	cr_assert_eq(fx_sh("head -c 3000000 /dev/urandom > big.bin && "
	    GITQ " add big.bin && " GITQ " commit -qm big && " GITQ " rm -q "
	    "big.bin && " GITQ " commit -qm del && " GITQ " repack -adq"), 0);
	where("HEAD~1:big.bin", &off, &len);
	start_in();
	damage(off + len - 100);
	cr_assert_eq(history_in(&sd), -1);
	cr_assert_str_eq(sd.sd_code, ERR_GIT_COMMAND_FAILED);
	cr_assert_not_null(strstr(sd.sd_message, "CRC"), "%s", sd.sd_message);
}
