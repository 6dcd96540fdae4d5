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
 * worker-git/spaced-git/packidx.c against indexes git writes, and against each
 * way an index can lie about its pack: every one is refused by name.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "packidx.h"

static char	 dir[] = "/tmp/spaced-packidx.XXXXXX";
static uint8_t	*idx, *pack;
static size_t	 idxlen, packlen;

static void
setup(void)
{
	char	 cmd[1024];

	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cd %s && git init -q r && cd r && "
	    "for i in $(seq 1 60); do seq $i 300 > f$((i %% 7)) && "
	    "git add . && git -c user.name=t -c user.email=t@t.invalid "
	    "commit -qm $i || exit 1; done && git repack -adq", dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cat %s/r/.git/objects/pack/*.idx", dir);
	idx = fx_slurp(cmd, &idxlen);
	snprintf(cmd, sizeof(cmd), "cat %s/r/.git/objects/pack/*.pack", dir);
	pack = fx_slurp(cmd, &packlen);
}

static void
teardown(void)
{
	char	 cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(idx);
	free(pack);
}

TestSuite(packidx, .init = setup, .fini = teardown);

static int
parse(struct packidx *pi, const uint8_t *i, size_t ilen, const uint8_t *p,
    const char **why)
{
	return packidx_parse(pi, i, ilen, p, p + packlen - PACK_TRAILER,
	    packlen, why);
}

/* Every object git lists, found at git's offset with git's CRC. */
Test(packidx, agrees_with_git)
{
	struct packidx	 pi;
	const char	*why;
	char		 cmd[256], hex[41];
	unsigned long long off, end;
	unsigned int	 crc, n = 0;
	uint8_t		 raw[PACK_OID_LEN];
	uint32_t	 pos, at;
	uint64_t	 o, e;
	FILE		*fp;
	int		 i;

	cr_assert_eq(parse(&pi, idx, idxlen, pack, &why), 0, "%s", why);
	snprintf(cmd, sizeof(cmd), "cat %s/r/.git/objects/pack/*.idx | "
	    "git show-index", dir);
	cr_assert_not_null(fp = popen(cmd, "r"));
	while (fscanf(fp, "%llu %40s (%x)", &off, hex, &crc) == 3) {
		for (i = 0; i < PACK_OID_LEN; i++)
			sscanf(hex + 2 * i, "%2hhx", &raw[i]);
		cr_assert_eq(packidx_find(&pi, raw, &pos), 0, "%s", hex);
		cr_assert_eq(memcmp(packidx_oid(&pi, pos), raw, sizeof(raw)),
		    0);
		cr_assert_eq(packidx_crc(&pi, pos), crc);
		packidx_span(&pi, pos, &o, &e);
		cr_assert_eq(o, off);
		cr_assert_gt(e, o);
		cr_assert_leq(e, packlen - PACK_TRAILER);
		cr_assert_eq(packidx_at(&pi, off, &at), 0);
		cr_assert_eq(at, pos);
		cr_assert_neq(packidx_at(&pi, off + 1, &at), 0);
		n++;
	}
	pclose(fp);
	cr_assert_eq(n, pi.pi_count);
	cr_assert_gt(n, 100);
	memset(raw, 0xee, sizeof(raw));
	cr_assert_neq(packidx_find(&pi, raw, &pos), 0);
	/* The last entry ends at the trailer; all spans tile the data. */
	end = 12;
	for (pos = 0; pos < pi.pi_count; pos++) {
		packidx_span(&pi, pi.pi_byoffset[pos].pa_pos, &o, &e);
		cr_assert_eq(o, end);
		end = e;
	}
	cr_assert_eq(end, packlen - PACK_TRAILER);
	packidx_free(&pi);
}

static void
be32_put(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t
be32_get(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

#define FANOUT(b)	(8 + (b) * 4)
#define OIDS		(8 + 1024)

/* A copy of the index changed by one lie; it must be refused. */
static void
refused(const char *what, void (*lie)(uint8_t *, size_t *, uint8_t *),
    const char *expect)
{
	struct packidx	 pi;
	const char	*why = NULL;
	uint8_t		*i, *p;
	size_t		 len = idxlen;

	/* Room for a lie that grows the index. */
	cr_assert_not_null(i = malloc(idxlen + 8));
	cr_assert_not_null(p = malloc(packlen));
	memcpy(i, idx, idxlen);
	memcpy(p, pack, packlen);
	lie(i, &len, p);
	cr_assert_eq(parse(&pi, i, len, p, &why), -1, "%s: accepted", what);
	cr_assert_not_null(why);
	cr_assert_not_null(strstr(why, expect), "%s: %s", what, why);
	/* And the control: the same copy without the lie passes. */
	cr_assert_eq(parse(&pi, idx, idxlen, pack, &why), 0, "%s", why);
	packidx_free(&pi);
	free(i);
	free(p);
}

static uint32_t
count(void)
{
	return be32_get(idx + FANOUT(255));
}

static size_t
offsets(void)
{
	return OIDS + (size_t)count() * (PACK_OID_LEN + 4);
}

static void lie_short(uint8_t *i, size_t *len, uint8_t *p) { (*len)--; }
static void lie_magic(uint8_t *i, size_t *len, uint8_t *p) { i[1] = 'x'; }
static void lie_version(uint8_t *i, size_t *len, uint8_t *p) { i[7] = 1; }
static void lie_tiny(uint8_t *i, size_t *len, uint8_t *p) { *len = 100; }
static void lie_packmagic(uint8_t *i, size_t *len, uint8_t *p) { p[0] = 'X'; }
static void
lie_fanout(uint8_t *i, size_t *len, uint8_t *p)
{
	be32_put(i + FANOUT(100), be32_get(i + FANOUT(101)) + 1);
}
static void
lie_count(uint8_t *i, size_t *len, uint8_t *p)
{
	be32_put(p + 8, be32_get(p + 8) + 1);
}
static void
lie_trailer(uint8_t *i, size_t *len, uint8_t *p)
{
	i[*len - 2 * PACK_TRAILER] ^= 1;
}
static void
lie_order(uint8_t *i, size_t *len, uint8_t *p)
{
	uint8_t	 tmp[PACK_OID_LEN], *a = i + OIDS;
	uint32_t k;

	/* Two of one bucket, so the fan-out still holds: only the order lies. */
	for (k = 0; k + 1 < count() && a[0] != a[PACK_OID_LEN]; k++)
		a += PACK_OID_LEN;
	cr_assert_lt(k + 1, count(), "no two ids share a first byte");
	memcpy(tmp, a, PACK_OID_LEN);
	memcpy(a, a + PACK_OID_LEN, PACK_OID_LEN);
	memcpy(a + PACK_OID_LEN, tmp, PACK_OID_LEN);
}
static void
lie_bucket(uint8_t *i, size_t *len, uint8_t *p)
{
	/* The first id says it starts with a byte its bucket does not hold. */
	i[OIDS] = 0xff;
}
static void
lie_past(uint8_t *i, size_t *len, uint8_t *p)
{
	be32_put(i + offsets(), packlen - PACK_TRAILER);
}
static void
lie_header(uint8_t *i, size_t *len, uint8_t *p)
{
	be32_put(i + offsets(), 11);
}
static void
lie_twice(uint8_t *i, size_t *len, uint8_t *p)
{
	memcpy(i + offsets() + 4, i + offsets(), 4);
}
static void
lie_large(uint8_t *i, size_t *len, uint8_t *p)
{
	be32_put(i + offsets(), 0x80000000U);
}
static void
lie_large_far(uint8_t *i, size_t *len, uint8_t *p)
{
	static const uint8_t far[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };

	/* One large offset added (the index grows by 8), past the pack. */
	memmove(i + offsets() + count() * 4 + 8, i + offsets() + count() * 4,
	    2 * PACK_TRAILER);
	memcpy(i + offsets() + count() * 4, far, 8);
	*len += 8;
	be32_put(i + offsets(), 0x80000000U);
}

Test(packidx, refuses_each_lie)
{
	refused("short", lie_short, "does not match its count");
	refused("tiny", lie_tiny, "version 2");
	refused("magic", lie_magic, "version 2");
	refused("version", lie_version, "version 2");
	refused("pack magic", lie_packmagic, "version 2 or 3");
	refused("fan-out", lie_fanout, "goes down");
	refused("count", lie_count, "count is not");
	refused("trailer", lie_trailer, "another pack");
	refused("order", lie_order, "out of order");
	refused("bucket", lie_bucket, "out of order");
	refused("past the pack", lie_past, "outside the pack");
	refused("in the header", lie_header, "outside the pack");
	refused("twice", lie_twice, "one offset");
	refused("large", lie_large, "large offsets");
	refused("large and far", lie_large_far, "outside the pack");
}

Test(packidx, headers_round_trip)
{
	static const uint64_t sizes[] = { 0, 1, 15, 16, 127, 2048,
	    1ULL << 35, (1ULL << 60) - 1 };
	static const uint64_t ofss[] = { 1, 127, 128, 16511, 16512,
	    1ULL << 40 };
	uint8_t		 buf[2 * PACKENT_MAX + PACK_OID_LEN];
	struct packent	 pe;
	size_t		 i, n, m;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		n = packent_header(buf, PACK_BLOB, sizes[i]);
		cr_assert_leq(n, PACKENT_MAX);
		cr_assert_eq(packent_parse(buf, n, &pe), 0);
		cr_assert_eq(pe.pe_type, PACK_BLOB);
		cr_assert_eq(pe.pe_size, sizes[i]);
		cr_assert_eq(pe.pe_len, n);
		/* One byte short is refused, never read past. */
		if (n > 1)
			cr_assert_eq(packent_parse(buf, n - 1, &pe), -1);
	}
	for (i = 0; i < sizeof(ofss) / sizeof(ofss[0]); i++) {
		n = packent_header(buf, PACK_OFS_DELTA, 300);
		m = packent_ofs(buf + n, ofss[i]);
		cr_assert_leq(m, PACKENT_MAX);
		cr_assert_eq(packent_parse(buf, n + m, &pe), 0);
		cr_assert_eq(pe.pe_ofs, ofss[i]);
		cr_assert_eq(pe.pe_len, n + m);
		cr_assert_eq(packent_parse(buf, n + m - 1, &pe), -1);
	}
	n = packent_header(buf, PACK_REF_DELTA, 5);
	memset(buf + n, 0xab, PACK_OID_LEN);
	cr_assert_eq(packent_parse(buf, n + PACK_OID_LEN, &pe), 0);
	cr_assert_eq(pe.pe_base, buf + n);
	cr_assert_eq(packent_parse(buf, n + PACK_OID_LEN - 1, &pe), -1);
	/* Types 0 and 5 are not git's; a size past 60 bits is refused. */
	buf[0] = 0x50;
	cr_assert_eq(packent_parse(buf, 1, &pe), -1);
	buf[0] = 0x00;
	cr_assert_eq(packent_parse(buf, 1, &pe), -1);
	memset(buf, 0xff, 12);
	buf[12] = 0;
	cr_assert_eq(packent_parse(buf, 13, &pe), -1);
}
