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
 * apply's owner side (worker-git/spaced-git/git_apply.c) on any bytes
 * as the pack: the first byte picks -b or -w and the chunk size, the
 * rest goes through ga_feed.  Nothing may crash or leak, and a refusal
 * leaves no staging folder, no pack and no branch behind.
 * fuzz-link: regress/fuzz/fuzz_repo.c worker-git/spaced-git/git_apply.c worker-git/spaced-git/git_apply_wt.c worker-git/spaced-git/split_index.c worker-git/spaced-git/split_parse.c worker-git/spaced-git/quarantine.c worker-git/spaced-git/packscan.c worker-git/spaced-git/tree_policy.c
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker-git/spaced-git/git_apply.h"
#include "regress/fuzz/fuzz_repo.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The seeds' tip (corpus/apply_fuzz): a.txt changed, a new folder. */
#define TIP	"3f305de668aec87f63ee42044cb9b16b6ef5aada"
#define BRANCH	"refs/heads/spaced/f"

static char	 udir[] = "/tmp/spaced-apply-fuzz.XXXXXX";
static git_oid	 base;

/* Names under udir/sub starting with prefix: how many. */
static int
count(const char *sub, const char *prefix)
{
	char		 dir[256];
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	snprintf(dir, sizeof(dir), "%s/.git/%s", udir, sub);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

/* After an apply that worked: the branch, the packs and the change go. */
static void
undo(git_repository *r, int mode)
{
	git_reference	*ref;
	git_object	*b;
	char		 gitdir[64];

	if (mode == GA_BRANCH) {
		if (git_reference_lookup(&ref, r, BRANCH) != 0 ||
		    git_reference_delete(ref) != 0)
			abort();
		git_reference_free(ref);
	} else {
		if (git_object_lookup(&b, r, &base, GIT_OBJECT_COMMIT) != 0 ||
		    git_reset(r, b, GIT_RESET_HARD, NULL) != 0)
			abort();
		git_object_free(b);
	}
	snprintf(gitdir, sizeof(gitdir), "%s/.git", udir);
	fz_packs_clear(gitdir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_repo_base(udir, 0, &base);	/* a work tree at the base */
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qr_caps		 caps;
	struct ga_req		 req;
	struct ga_result	 gr;
	struct ga_apply		*ga;
	git_repository		*r;
	git_reference		*ref;
	char			 err[1024];
	size_t			 chunk, off, n;
	int			 rc;

	if (size < 1)
		return 0;
	memset(&req, 0, sizeof(req));
	req.mode = data[0] & 1 ? GA_WORKTREE : GA_BRANCH;
	strlcpy(req.branch, BRANCH, sizeof(req.branch));
	git_oid_cpy(&req.base, &base);
	git_oid_fromstr(&req.tip, TIP);
	req.allow = POLICY_ALLOWABLE;
	chunk = 1 + (size_t)(data[0] >> 1) * 131;
	fz_caps(&caps);
	if (git_repository_open(&r, udir) != 0)
		abort();
	if (ga_begin(r, &req, &ga, err, sizeof(err)) != 0)
		abort();	/* the repository is as the request expects */
	ga_set_caps(ga, &caps);
	for (off = 1; off < size; off += n) {
		n = size - off < chunk ? size - off : chunk;
		if (ga_feed(ga, data + off, n) == -1)
			break;
	}
	rc = ga_finish(ga, &gr, err, sizeof(err));
	ga_free(ga);
	ga_result_free(&gr);
	if (rc == 0)
		undo(r, req.mode);
	else if (strchr(err, ':') == NULL ||
	    git_reference_lookup(&ref, r, BRANCH) == 0)
		abort();	/* a refusal without its code, or a branch */
	if (count("objects", "spaced-incoming-") != 0 ||
	    count("objects/pack", "pack-") != 0)
		abort();	/* something of the apply stayed */
	git_repository_free(r);
	return 0;
}
