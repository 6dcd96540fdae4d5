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

#ifndef PACKSCAN_H
#define PACKSCAN_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/*
 * A pack that came out of a space, scanned as it streams, before
 * libgit2's indexer sees a byte: counts, declared and real inflated
 * sizes (a zlib or delta bomb stops at its first byte over), delta
 * chains, and nothing after the trailer.
 */

struct packscan_caps {
	uint32_t	 ps_objects_max;
	uint64_t	 ps_object_max;		/* one object's inflated bytes */
	uint64_t	 ps_inflated_max;	/* all objects', deltas' results */
	uint64_t	 ps_pack_max;		/* the pack's own bytes */
	uint32_t	 ps_chain_max;		/* ofs-delta chain length */
};
#define PACKSCAN_OBJECTS_MAX	200000
#define PACKSCAN_OBJECT_MAX	(256ULL * 1024 * 1024)
#define PACKSCAN_INFLATED_MAX	(2ULL * 1024 * 1024 * 1024)
#define PACKSCAN_PACK_MAX	(1ULL * 1024 * 1024 * 1024)
#define PACKSCAN_CHAIN_MAX	64

enum packscan_state {
	PS_HEADER = 0, PS_OBJ_HEAD, PS_OFS, PS_REF, PS_DATA, PS_TRAILER,
	PS_DONE, PS_FAILED,
};

struct packscan_obj {
	uint64_t	 po_offset;
	uint32_t	 po_depth;
};

struct packscan {
	struct packscan_caps	 ps_caps;
	enum packscan_state	 ps_state;
	const char		*ps_why;	/* PS_FAILED: what */
	uint8_t			 ps_buf[20];
	size_t			 ps_have;
	uint32_t		 ps_count, ps_seen;
	uint64_t		 ps_bytes;	/* consumed so far */
	uint64_t		 ps_inflated;
	/* the object being read */
	uint64_t		 ps_obj_offset;
	int			 ps_type;
	uint64_t		 ps_size;	/* declared */
	uint64_t		 ps_out;	/* inflated so far */
	unsigned		 ps_shift;
	uint64_t		 ps_ofs;
	uint32_t		 ps_depth;
	uint8_t			 ps_delta_head[20];	/* a delta's sizes */
	size_t			 ps_delta_have;
	int			 ps_delta_done;
	z_stream		 ps_z;
	int			 ps_z_live;
	/* offsets and chain depths, in pack order */
	struct packscan_obj	*ps_objs;
	size_t			 ps_nobjs, ps_capobjs;
};

#define PACKSCAN_OBJ_COMMIT	1
#define PACKSCAN_OBJ_TREE	2
#define PACKSCAN_OBJ_BLOB	3
#define PACKSCAN_OBJ_TAG	4
#define PACKSCAN_OBJ_OFS_DELTA	6
#define PACKSCAN_OBJ_REF_DELTA	7

void	 packscan_caps_default(struct packscan_caps *);
void	 packscan_init(struct packscan *, const struct packscan_caps *);
int	 packscan_feed(struct packscan *, const void *, size_t);
int	 packscan_finish(struct packscan *);
void	 packscan_free(struct packscan *);

#endif
