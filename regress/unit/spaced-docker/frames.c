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
 * The exec stream's frame reader and the runtime volume's tar pieces:
 * frames cut anywhere, a stream that ends inside a frame, a head that is
 * not one; an archive of our relay, of another file, cut short.
 */

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "worker-docker/docker_frames.h"
#include "worker-docker/docker_runtime.h"

/* Feeds buf in pieces of step bytes; collects the payload by stream. */
static int
feed_all(struct frame_reader *fr, const uint8_t *buf, size_t len,
    size_t step, char *out, size_t *olen, char *types)
{
	const uint8_t	*p;
	size_t		 at = 0, piece, used, n;
	uint8_t		 type;
	int		 rv;

	*olen = 0;
	while (at < len) {
		piece = len - at < step ? len - at : step;
		while (piece > 0) {
			rv = frame_feed(fr, buf + at, piece, &used, &type, &p,
			    &n);
			if (rv == -1)
				return -1;
			if (rv == 1) {
				memcpy(out + *olen, p, n);
				memset(types + *olen, type == FRAME_STDERR ?
				    'e' : 'o', n);
				*olen += n;
			}
			at += used;
			piece -= used;
			if (rv == 0)
				break;
		}
	}
	return 0;
}

static const uint8_t two_frames[] = {
	1, 0, 0, 0, 0, 0, 0, 3, 'o', 'u', 't',
	2, 0, 0, 0, 0, 0, 0, 2, 'e', 'r',
	0, 0, 0, 0, 0, 0, 0, 1, 'i',	/* stdin's echo goes with stdout */
};

Test(frames, cut_anywhere_same_payload)
{
	struct frame_reader	 fr;
	char			 out[64], types[64];
	size_t			 step, olen;

	for (step = 1; step <= sizeof(two_frames); step++) {
		frame_reader_init(&fr);
		cr_assert_eq(feed_all(&fr, two_frames, sizeof(two_frames), step,
		    out, &olen, types), 0);
		cr_assert_eq(olen, 6, "step %zu", step);
		cr_assert_eq(memcmp(out, "outeri", 6), 0);
		cr_assert_eq(memcmp(types, "oooeeo", 6), 0);
		cr_assert(frame_at_boundary(&fr));
	}
}

Test(frames, truncated_inside_a_frame)
{
	struct frame_reader	 fr;
	char			 out[64], types[64];
	size_t			 olen;

	frame_reader_init(&fr);
	/* a head promising 3 bytes and only 2 of them */
	cr_assert_eq(feed_all(&fr, two_frames, 10, 4, out, &olen, types), 0);
	cr_assert_eq(olen, 2);
	cr_assert_not(frame_at_boundary(&fr));
	/* half a head */
	frame_reader_init(&fr);
	cr_assert_eq(feed_all(&fr, two_frames, 5, 5, out, &olen, types), 0);
	cr_assert_not(frame_at_boundary(&fr));
}

Test(frames, bad_heads_refused)
{
	static const uint8_t	 bad_type[] = { 3, 0, 0, 0, 0, 0, 0, 1, 'x' };
	static const uint8_t	 bad_pad[] = { 1, 0, 1, 0, 0, 0, 0, 1, 'x' };
	struct frame_reader	 fr;
	char			 out[64], types[64];
	size_t			 olen;

	frame_reader_init(&fr);
	cr_assert_eq(feed_all(&fr, bad_type, sizeof(bad_type), 3, out, &olen,
	    types), -1);
	cr_assert_not_null(fr.fr_errstr);
	frame_reader_init(&fr);
	cr_assert_eq(feed_all(&fr, bad_pad, sizeof(bad_pad), 9, out, &olen,
	    types), -1);
}

Test(frames, a_big_length_is_only_a_promise)
{
	static const uint8_t	 big[] = { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	    'a', 'b' };
	struct frame_reader	 fr;
	char			 out[64], types[64];
	size_t			 olen;

	/* nothing is allocated for it; the bytes pass as they come */
	frame_reader_init(&fr);
	cr_assert_eq(feed_all(&fr, big, sizeof(big), 4, out, &olen, types), 0);
	cr_assert_eq(olen, 2);
	cr_assert_eq(fr.fr_left, 0xffffffffU - 2);
}

/* The runtime fill: the relay and the CA bundle in one archive. */
Test(tar, two_files_in_one_archive)
{
	static const uint8_t	 relay[] = "not really a relay\n";
	static const uint8_t	 ca[600] = "-----BEGIN CERTIFICATE-----";
	const struct tar_file	 f[2] = {
		{ "spaced-relay", 0755, relay, sizeof(relay), 0, 0 },
		{ "ca-certificates.crt", 0444, ca, sizeof(ca), 0, 0 },
	};
	uint8_t			*t;
	size_t			 len;

	t = tar_files(f, 2, &len);
	cr_assert_not_null(t);
	/* header, 1 block; header, 2 blocks; the two zero blocks */
	cr_assert_eq(len, 512 * (1 + 1 + 1 + 2 + 2));
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relay", relay,
	    sizeof(relay)), 1);
	/* the second one, as GET .../archive?path=<its path> answers it */
	cr_assert_eq(tar_first_file_equals(t + 1024, len - 1024,
	    "ca-certificates.crt", ca, sizeof(ca)), 1);
	cr_assert_eq(memcmp(t + 1024 + 100, "0000444", 7), 0);
	cr_assert_eq(memcmp(t + len - 1024, (uint8_t[1024]){ 0 }, 1024), 0);
	free(t);
	/* a name past ustar's 100 bytes is refused, not cut */
	cr_assert_null(tar_files((const struct tar_file[]){ { "x"
	    "123456789012345678901234567890123456789012345678901234567890"
	    "123456789012345678901234567890123456789", 0444, ca, 1, 0, 0 } },
	    1, &len));
}

/* A space's folders: its uid in the header, base-256 past 7 octal digits. */
Test(tar, a_folder_owned_by_a_space_uid)
{
	const struct tar_file	 f[2] = {
		{ "space", 0700, NULL, 0, 2000000123, 1 },
		{ "small", 0755, NULL, 0, 1000, 1 },
	};
	static const uint8_t	 big[8] = { 0x80, 0, 0, 0, 0x77, 0x35,
				    0x94, 0x7b };
	uint8_t			*t;
	size_t			 len;

	t = tar_files(f, 2, &len);
	cr_assert_not_null(t);
	cr_assert_eq(len, 512 * 4);
	cr_assert_eq(t[156], '5');
	cr_assert_eq(memcmp(t + 108, big, 8), 0);
	cr_assert_eq(memcmp(t + 116, big, 8), 0);
	cr_assert_eq(memcmp(t + 124, "00000000000", 12), 0);
	cr_assert_eq(memcmp(t + 512 + 108, "0001750", 8), 0);
	cr_assert_eq(t[512 + 156], '5');
	free(t);
}

Test(tar, our_file_found_and_compared)
{
	static const uint8_t	 relay[] = "not really a relay\n";
	uint8_t			*t;
	size_t			 len;

	t = tar_one_file("spaced-relay", 0755, relay, sizeof(relay), &len);
	cr_assert_not_null(t);
	cr_assert_eq(len % 512, 0);
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relay", relay,
	    sizeof(relay)), 1);
	/* other bytes, another name, another size */
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relay",
	    (const uint8_t *)"not really a relaX\n", sizeof(relay)), 0);
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relax", relay,
	    sizeof(relay)), 0);
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relay", relay,
	    sizeof(relay) - 1), 0);
	/* cut short: the content runs past the end */
	cr_assert_eq(tar_first_file_equals(t, 512 + 10, "spaced-relay",
	    relay, sizeof(relay)), -1);
	/* a broken size field */
	t[124] = 'x';
	cr_assert_eq(tar_first_file_equals(t, len, "spaced-relay", relay,
	    sizeof(relay)), -1);
	free(t);
}

