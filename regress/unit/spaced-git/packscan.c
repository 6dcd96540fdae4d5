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
 * worker-git/spaced-git/packscan.c on packs git writes (whole, a byte
 * at a time, deltas and chains: the controls) and on packs that lie:
 * cut short, a byte too many, a zlib bomb (stopped at its first 64 KiB),
 * a size over the cap, a million objects, a delta on an id, a delta on
 * no object, a chain over the cap.
 */

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fixture.h"
#include "packscan.h"

static char	 dir[] = "/tmp/spaced-packscan.XXXXXX";
static uint8_t	*gitpack;
static size_t	 gitpacklen;
static struct packscan_caps caps;

/* A repository of 60 revisions of related files: deltas, chains. */
static void
setup(void)
{
	char	 cmd[1024];

	packscan_caps_default(&caps);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cd %s && git init -q r && cd r && "
	    "for i in $(seq 1 60); do seq $i 400 > f && seq 1 $i > g && "
	    "git add . && git -c user.name=t -c user.email=t@t.invalid "
	    "commit -qm c$i; done && git rev-parse HEAD | "
	    "git pack-objects -q --revs --stdout --delta-base-offset "
	    "--depth=50", dir);
	gitpack = fx_slurp(cmd, &gitpacklen);
	cr_assert_gt(gitpacklen, 32);
}

static void
teardown(void)
{
	char	 cmd[128];

	free(gitpack);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(packscan, .init = setup, .fini = teardown);

static int
scan(const uint8_t *p, size_t len, size_t chunk, const struct packscan_caps *c,
    struct packscan *ps)
{
	size_t	 i, n;
	int	 rc = 0;

	packscan_init(ps, c);
	for (i = 0; i < len && rc == 0; i += n) {
		n = len - i < chunk ? len - i : chunk;
		rc = packscan_feed(ps, p + i, n);
	}
	if (rc == 0)
		rc = packscan_finish(ps);
	return rc;
}

/* A hand-made pack, for the lies git would never write. */
struct craft {
	uint8_t	 buf[1 << 20];
	size_t	 len;
};

static void
craft_begin(struct craft *c, uint32_t count)
{
	memcpy(c->buf, "PACK\0\0\0\2", 8);
	c->buf[8] = count >> 24;
	c->buf[9] = count >> 16;
	c->buf[10] = count >> 8;
	c->buf[11] = count;
	c->len = 12;
}

static void
craft_head(struct craft *c, int type, uint64_t size)
{
	uint8_t	 b = (type << 4) | (size & 15);

	size >>= 4;
	while (size > 0) {
		c->buf[c->len++] = b | 0x80;
		b = size & 0x7f;
		size >>= 7;
	}
	c->buf[c->len++] = b;
}

static void
craft_zlib(struct craft *c, const void *data, size_t len)
{
	uLongf	 out = sizeof(c->buf) - c->len;

	cr_assert_eq(compress2(c->buf + c->len, &out, data, len, 9), Z_OK);
	c->len += out;
}

static void
craft_end(struct craft *c)
{
	memset(c->buf + c->len, 0, 20);
	c->len += 20;
}

Test(packscan, git_packs_pass)
{
	struct packscan	 ps;
	size_t		 chunks[] = { 1 << 20, 1, 7, 4096 };
	size_t		 i;
	uint32_t	 depth = 0;

	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		cr_expect_eq(scan(gitpack, gitpacklen, chunks[i], &caps, &ps),
		    0, "chunk %zu: %s", chunks[i], ps.ps_why);
		packscan_free(&ps);
	}
	cr_assert_eq(scan(gitpack, gitpacklen, 1 << 20, &caps, &ps), 0);
	for (i = 0; i < ps.ps_nobjs; i++)
		if (ps.ps_objs[i].po_depth > depth)
			depth = ps.ps_objs[i].po_depth;
	packscan_free(&ps);
	cr_expect_geq(depth, 2, "control: the pack has delta chains");
}

Test(packscan, cut_short_and_too_long)
{
	struct packscan	 ps;
	uint8_t		*more;
	size_t		 n;

	for (n = 0; n < gitpacklen; n += 1 + n / 16) {
		cr_expect_eq(scan(gitpack, n, 4096, &caps, &ps), -1, "%zu", n);
		packscan_free(&ps);
	}
	cr_assert_not_null(more = malloc(gitpacklen + 1));
	memcpy(more, gitpack, gitpacklen);
	more[gitpacklen] = 0;
	cr_expect_eq(scan(more, gitpacklen + 1, 4096, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "bytes after the pack's end");
	packscan_free(&ps);
	free(more);
}

Test(packscan, zlib_bomb_stops_early)
{
	static struct craft	 c;
	struct packscan		 ps;
	char			*zeros;
	size_t			 big = 8 << 20;

	cr_assert_not_null(zeros = calloc(1, big));
	craft_begin(&c, 1);
	craft_head(&c, PACKSCAN_OBJ_BLOB, 10);	/* says 10, holds 8 MiB */
	craft_zlib(&c, zeros, big);
	craft_end(&c);
	free(zeros);
	cr_assert_lt(c.len, 64 * 1024, "control: the bomb is small");
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "an object longer than it says");
	cr_expect_leq(ps.ps_out, 10, "nothing past the declared size");
	packscan_free(&ps);
}

Test(packscan, sizes_over_caps_refused_before_inflating)
{
	static struct craft	 c;
	struct packscan		 ps;
	struct packscan_caps	 small = caps;

	craft_begin(&c, 1);
	craft_head(&c, PACKSCAN_OBJ_BLOB, PACKSCAN_OBJECT_MAX + 1);
	craft_end(&c);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "an object over the size cap");
	cr_expect_eq(ps.ps_z_live, 0, "no inflate began");
	packscan_free(&ps);
	small.ps_inflated_max = 100;
	craft_begin(&c, 2);
	craft_head(&c, PACKSCAN_OBJ_BLOB, 60);
	craft_zlib(&c, gitpack, 60);
	craft_head(&c, PACKSCAN_OBJ_BLOB, 60);
	craft_zlib(&c, gitpack, 60);
	craft_end(&c);
	cr_expect_eq(scan(c.buf, c.len, c.len, &small, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "more inflated bytes than the cap");
	packscan_free(&ps);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), 0,
	    "control: the same pack under the default caps: %s", ps.ps_why);
	packscan_free(&ps);
	small = caps;
	small.ps_pack_max = gitpacklen - 1;
	cr_expect_eq(scan(gitpack, gitpacklen, 4096, &small, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "a pack over the size cap");
	packscan_free(&ps);
}

Test(packscan, a_million_objects_refused_at_the_header)
{
	static struct craft	 c;
	struct packscan		 ps;

	craft_begin(&c, 1000000);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "more objects than the cap");
	packscan_free(&ps);
}

Test(packscan, deltas_that_lie)
{
	static struct craft	 c;
	struct packscan		 ps;
	struct packscan_caps	 shallow = caps;
	uint8_t			 delta[] = { 3, 3, 0x90, 3 }; /* copy 3 */

	craft_begin(&c, 1);
	craft_head(&c, PACKSCAN_OBJ_REF_DELTA, 4);
	memset(c.buf + c.len, 0xab, 20);
	c.len += 20;
	craft_zlib(&c, delta, sizeof(delta));
	craft_end(&c);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "a delta on a base named by id");
	packscan_free(&ps);

	/* An offset into the middle of the blob before it. */
	craft_begin(&c, 2);
	craft_head(&c, PACKSCAN_OBJ_BLOB, 3);
	craft_zlib(&c, "abc", 3);
	{
		size_t	 at = c.len;

		craft_head(&c, PACKSCAN_OBJ_OFS_DELTA, sizeof(delta));
		c.buf[c.len++] = (uint8_t)(at - 12 - 2);
	}
	craft_zlib(&c, delta, sizeof(delta));
	craft_end(&c);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), -1);
	cr_expect_str_eq(ps.ps_why,
	    "a delta whose base is no object before it");
	packscan_free(&ps);

	/* The same with the right offset: the control. */
	craft_begin(&c, 2);
	craft_head(&c, PACKSCAN_OBJ_BLOB, 3);
	craft_zlib(&c, "abc", 3);
	{
		size_t	 at = c.len;

		craft_head(&c, PACKSCAN_OBJ_OFS_DELTA, sizeof(delta));
		c.buf[c.len++] = (uint8_t)(at - 12);
	}
	craft_zlib(&c, delta, sizeof(delta));
	craft_end(&c);
	cr_expect_eq(scan(c.buf, c.len, c.len, &caps, &ps), 0, "%s",
	    ps.ps_why);
	packscan_free(&ps);

	shallow.ps_chain_max = 1;
	cr_expect_eq(scan(gitpack, gitpacklen, 4096, &shallow, &ps), -1);
	cr_expect_str_eq(ps.ps_why, "a delta chain over the cap");
	packscan_free(&ps);
}
