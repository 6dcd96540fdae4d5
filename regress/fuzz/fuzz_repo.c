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


/* The base repository of the code-out fuzzers (fuzz_repo.h). */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "regress/fuzz/fuzz_repo.h"

static const char	*fz_dir;

static void
fz_remove(void)
{
	char	 cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fz_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "%s stays\n", fz_dir);
}

void
fz_repo_base(char *dir, int bare, git_oid *base)
{
	git_checkout_options	 co;
	git_repository		*r;
	git_treebuilder		*tb;
	git_signature		*sig;
	git_oid			 blob, tree;
	git_tree		*t;

	git_libgit2_init();
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (mkdtemp(dir) == NULL ||
	    git_repository_init(&r, dir, bare) != 0 ||
	    git_blob_create_from_buffer(&blob, r, "a\n", 2) != 0 ||
	    git_treebuilder_new(&tb, r, NULL) != 0 ||
	    git_treebuilder_insert(NULL, tb, "a.txt", &blob,
	    GIT_FILEMODE_BLOB) != 0 || git_treebuilder_write(&tree, tb) != 0 ||
	    git_tree_lookup(&t, r, &tree) != 0 ||
	    git_signature_new(&sig, "b", "b@b.invalid", 0, 0) != 0 ||
	    git_commit_create(base, r, bare ? NULL : "HEAD", sig, sig, NULL,
	    "base", t, 0, NULL) != 0 || (!bare && git_checkout_head(r, &co) != 0))
		abort();
	git_signature_free(sig);
	git_tree_free(t);
	git_treebuilder_free(tb);
	git_repository_free(r);
	fz_dir = dir;
	atexit(fz_remove);
}

void
fz_packs_clear(const char *gitdir)
{
	char		 dir[256], path[512];
	DIR		*d;
	struct dirent	*de;

	snprintf(dir, sizeof(dir), "%s/objects/pack", gitdir);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

void
fz_caps(struct qr_caps *caps)
{
	qr_caps_default(caps);
	caps->qc_pack.ps_objects_max = 2000;
	caps->qc_pack.ps_inflated_max = 8 << 20;
	caps->qc_seconds = 5;
}
