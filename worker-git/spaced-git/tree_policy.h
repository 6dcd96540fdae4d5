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

#ifndef TREE_POLICY_H
#define TREE_POLICY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Code out's tree policy (docs/notes/spaced-git-codeout.md): what an
 * entry of a tree that came out of a space may be.  Pure: no I/O, no
 * globals.
 */

/* Reasons, as bits; the names are the contract (spacectl apply --allow). */
enum policy_reason {
	/* never allowed */
	POLICY_DOTGIT		= 1u << 0,	/* "dotgit" */
	POLICY_DOTDOT		= 1u << 1,	/* "dotdot" */
	POLICY_ABSOLUTE		= 1u << 2,	/* "absolute" */
	POLICY_SYMLINK_ESCAPE	= 1u << 3,	/* "symlink_escape" */
	POLICY_SYMLINK_GIT	= 1u << 4,	/* "symlink_git" */
	POLICY_GITLINK		= 1u << 5,	/* "gitlink" */
	POLICY_BAD_MODE		= 1u << 6,	/* "bad_mode" */
	POLICY_BAD_NAME		= 1u << 7,	/* "bad_name": NUL, '/', empty */
	POLICY_PATH_TOO_LONG	= 1u << 8,	/* "path_too_long" */
	POLICY_TOO_DEEP		= 1u << 9,	/* "tree_too_deep" */
	POLICY_TOO_MANY		= 1u << 10,	/* "tree_too_wide" */
	/* refused unless allowed by name */
	POLICY_GITMODULES	= 1u << 16,	/* "gitmodules" */
	POLICY_ATTR_DRIVER	= 1u << 17,	/* "attributes_driver" */
	POLICY_NEW_EXECUTABLE	= 1u << 18,	/* "new_executable" */
	POLICY_LARGE_FILE	= 1u << 19,	/* "large_file" */
};
#define POLICY_NEVER		0x0000ffffu
#define POLICY_ALLOWABLE	0xffff0000u

/* Git's modes, as a tree stores them. */
#define POLICY_MODE_TREE	0040000
#define POLICY_MODE_FILE	0100644
#define POLICY_MODE_EXEC	0100755
#define POLICY_MODE_LINK	0120000
#define POLICY_MODE_GITLINK	0160000

struct policy_caps {
	size_t		 pc_path_max;		/* bytes of a whole path */
	size_t		 pc_depth_max;		/* folders above an entry */
	size_t		 pc_entries_max;	/* entries of one tree */
	uint64_t	 pc_file_max;		/* a blob's bytes, else large */
};
#define POLICY_PATH_MAX		4096
#define POLICY_DEPTH_MAX	64
#define POLICY_ENTRIES_MAX	100000
#define POLICY_FILE_MAX		(10ULL * 1024 * 1024)

/* One entry of a new tree, with what the base had at its path. */
struct policy_entry {
	const char	*pe_path;	/* whole path, '/'-separated */
	size_t		 pe_path_len;
	uint32_t	 pe_mode;
	uint32_t	 pe_old_mode;	/* 0: the base has none there */
	uint64_t	 pe_size;	/* a blob's size */
	/* The blob, where policy_wants_data says: a link, an attributes file */
	const char	*pe_data;
	size_t		 pe_data_len;
};

void		 policy_caps_default(struct policy_caps *);
uint32_t	 policy_check_entry(const struct policy_caps *,
		    const struct policy_entry *);
uint32_t	 policy_check_tree_size(const struct policy_caps *, size_t);
int		 policy_wants_data(const char *, size_t, uint32_t);
int		 policy_name_is_dotgit(const char *, size_t);
int		 policy_name_is(const char *, size_t, const char *,
		    const char *);
uint32_t	 policy_check_symlink(const char *, size_t, const char *,
		    size_t);
int		 policy_attributes_driver(const char *, size_t);
const char	*policy_reason_name(uint32_t);
uint32_t	 policy_reason_from_name(const char *);
int		 policy_allow_parse(const char *, uint32_t *);
size_t		 policy_escape(char *, size_t, const char *, size_t);

#endif
