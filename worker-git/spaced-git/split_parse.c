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
 * git's index and its split form, parsed (git's
 * Documentation/gitformat-index.txt); never reads past the bytes given.
 */

#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "split_parse.h"

#define SX_HEAD		12
#define SX_ENTRY_MIN	62	/* stat, id and flags: no entry is shorter */

struct sx_buf {
	const uint8_t	*b_p;
	size_t		 b_len, b_off;
};

static int
take(struct sx_buf *b, size_t n, const uint8_t **p)
{
	if (n > b->b_len - b->b_off)
		return -1;
	*p = b->b_p + b->b_off;
	b->b_off += n;
	return 0;
}

/* git's varint of index v4 (an offset encoding: no two spellings). */
static int
varint(struct sx_buf *b, uint64_t *v)
{
	const uint8_t	*p;
	uint64_t	 val;

	if (take(b, 1, &p) == -1)
		return -1;
	val = *p & 127;
	while (*p & 128) {
		val += 1;
		if (val == 0 || (val >> 57) != 0)
			return -1;
		if (take(b, 1, &p) == -1)
			return -1;
		val = (val << 7) + (*p & 127);
	}
	*v = val;
	return 0;
}

/* One entry; prev is the path before it (v4 strips from it). */
static int
entry(struct sx_buf *b, uint32_t version, const char *prev,
    struct sx_entry *e)
{
	const uint8_t	*p, *nul;
	size_t		 start = b->b_off, namelen, plen, keep;
	uint64_t	 strip;
	int		 i;

	if (take(b, SX_ENTRY_MIN, &p) == -1)
		return -1;
	e->se_ctime[0] = be32(p);
	e->se_ctime[1] = be32(p + 4);
	e->se_mtime[0] = be32(p + 8);
	e->se_mtime[1] = be32(p + 12);
	e->se_dev = be32(p + 16);
	e->se_ino = be32(p + 20);
	e->se_mode = be32(p + 24);
	e->se_uid = be32(p + 28);
	e->se_gid = be32(p + 32);
	e->se_size = be32(p + 36);
	memcpy(e->se_oid, p + 40, SX_OID_LEN);
	e->se_flags = (uint16_t)(p[60] << 8 | p[61]);
	e->se_flags_ext = 0;
	if (e->se_flags & SX_FLAG_EXTENDED) {
		if (version < 3 || take(b, 2, &p) == -1)
			return -1;
		e->se_flags_ext = (uint16_t)(p[0] << 8 | p[1]);
	}
	if (version == 4) {
		plen = strlen(prev);
		if (varint(b, &strip) == -1 || strip > plen)
			return -1;
		keep = plen - (size_t)strip;
	} else
		keep = 0;
	nul = memchr(b->b_p + b->b_off, '\0', b->b_len - b->b_off);
	if (nul == NULL)
		return -1;
	namelen = (size_t)(nul - (b->b_p + b->b_off));
	if ((e->se_path = malloc(keep + namelen + 1)) == NULL)
		return -1;
	memcpy(e->se_path, prev, keep);
	memcpy(e->se_path + keep, b->b_p + b->b_off, namelen);
	e->se_path[keep + namelen] = '\0';
	b->b_off += namelen + 1;
	if (version == 4)
		return 0;
	/* v2 and v3: the name's field agrees, NULs pad to 8 bytes. */
	if ((e->se_flags & SX_FLAG_NAMEMASK) != (namelen < SX_FLAG_NAMEMASK ?
	    namelen : SX_FLAG_NAMEMASK))
		return -1;
	for (i = (int)((b->b_off - start) % 8 ? 8 - (b->b_off - start) % 8 :
	    0); i > 0; i--)
		if (take(b, 1, &p) == -1 || *p != '\0')
			return -1;
	return 0;
}

/*
 * An EWAH bitmap (git's ewah/): its bits into a byte map of *nbits.
 * A set bit past the map's own size is refused; the work is bounded by
 * the words and the size, whatever the run lengths say.
 */
static int
ewah(struct sx_buf *b, uint8_t **map, size_t *nbits)
{
	const uint8_t	*p, *words;
	uint64_t	 w, lit, pos = 0, run, k, c;
	uint32_t	 size, nwords, i;

	if (take(b, 8, &p) == -1)
		return -1;
	size = be32(p);
	nwords = be32(p + 4);
	if (size > SX_FILE_MAX / SX_ENTRY_MIN ||
	    take(b, (size_t)nwords * 8, &words) == -1 || take(b, 4, &p) == -1)
		return -1;
	if ((*map = calloc((size_t)size / 8 + 1, 1)) == NULL)
		return -1;
	*nbits = size;
	/* pos stops at size + 1: past the map, a set bit is refused. */
	for (i = 0; i < nwords; ) {
		w = be64(words + (size_t)i * 8);
		run = ((w >> 1) & 0xffffffffULL) * 64;
		if (w & 1) {
			if (run > 0 && (pos > size || run > size - pos))
				return -1;
			for (k = 0; k < run; k++, pos++)
				(*map)[pos / 8] |= 1u << (pos % 8);
		} else
			pos = run > (uint64_t)size + 1 - pos ? (uint64_t)size + 1 :
			    pos + run;
		i++;
		for (lit = w >> 33; lit > 0; lit--, i++) {
			if (i >= nwords)
				return -1;
			w = be64(words + (size_t)i * 8);
			if (w != 0 && pos >= size)
				return -1;
			for (c = 0; c < 64 && w != 0; c++, w >>= 1)
				if (w & 1) {
					if (pos + c >= size)
						return -1;
					(*map)[(pos + c) / 8] |= 1u <<
					    ((pos + c) % 8);
				}
			pos = pos + 64 > (uint64_t)size + 1 ? (uint64_t)size + 1 :
			    pos + 64;
		}
	}
	return 0;
}

static int
link_ext(struct sx_index *sx, const uint8_t *p, size_t len)
{
	struct sx_buf	 b = { p, len, 0 };
	const uint8_t	*oid;

	if (sx->sx_link || take(&b, SX_OID_LEN, &oid) == -1)
		return -1;
	memcpy(sx->sx_shared, oid, SX_OID_LEN);
	sx->sx_link = 1;
	if (b.b_off == len)
		return 0;
	if (ewah(&b, &sx->sx_delete, &sx->sx_ndelete) == -1 ||
	    ewah(&b, &sx->sx_replace, &sx->sx_nreplace) == -1)
		return -1;
	return b.b_off == len ? 0 : -1;
}

void
sx_free(struct sx_index *sx)
{
	size_t	 i;

	for (i = 0; i < sx->sx_n; i++)
		free(sx->sx_entries[i].se_path);
	free(sx->sx_entries);
	free(sx->sx_delete);
	free(sx->sx_replace);
	memset(sx, 0, sizeof(*sx));
}

/*
 * An index file's entries and its link extension, if any (the trailing
 * checksum is the caller's).  -1 with *why; sx is then freed.
 */
int
sx_parse(const uint8_t *data, size_t len, struct sx_index *sx,
    const char **why)
{
	struct sx_buf	 b = { data, len, 0 };
	const uint8_t	*p;
	uint32_t	 version, count, extlen;
	const char	*prev = "";

	memset(sx, 0, sizeof(*sx));
	*why = "the index is not one git writes";
	if (len > SX_FILE_MAX || len < SX_HEAD + SX_OID_LEN ||
	    memcmp(data, "DIRC", 4) != 0)
		return -1;
	b.b_len = len - SX_OID_LEN;		/* the checksum */
	b.b_off = SX_HEAD;
	version = be32(data + 4);
	count = be32(data + 8);
	if (version < 2 || version > 4 || count > len / SX_ENTRY_MIN)
		goto bad;
	if (count > 0 && (sx->sx_entries = calloc(count,
	    sizeof(*sx->sx_entries))) == NULL)
		goto bad;
	for (sx->sx_n = 0; sx->sx_n < count; sx->sx_n++) {
		if (entry(&b, version, prev, &sx->sx_entries[sx->sx_n]) == -1) {
			sx->sx_n++;	/* its path, if any, is freed */
			goto bad;
		}
		prev = sx->sx_entries[sx->sx_n].se_path;
	}
	while (b.b_off < b.b_len) {
		if (take(&b, 8, &p) == -1)
			goto bad;
		extlen = be32(p + 4);
		if (memcmp(p, "link", 4) == 0) {
			if (take(&b, extlen, &p) == -1 ||
			    link_ext(sx, p, extlen) == -1)
				goto bad;
		} else if (take(&b, extlen, &p) == -1)
			goto bad;
	}
	*why = NULL;
	return 0;
bad:
	sx_free(sx);
	return -1;
}

static int
bit(const uint8_t *map, size_t nbits, size_t i)
{
	return i < nbits && (map[i / 8] & (1u << (i % 8))) != 0;
}

/* git's order of entries: the path's bytes, then the stage. */
static int
order(const struct sx_entry *a, const struct sx_entry *b)
{
	int	 c = strcmp(a->se_path, b->se_path);

	if (c != 0)
		return c;
	return (int)(a->se_flags & SX_FLAG_STAGE) -
	    (int)(b->se_flags & SX_FLAG_STAGE);
}

static int
put(struct sx_index *out, const struct sx_entry *e, const char *path)
{
	struct sx_entry	*to = &out->sx_entries[out->sx_n];

	*to = *e;
	if ((to->se_path = strdup(path)) == NULL)
		return -1;
	out->sx_n++;
	return 0;
}

/*
 * The index git reads from split (its link) over shared, as git's
 * merge_base_index makes it: replacements in order (nameless entries
 * of split taken by the set bits of the replace map), deletions, then
 * split's other entries, each replacing the same path and stage (a
 * merged entry every stage of its path).  Both lists must be in git's
 * order.  -1 with *why; out is then freed.
 */
int
sx_merge(const struct sx_index *split, const struct sx_index *shared,
    struct sx_index *out, const char **why)
{
	const struct sx_entry	*e, *s;
	struct sx_entry		*base = NULL;
	size_t			 i, r = 0;
	int			 c;

	memset(out, 0, sizeof(*out));
	*why = "the split index does not fit its shared index";
	if (!split->sx_link || shared->sx_link ||
	    split->sx_ndelete > shared->sx_n ||
	    split->sx_nreplace > shared->sx_n)
		return -1;
	if ((out->sx_entries = calloc(shared->sx_n + split->sx_n + 1,
	    sizeof(*out->sx_entries))) == NULL ||
	    (base = calloc(shared->sx_n + 1, sizeof(*base))) == NULL)
		goto bad;
	for (i = 0; i < shared->sx_n; i++) {
		base[i] = shared->sx_entries[i];
		if (bit(split->sx_replace, split->sx_nreplace, i)) {
			if (r >= split->sx_n ||
			    split->sx_entries[r].se_path[0] != '\0' ||
			    bit(split->sx_delete, split->sx_ndelete, i))
				goto bad;
			base[i] = split->sx_entries[r++];
			base[i].se_path = shared->sx_entries[i].se_path;
		}
		/* In order, a replacement's stage included. */
		if (i > 0 && order(&base[i - 1], &base[i]) >= 0)
			goto bad;
	}
	for (i = r; i < split->sx_n; i++)
		if (split->sx_entries[i].se_path[0] == '\0' || (i > r &&
		    order(&split->sx_entries[i - 1], &split->sx_entries[i]) >= 0))
			goto bad;
	/* The base less deletions, and split's own, in one ordered pass. */
	for (i = 0; i < shared->sx_n || r < split->sx_n; ) {
		if (i < shared->sx_n && bit(split->sx_delete,
		    split->sx_ndelete, i)) {
			i++;
			continue;
		}
		e = i < shared->sx_n ? &base[i] : NULL;
		s = r < split->sx_n ? &split->sx_entries[r] : NULL;
		c = e == NULL ? 1 : s == NULL ? -1 : strcmp(e->se_path,
		    s->se_path);
		if (c == 0 && ((s->se_flags & SX_FLAG_STAGE) == 0 ||
		    (e->se_flags & SX_FLAG_STAGE) ==
		    (s->se_flags & SX_FLAG_STAGE))) {
			i++;		/* split's takes its place */
			continue;
		}
		if (c < 0 || (c == 0 && order(e, s) < 0)) {
			if (put(out, e, e->se_path) == -1)
				goto bad;
			i++;
		} else {
			if (put(out, s, s->se_path) == -1)
				goto bad;
			r++;
		}
	}
	free(base);
	*why = NULL;
	return 0;
bad:
	free(base);
	sx_free(out);
	return -1;
}
