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
 * The pack index format of git's Documentation/gitformat-pack.txt,
 * version 2: a magic and version, 256 counts by first byte, the sorted
 * ids, a CRC-32 and an offset per object, the offsets past 2 GiB, the
 * pack's checksum and the index's own.  The checks are what lets the
 * writer trust a span: every offset inside the pack's data, no two
 * alike, so that an entry ends where the next one begins.
 */

#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "packidx.h"

#define IDX_HEAD	8
#define IDX_FANOUT	(256 * 4)
#define IDX_PER_OBJECT	(PACK_OID_LEN + 4 + 4)
#define PACK_HEAD	12

static int
byoffset_cmp(const void *a, const void *b)
{
	uint64_t	 x = ((const struct packidx_at *)a)->pa_offset;
	uint64_t	 y = ((const struct packidx_at *)b)->pa_offset;

	return x < y ? -1 : x > y;
}

static uint64_t
entry_offset(const struct packidx *pi, uint32_t pos)
{
	uint32_t	 v = be32(pi->pi_offsets + (size_t)pos * 4);

	if (v & 0x80000000U)	/* checked in range by packidx_parse */
		return be64(pi->pi_large + (size_t)(v & 0x7fffffffU) * 8);
	return v;
}

static int
offsets_check(struct packidx *pi, const char **why)
{
	uint64_t	 off;
	uint32_t	 i, v;

	if (pi->pi_count == 0)
		return 0;
	if ((pi->pi_byoffset = calloc(pi->pi_count,
	    sizeof(*pi->pi_byoffset))) == NULL ||
	    (pi->pi_rank = calloc(pi->pi_count, 4)) == NULL) {
		*why = "out of memory";
		return -1;
	}
	for (i = 0; i < pi->pi_count; i++) {
		v = be32(pi->pi_offsets + (size_t)i * 4);
		if ((v & 0x80000000U) && (v & 0x7fffffffU) >= pi->pi_nlarge) {
			*why = "an offset past the index's large offsets";
			return -1;
		}
		off = entry_offset(pi, i);
		if (off < PACK_HEAD || off >= pi->pi_datasize) {
			*why = "an offset outside the pack";
			return -1;
		}
		pi->pi_byoffset[i].pa_offset = off;
		pi->pi_byoffset[i].pa_pos = i;
	}
	qsort(pi->pi_byoffset, pi->pi_count, sizeof(*pi->pi_byoffset),
	    byoffset_cmp);
	for (i = 0; i < pi->pi_count; i++) {
		if (i > 0 && pi->pi_byoffset[i].pa_offset ==
		    pi->pi_byoffset[i - 1].pa_offset) {
			*why = "two objects at one offset";
			return -1;
		}
		pi->pi_rank[pi->pi_byoffset[i].pa_pos] = i;
	}
	return 0;
}

/*
 * idx is the index's bytes (kept by the caller while pi lives); head
 * the pack's first 12 bytes, trailer its last 20, size its size.  On
 * failure *why says what is wrong.
 */
int
packidx_parse(struct packidx *pi, const uint8_t *idx, size_t len,
    const uint8_t head[PACK_HEAD], const uint8_t trailer[PACK_TRAILER],
    uint64_t size, const char **why)
{
	const uint8_t	*fanout = idx + IDX_HEAD, *oid;
	uint64_t	 need, rest;
	uint32_t	 n, prev = 0, i, first;

	memset(pi, 0, sizeof(*pi));
	*why = NULL;
	if (size < PACK_HEAD + PACK_TRAILER || memcmp(head, "PACK", 4) != 0 ||
	    (be32(head + 4) != 2 && be32(head + 4) != 3)) {
		*why = "not a pack of version 2 or 3";
		return -1;
	}
	if (len > PACKIDX_MAX || len < IDX_HEAD + IDX_FANOUT + 2 * PACK_TRAILER ||
	    memcmp(idx, "\377tOc", 4) != 0 || be32(idx + 4) != 2) {
		*why = "not a pack index of version 2";
		return -1;
	}
	for (i = 0; i < 256; i++) {
		if ((n = be32(fanout + i * 4)) < prev) {
			*why = "a fan-out that goes down";
			return -1;
		}
		prev = n;
	}
	pi->pi_count = n;
	need = IDX_HEAD + IDX_FANOUT + (uint64_t)n * IDX_PER_OBJECT +
	    2 * PACK_TRAILER;
	if (need > len || (rest = len - need) % 8 != 0) {
		*why = "an index whose size does not match its count";
		return -1;
	}
	if (be32(head + 8) != n) {
		*why = "a pack whose count is not its index's";
		return -1;
	}
	if (memcmp(idx + len - 2 * PACK_TRAILER, trailer, PACK_TRAILER) != 0) {
		*why = "an index of another pack";
		return -1;
	}
	pi->pi_oids = fanout + IDX_FANOUT;
	pi->pi_crcs = pi->pi_oids + (size_t)n * PACK_OID_LEN;
	pi->pi_offsets = pi->pi_crcs + (size_t)n * 4;
	pi->pi_large = pi->pi_offsets + (size_t)n * 4;
	pi->pi_nlarge = rest / 8 > UINT32_MAX ? UINT32_MAX : rest / 8;
	pi->pi_datasize = size - PACK_TRAILER;
	for (i = 0; i < n; i++) {
		oid = pi->pi_oids + (size_t)i * PACK_OID_LEN;
		first = oid[0];
		if (i >= be32(fanout + first * 4) ||
		    (first > 0 && i < be32(fanout + (first - 1) * 4)) ||
		    (i > 0 && memcmp(oid - PACK_OID_LEN, oid, PACK_OID_LEN) >= 0)) {
			*why = "ids out of order or not where the fan-out says";
			return -1;
		}
	}
	if (offsets_check(pi, why) == -1) {
		packidx_free(pi);
		return -1;
	}
	return 0;
}

void
packidx_free(struct packidx *pi)
{
	free(pi->pi_byoffset);
	free(pi->pi_rank);
	memset(pi, 0, sizeof(*pi));
}

int
packidx_find(const struct packidx *pi, const uint8_t *oid, uint32_t *pos)
{
	uint32_t	 lo = 0, hi = pi->pi_count, mid;
	int		 c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = memcmp(pi->pi_oids + (size_t)mid * PACK_OID_LEN, oid,
		    PACK_OID_LEN);
		if (c == 0) {
			*pos = mid;
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const uint8_t *
packidx_oid(const struct packidx *pi, uint32_t pos)
{
	return pi->pi_oids + (size_t)pos * PACK_OID_LEN;
}

uint32_t
packidx_crc(const struct packidx *pi, uint32_t pos)
{
	return be32(pi->pi_crcs + (size_t)pos * 4);
}

void
packidx_span(const struct packidx *pi, uint32_t pos, uint64_t *off,
    uint64_t *end)
{
	uint32_t	 r = pi->pi_rank[pos];

	*off = pi->pi_byoffset[r].pa_offset;
	*end = r + 1 < pi->pi_count ? pi->pi_byoffset[r + 1].pa_offset :
	    pi->pi_datasize;
}

int
packidx_at(const struct packidx *pi, uint64_t off, uint32_t *pos)
{
	uint32_t	 lo = 0, hi = pi->pi_count, mid;
	uint64_t	 at;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		at = pi->pi_byoffset[mid].pa_offset;
		if (at == off) {
			*pos = pi->pi_byoffset[mid].pa_pos;
			return 0;
		}
		if (at < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int
packent_parse(const uint8_t *p, size_t len, struct packent *pe)
{
	size_t		 i = 0;
	unsigned int	 shift = 4;
	uint64_t	 ofs;
	uint8_t		 c;

	memset(pe, 0, sizeof(*pe));
	if (len == 0)
		return -1;
	c = p[i++];
	pe->pe_type = (c >> 4) & 7;
	pe->pe_size = c & 15;
	while (c & 0x80) {
		if (i == len || shift > 60 - 7)
			return -1;
		c = p[i++];
		pe->pe_size |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	switch (pe->pe_type) {
	case PACK_COMMIT:
	case PACK_TREE:
	case PACK_BLOB:
	case PACK_TAG:
		break;
	case PACK_OFS_DELTA:
		if (i == len)
			return -1;
		c = p[i++];
		ofs = c & 0x7f;
		while (c & 0x80) {
			if (i == len || ofs >= (UINT64_MAX >> 7) - 1)
				return -1;
			c = p[i++];
			ofs = ((ofs + 1) << 7) | (c & 0x7f);
		}
		if (ofs == 0)
			return -1;
		pe->pe_ofs = ofs;
		break;
	case PACK_REF_DELTA:
		if (len - i < PACK_OID_LEN)
			return -1;
		pe->pe_base = p + i;
		i += PACK_OID_LEN;
		break;
	default:
		return -1;
	}
	pe->pe_len = i;
	return 0;
}

size_t
packent_header(uint8_t *buf, enum pack_type type, uint64_t size)
{
	size_t		 n = 0;
	uint8_t		 c = (uint8_t)(type << 4 | (size & 15));

	size >>= 4;
	while (size != 0) {
		buf[n++] = c | 0x80;
		c = size & 0x7f;
		size >>= 7;
	}
	buf[n++] = c;
	return n;
}

size_t
packent_ofs(uint8_t *buf, uint64_t ofs)
{
	uint8_t		 tmp[PACKENT_MAX];
	size_t		 pos = sizeof(tmp) - 1;

	tmp[pos] = ofs & 0x7f;
	while (ofs >>= 7)
		tmp[--pos] = 0x80 | (--ofs & 0x7f);
	memcpy(buf, tmp + pos, sizeof(tmp) - pos);
	return sizeof(tmp) - pos;
}
