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

#ifndef PACKIDX_H
#define PACKIDX_H

#include <stddef.h>
#include <stdint.h>

/*
 * A pack's .idx (version 2) and its entries' headers, read from bytes
 * of the user's repository: every field is checked before it is used,
 * and nothing here reads a file or allocates more than the index's own
 * size allows.
 */

#define PACK_OID_LEN	20
#define PACK_TRAILER	20
/* An index larger than this is refused (about 38 million objects). */
#define PACKIDX_MAX	(1024UL * 1024 * 1024)

enum pack_type {
	PACK_COMMIT = 1,
	PACK_TREE = 2,
	PACK_BLOB = 3,
	PACK_TAG = 4,
	PACK_OFS_DELTA = 6,
	PACK_REF_DELTA = 7
};

struct packidx_at {
	uint64_t	 pa_offset;
	uint32_t	 pa_pos;
};

struct packidx {
	uint32_t	 pi_count;
	const uint8_t	*pi_oids;	/* pi_count, sorted */
	const uint8_t	*pi_crcs;	/* of each entry's bytes */
	const uint8_t	*pi_offsets;	/* 31 bits, or an index in pi_large */
	const uint8_t	*pi_large;
	uint32_t	 pi_nlarge;
	uint64_t	 pi_datasize;	/* the pack less its trailer */
	struct packidx_at *pi_byoffset;	/* sorted by offset */
	uint32_t	*pi_rank;	/* position: its index in pi_byoffset */
};

int		 packidx_parse(struct packidx *pi, const uint8_t *idx,
		    size_t len, const uint8_t head[12],
		    const uint8_t trailer[PACK_TRAILER], uint64_t size,
		    const char **why);
void		 packidx_free(struct packidx *);
int		 packidx_find(const struct packidx *, const uint8_t *oid,
		    uint32_t *pos);
const uint8_t	*packidx_oid(const struct packidx *, uint32_t pos);
uint32_t	 packidx_crc(const struct packidx *, uint32_t pos);
/* Where the entry at pos lies in the pack: [*off, *end). */
void		 packidx_span(const struct packidx *, uint32_t pos,
		    uint64_t *off, uint64_t *end);
/* The position of the entry that starts at off, if one does. */
int		 packidx_at(const struct packidx *, uint64_t off,
		    uint32_t *pos);

/* An entry's header: its type and size, and a delta's base. */
struct packent {
	enum pack_type	 pe_type;
	uint64_t	 pe_size;	/* inflated */
	size_t		 pe_len;	/* header bytes, a delta's base included */
	uint64_t	 pe_ofs;	/* OFS_DELTA: the base this far back */
	const uint8_t	*pe_base;	/* REF_DELTA: the base's id */
};
int		 packent_parse(const uint8_t *p, size_t len,
		    struct packent *);
/* Encodings for a header written anew; buf holds PACKENT_MAX. */
#define PACKENT_MAX	10
size_t		 packent_header(uint8_t *buf, enum pack_type, uint64_t size);
size_t		 packent_ofs(uint8_t *buf, uint64_t ofs);

#endif /* PACKIDX_H */
