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
 * Code out's first look at a pack from a space: a streaming scan, in
 * any chunks, that stops at the first byte over a cap.  It inflates
 * into a fixed scratch buffer and keeps nothing of the content; it
 * never trusts a size it has not counted.
 */

#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "packscan.h"

#define PACK_HEADER	12
#define PACK_TRAILER	20
#define SCRATCH		65536

void
packscan_caps_default(struct packscan_caps *c)
{
	c->ps_objects_max = PACKSCAN_OBJECTS_MAX;
	c->ps_object_max = PACKSCAN_OBJECT_MAX;
	c->ps_inflated_max = PACKSCAN_INFLATED_MAX;
	c->ps_pack_max = PACKSCAN_PACK_MAX;
	c->ps_chain_max = PACKSCAN_CHAIN_MAX;
}

void
packscan_init(struct packscan *ps, const struct packscan_caps *caps)
{
	memset(ps, 0, sizeof(*ps));
	ps->ps_caps = *caps;
	ps->ps_state = PS_HEADER;
}

void
packscan_free(struct packscan *ps)
{
	if (ps->ps_z_live)
		inflateEnd(&ps->ps_z);
	ps->ps_z_live = 0;
	free(ps->ps_objs);
	ps->ps_objs = NULL;
	ps->ps_nobjs = ps->ps_capobjs = 0;
}

static int
fail(struct packscan *ps, const char *why)
{
	ps->ps_state = PS_FAILED;
	ps->ps_why = why;
	return -1;
}

static int
add_inflated(struct packscan *ps, uint64_t n)
{
	if (n > ps->ps_caps.ps_object_max)
		return fail(ps, "an object over the size cap");
	if (n > ps->ps_caps.ps_inflated_max - ps->ps_inflated)
		return fail(ps, "more inflated bytes than the cap");
	ps->ps_inflated += n;
	return 0;
}

static int
header_done(struct packscan *ps)
{
	const uint8_t	*b = ps->ps_buf;
	uint32_t	 version;

	if (memcmp(b, "PACK", 4) != 0)
		return fail(ps, "not a pack");
	version = (uint32_t)b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7];
	if (version != 2 && version != 3)
		return fail(ps, "a pack version git does not write");
	ps->ps_count = (uint32_t)b[8] << 24 | b[9] << 16 | b[10] << 8 | b[11];
	if (ps->ps_count > ps->ps_caps.ps_objects_max)
		return fail(ps, "more objects than the cap");
	ps->ps_have = 0;
	ps->ps_state = ps->ps_count == 0 ? PS_TRAILER : PS_OBJ_HEAD;
	return 0;
}

static int
data_start(struct packscan *ps)
{
	memset(&ps->ps_z, 0, sizeof(ps->ps_z));
	if (inflateInit(&ps->ps_z) != Z_OK)
		return fail(ps, "zlib");
	ps->ps_z_live = 1;
	ps->ps_out = 0;
	ps->ps_delta_have = 0;
	ps->ps_delta_done = 0;
	ps->ps_state = PS_DATA;
	return 0;
}

/* The object's head is read: its type and declared size. */
static int
obj_head_done(struct packscan *ps)
{
	switch (ps->ps_type) {
	case PACKSCAN_OBJ_COMMIT:
	case PACKSCAN_OBJ_TREE:
	case PACKSCAN_OBJ_BLOB:
	case PACKSCAN_OBJ_TAG:
		ps->ps_depth = 0;
		if (add_inflated(ps, ps->ps_size) == -1)
			return -1;
		return data_start(ps);
	case PACKSCAN_OBJ_OFS_DELTA:
		/* Its own bytes count, and the result's once known. */
		if (add_inflated(ps, ps->ps_size) == -1)
			return -1;
		ps->ps_have = 0;
		ps->ps_ofs = 0;
		ps->ps_state = PS_OFS;
		return 0;
	case PACKSCAN_OBJ_REF_DELTA:
		/* Its base could be anywhere: packs out use offsets. */
		return fail(ps, "a delta on a base named by id");
	default:
		return fail(ps, "an object of no git type");
	}
}

/* The earlier object that starts exactly at offset, by bisection. */
static const struct packscan_obj *
obj_at(const struct packscan *ps, uint64_t offset)
{
	size_t	 lo = 0, hi = ps->ps_nobjs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ps->ps_objs[mid].po_offset == offset)
			return &ps->ps_objs[mid];
		if (ps->ps_objs[mid].po_offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int
ofs_done(struct packscan *ps)
{
	const struct packscan_obj	*base;

	if (ps->ps_ofs == 0 || ps->ps_ofs > ps->ps_obj_offset ||
	    (base = obj_at(ps, ps->ps_obj_offset - ps->ps_ofs)) == NULL)
		return fail(ps, "a delta whose base is no object before it");
	ps->ps_depth = base->po_depth + 1;
	if (ps->ps_depth > ps->ps_caps.ps_chain_max)
		return fail(ps, "a delta chain over the cap");
	return data_start(ps);
}

/* A delta's own head: the base's size, then the result's (LEB128). */
static int
delta_head(struct packscan *ps, const uint8_t *p, size_t n)
{
	uint64_t	 v[2] = { 0, 0 };
	size_t		 i, k = 0;
	unsigned	 shift = 0;

	while (n > 0 && ps->ps_delta_have < sizeof(ps->ps_delta_head)) {
		ps->ps_delta_head[ps->ps_delta_have++] = *p++;
		n--;
	}
	for (i = 0; i < ps->ps_delta_have && k < 2; i++) {
		if (shift > 63 - 7)
			return fail(ps, "a delta size too long");
		v[k] |= (uint64_t)(ps->ps_delta_head[i] & 0x7f) << shift;
		shift += 7;
		if ((ps->ps_delta_head[i] & 0x80) == 0) {
			k++;
			shift = 0;
		}
	}
	if (k < 2) {
		if (ps->ps_delta_have == sizeof(ps->ps_delta_head))
			return fail(ps, "a delta size too long");
		return 0;		/* more to come */
	}
	ps->ps_delta_done = 1;
	return add_inflated(ps, v[1]);
}

static int
obj_done(struct packscan *ps)
{
	struct packscan_obj	*v;

	inflateEnd(&ps->ps_z);
	ps->ps_z_live = 0;
	if (ps->ps_out != ps->ps_size)
		return fail(ps, "an object shorter than it says");
	if (ps->ps_type == PACKSCAN_OBJ_OFS_DELTA && !ps->ps_delta_done)
		return fail(ps, "a delta without its sizes");
	if (ps->ps_nobjs == ps->ps_capobjs) {
		size_t	 ncap = ps->ps_capobjs ? ps->ps_capobjs * 2 : 256;

		if ((v = reallocarray(ps->ps_objs, ncap, sizeof(*v))) == NULL)
			return fail(ps, "out of memory");
		ps->ps_objs = v;
		ps->ps_capobjs = ncap;
	}
	ps->ps_objs[ps->ps_nobjs].po_offset = ps->ps_obj_offset;
	ps->ps_objs[ps->ps_nobjs].po_depth = ps->ps_depth;
	ps->ps_nobjs++;
	ps->ps_have = 0;
	ps->ps_state = ++ps->ps_seen == ps->ps_count ? PS_TRAILER :
	    PS_OBJ_HEAD;
	return 0;
}

/* Inflate what is there; returns the bytes of input used, or -1. */
static ssize_t
data_feed(struct packscan *ps, const uint8_t *p, size_t n)
{
	static uint8_t	 scratch[SCRATCH];
	size_t		 made, in = n > UINT32_MAX ? UINT32_MAX : n;
	int		 ret;

	ps->ps_z.next_in = (Bytef *)(uintptr_t)p;
	ps->ps_z.avail_in = (uInt)in;
	do {
		ps->ps_z.next_out = scratch;
		ps->ps_z.avail_out = sizeof(scratch);
		ret = inflate(&ps->ps_z, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			return fail(ps, "data zlib cannot read");
		made = sizeof(scratch) - ps->ps_z.avail_out;
		/* A bomb stops here, at its first byte over. */
		if (made > ps->ps_size - ps->ps_out)
			return fail(ps, "an object longer than it says");
		if (ps->ps_type == PACKSCAN_OBJ_OFS_DELTA &&
		    !ps->ps_delta_done && delta_head(ps, scratch, made) == -1)
			return -1;
		ps->ps_out += made;
		if (ret == Z_BUF_ERROR && made == 0)
			break;		/* wants more input */
		if (ret == Z_STREAM_END) {
			made = in - ps->ps_z.avail_in;
			return obj_done(ps) == -1 ? -1 : (ssize_t)made;
		}
	} while (ps->ps_z.avail_in > 0 || ps->ps_z.avail_out == 0);
	if ((made = in - ps->ps_z.avail_in) == 0)
		return fail(ps, "data zlib cannot read");
	return (ssize_t)made;
}

/* One byte of a head, an offset, an id or the trailer. */
static int
byte_feed(struct packscan *ps, uint8_t c)
{
	switch (ps->ps_state) {
	case PS_HEADER:
		ps->ps_buf[ps->ps_have++] = c;
		return ps->ps_have == PACK_HEADER ? header_done(ps) : 0;
	case PS_OBJ_HEAD:
		if (ps->ps_have++ == 0) {
			ps->ps_obj_offset = ps->ps_bytes;
			ps->ps_type = (c >> 4) & 7;
			ps->ps_size = c & 15;
			ps->ps_shift = 4;
		} else {
			if (ps->ps_shift > 63 - 7)
				return fail(ps, "an object size too long");
			ps->ps_size |= (uint64_t)(c & 0x7f) << ps->ps_shift;
			ps->ps_shift += 7;
		}
		return c & 0x80 ? 0 : obj_head_done(ps);
	case PS_OFS:
		if (ps->ps_have++ > 0) {
			if (ps->ps_ofs >= (1ULL << 56))
				return fail(ps, "a delta offset too long");
			ps->ps_ofs = (ps->ps_ofs + 1) << 7;
		}
		ps->ps_ofs |= c & 0x7f;
		return c & 0x80 ? 0 : ofs_done(ps);
	case PS_TRAILER:
		ps->ps_buf[ps->ps_have++] = c;
		if (ps->ps_have == PACK_TRAILER)
			ps->ps_state = PS_DONE;
		return 0;
	case PS_DONE:
		return fail(ps, "bytes after the pack's end");
	default:
		return fail(ps, "fed after a failure");
	}
}

int
packscan_feed(struct packscan *ps, const void *buf, size_t len)
{
	const uint8_t	*p = buf;
	ssize_t		 used;

	if (ps->ps_state == PS_FAILED)
		return -1;
	while (len > 0) {
		if (ps->ps_state == PS_DATA) {
			if ((used = data_feed(ps, p, len)) == -1)
				return -1;
		} else {
			if (byte_feed(ps, *p) == -1)
				return -1;
			used = 1;
		}
		p += used;
		len -= (size_t)used;
		ps->ps_bytes += (uint64_t)used;
		if (ps->ps_bytes > ps->ps_caps.ps_pack_max)
			return fail(ps, "a pack over the size cap");
	}
	return 0;
}

int
packscan_finish(struct packscan *ps)
{
	if (ps->ps_state == PS_FAILED)
		return -1;
	if (ps->ps_state != PS_DONE)
		return fail(ps, "a pack cut short");
	return 0;
}
