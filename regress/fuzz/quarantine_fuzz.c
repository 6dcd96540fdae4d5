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
 * The quarantine (worker-git/spaced-git/quarantine.c) on any bytes a
 * space could send as its pack: the scan, libgit2's indexer, the tip
 * and the walk of the new commits over a quarantine that holds one
 * base commit; nothing may crash, leak or read past a buffer, and a
 * pack the checks accept has a tip that descends from the base.
 * fuzz-link: worker-git/spaced-git/quarantine.c worker-git/spaced-git/packscan.c worker-git/spaced-git/tree_policy.c
 */

#define _GNU_SOURCE
#include <sys/mman.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker-git/spaced-git/quarantine.h"
#include "regress/fuzz/fuzz_repo.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	 qdir[] = "/tmp/spaced-qr-fuzz.XXXXXX";
static git_oid	 base;

static void
noop(void *arg, uint32_t reason, const git_oid *commit, const char *path,
    size_t len)
{
}

/* Once: a bare quarantine with one base commit (one file). */
static void
prepare(void)
{
	fuzz_repo_make(qdir, 1, &base);
}

/* The packs an input left: the next starts from the base alone. */
static void
clean_packs(void)
{
	char		 dir[256], path[512];
	DIR		*d;
	struct dirent	*de;

	snprintf(dir, sizeof(dir), "%s/objects/pack", qdir);
	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

/* libgit2's own one-time state is not an input's leak. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	prepare();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qr_caps		 caps;
	struct qr_result	 res;
	git_repository		*q;
	git_oid			 tip;
	const char		*why;
	int			 fd;

	qr_caps_default(&caps);
	caps.qc_pack.ps_objects_max = 2000;
	caps.qc_pack.ps_inflated_max = 8 << 20;
	caps.qc_seconds = 5;
	memset(&res, 0, sizeof(res));
	if ((fd = memfd_create("pack", 0)) == -1)
		abort();
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET))
		abort();
	if (git_repository_open(&q, qdir) != 0)
		abort();
	if (qr_index(q, fd, &caps, &res, &why) == 0 &&
	    qr_tip(q, &base, &res, &tip, &why) == 0 &&
	    qr_check(q, &base, &base, &tip, &caps, noop, NULL, &res,
	    &why) == 0 && !git_oid_equal(&tip, &base) &&
	    git_graph_descendant_of(q, &tip, &base) != 1)
		abort();
	close(fd);
	git_repository_free(q);
	clean_packs();
	return 0;
}
