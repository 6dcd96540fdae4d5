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
 * A split index (core.splitIndex), which libgit2 1.5 cannot read, read
 * for code in's snapshot: the index and its shared index merged into
 * an index in memory that becomes the repository's.  It is never
 * written: the user's index files stay as they are.
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/repository.h>
#include <openssl/evp.h>

#include "split_parse.h"
#include "git_worker.h"

/*
 * libgit2 (1.5) reads no split index (core.splitIndex: git's mandatory
 * "link" extension, which it names when it refuses the index).
 */
int
libgit2_index_split(void)
{
	const git_error	*e = git_error_last();

	return e != NULL && e->message != NULL &&
	    strstr(e->message, "extension: 'link'") != NULL;
}

/*
 * A sparse index (index.sparse, a folder as one entry): libgit2 reads
 * none, and unlike a split one it is not merged here; git makes it
 * whole again.
 */
int
libgit2_index_sparse(void)
{
	const git_error	*e = git_error_last();

	return e != NULL && e->message != NULL &&
	    strstr(e->message, "extension: 'sdir'") != NULL;
}

/* A whole index file, its checksum checked (git's index.skipHash: 0s). */
static int
slurp(const char *path, uint8_t **data, size_t *len, uint8_t *sum)
{
	static const uint8_t	 zero[SX_OID_LEN];
	unsigned char		 md[EVP_MAX_MD_SIZE];
	unsigned int		 mdlen = 0;
	struct stat		 sb;
	size_t			 off = 0;
	ssize_t			 n;
	int			 fd, rc = -1;

	*data = NULL;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > SX_FILE_MAX ||
	    (size_t)sb.st_size < SX_OID_LEN ||
	    (*data = malloc((size_t)sb.st_size)) == NULL)
		goto out;
	while (off < (size_t)sb.st_size &&
	    (n = read(fd, *data + off, (size_t)sb.st_size - off)) > 0)
		off += (size_t)n;
	if (off != (size_t)sb.st_size)
		goto out;
	*len = off;
	memcpy(sum, *data + off - SX_OID_LEN, SX_OID_LEN);
	if (memcmp(sum, zero, SX_OID_LEN) != 0 &&
	    (EVP_Digest(*data, off - SX_OID_LEN, md, &mdlen, EVP_sha1(),
	    NULL) != 1 || mdlen != SX_OID_LEN ||
	    memcmp(md, sum, SX_OID_LEN) != 0))
		goto out;
	rc = 0;
out:
	if (rc == -1) {
		free(*data);
		*data = NULL;
	}
	close(fd);
	return rc;
}

/* One index file parsed; its checksum in sum. */
static int
index_file(const char *path, struct sx_index *sx, uint8_t *sum,
    const char **why)
{
	uint8_t		*data;
	size_t		 len;
	int		 rc;

	if (slurp(path, &data, &len, sum) == -1) {
		*why = "an index file is missing, or its checksum wrong";
		return -1;
	}
	rc = sx_parse(data, len, sx, why);
	free(data);
	return rc;
}

static int
to_libgit2(const struct sx_index *sx, git_index **out)
{
	git_index_entry	 ie;
	git_index	*idx;
	size_t		 i;
	const struct sx_entry *e;

	if (git_index_new(&idx) != 0)
		return -1;
	for (i = 0; i < sx->sx_n; i++) {
		e = &sx->sx_entries[i];
		memset(&ie, 0, sizeof(ie));
		ie.ctime.seconds = (int32_t)e->se_ctime[0];
		ie.ctime.nanoseconds = e->se_ctime[1];
		ie.mtime.seconds = (int32_t)e->se_mtime[0];
		ie.mtime.nanoseconds = e->se_mtime[1];
		ie.dev = e->se_dev;
		ie.ino = e->se_ino;
		ie.mode = e->se_mode;
		ie.uid = e->se_uid;
		ie.gid = e->se_gid;
		ie.file_size = e->se_size;
		memcpy(ie.id.id, e->se_oid, SX_OID_LEN);
		ie.flags = e->se_flags & ~(SX_FLAG_NAMEMASK | SX_FLAG_EXTENDED);
		ie.flags_extended = e->se_flags_ext;
		ie.path = e->se_path;
		if (git_index_add(idx, &ie) != 0) {
			git_index_free(idx);
			return -1;
		}
	}
	*out = idx;
	return 0;
}

/*
 * The repository's index, split: merged and set as r's.  0, or -1 with
 * *why (the user's files untouched either way).
 */
int
split_index_load(git_repository *r, const char **why)
{
	struct sx_index	 split, shared, merged;
	git_index	*idx = NULL;
	char		 path[PATH_MAX], hex[2 * SX_OID_LEN + 1];
	uint8_t		 sum[SX_OID_LEN];
	size_t		 i;
	int		 rc = -1;

	memset(&shared, 0, sizeof(shared));
	memset(&merged, 0, sizeof(merged));
	if ((size_t)snprintf(path, sizeof(path), "%sindex",
	    git_repository_path(r)) >= sizeof(path)) {
		*why = "the index's path is too long";
		return -1;
	}
	if (index_file(path, &split, sum, why) == -1)
		return -1;
	if (!split.sx_link) {
		*why = "the index is not split";
		goto out;
	}
	for (i = 0; i < SX_OID_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", split.sx_shared[i]);
	if ((size_t)snprintf(path, sizeof(path), "%ssharedindex.%s",
	    git_repository_path(r), hex) >= sizeof(path) ||
	    index_file(path, &shared, sum, why) == -1)
		goto out;
	if (memcmp(sum, split.sx_shared, SX_OID_LEN) != 0) {
		*why = "the shared index is not the one the index names";
		goto out;
	}
	if (sx_merge(&split, &shared, &merged, why) == -1)
		goto out;
	if (to_libgit2(&merged, &idx) == -1 ||
	    git_repository_set_index(r, idx) != 0) {
		*why = "libgit2 takes no index of its entries";
		goto out;
	}
	rc = 0;
out:
	git_index_free(idx);
	sx_free(&split);
	sx_free(&shared);
	sx_free(&merged);
	return rc;
}
