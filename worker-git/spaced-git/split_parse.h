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

#ifndef SPLIT_PARSE_H
#define SPLIT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * git's index file (versions 2 to 4) and its split form (core.splitIndex:
 * the "link" extension over a shared index), which libgit2 1.5 cannot
 * read.  Pure: bytes in, entries out, every field checked before use.
 */

/* An index file larger than this is refused. */
#define SX_FILE_MAX	(512UL * 1024 * 1024)
#define SX_OID_LEN	20

/* git's flags of an entry. */
#define SX_FLAG_EXTENDED	0x4000
#define SX_FLAG_STAGE		0x3000
#define SX_FLAG_NAMEMASK	0x0fff

struct sx_entry {
	uint32_t	 se_ctime[2];	/* seconds, nanoseconds */
	uint32_t	 se_mtime[2];
	uint32_t	 se_dev, se_ino, se_mode, se_uid, se_gid, se_size;
	uint8_t		 se_oid[SX_OID_LEN];
	uint16_t	 se_flags;	/* assume-valid, stage */
	uint16_t	 se_flags_ext;	/* skip-worktree, intent-to-add */
	char		*se_path;	/* "" for a replacement of the link */
};

struct sx_index {
	struct sx_entry	*sx_entries;
	size_t		 sx_n;
	int		 sx_link;	/* a split index: the rest is set */
	uint8_t		 sx_shared[SX_OID_LEN];
	uint8_t		*sx_delete;	/* bit i: shared entry i deleted */
	size_t		 sx_ndelete;	/* bits of sx_delete */
	uint8_t		*sx_replace;	/* bit i: replaced, in order */
	size_t		 sx_nreplace;
};

int	 sx_parse(const uint8_t *, size_t, struct sx_index *, const char **);
int	 sx_merge(const struct sx_index *, const struct sx_index *,
	    struct sx_index *, const char **);
void	 sx_free(struct sx_index *);

#endif
