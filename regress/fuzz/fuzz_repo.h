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
 * The setup apply_fuzz and quarantine_fuzz share: once, a repository
 * in a temp folder at one base commit (a.txt, "a\n"), removed at exit.
 * Header only: each fuzzer is one program of its own sources.
 */

#ifndef FUZZ_REPO_H
#define FUZZ_REPO_H

#include <stdio.h>
#include <stdlib.h>

#include <git2.h>

static char	*fuzz_repo_dir;

static void
fuzz_repo_remove(void)
{
	char	 cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fuzz_repo_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "%s stays\n", fuzz_repo_dir);
}

/* dir a mkdtemp template; bare, or a work tree checked out at base. */
static void
fuzz_repo_make(char *dir, int bare, git_oid *base)
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
	    "base", t, 0, NULL) != 0 ||
	    (!bare && git_checkout_head(r, &co) != 0))
		abort();
	git_signature_free(sig);
	git_tree_free(t);
	git_treebuilder_free(tb);
	git_repository_free(r);
	fuzz_repo_dir = dir;
	atexit(fuzz_repo_remove);
}

#endif
