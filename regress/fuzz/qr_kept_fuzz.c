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
 * The quarantine's record of the store a review left
 * (worker-git/spaced-git/qr_kept.c), on any bytes the file could hold:
 * only a record of exactly four ids passes (its size is the cap: the
 * reader takes one byte more), and what passes reads back as the same
 * bytes; through the file, a record is taken only for its own tip.
 * fuzz-link: worker-git/spaced-git/qr_kept.c
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker-git/spaced-git/quarantine.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	 path[64];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct qr_kept	 k, k2;
	char		 line[QR_KEPT_LEN + 1], b[GIT_OID_HEXSZ + 1];
	char		 s[GIT_OID_HEXSZ + 1], t[GIT_OID_HEXSZ + 1];
	git_oid		 other;

	if (qr_kept_parse((const char *)data, size, &k) == -1)
		return 0;
	if (size != QR_KEPT_LEN)
		abort();
	git_oid_tostr(b, sizeof(b), &k.qk_base);
	git_oid_tostr(s, sizeof(s), &k.qk_start);
	git_oid_tostr(t, sizeof(t), &k.qk_tip);
	snprintf(line, sizeof(line), "%s %s %s %s\n", b, s, t, k.qk_pack);
	if (memcmp(line, data, size) != 0)
		abort();
	/* Written and taken back: its own tip only. */
	if (path[0] == '\0')
		snprintf(path, sizeof(path), "/tmp/qr_kept_fuzz.%d", getpid());
	qr_kept_write(path, &k.qk_base, &k.qk_start, &k.qk_tip, k.qk_pack);
	if (qr_kept_take(path, &k.qk_base, &k.qk_start, &k.qk_tip, &k2) !=
	    NULL || !git_oid_equal(&k2.qk_tip, &k.qk_tip) ||
	    strcmp(k2.qk_pack, k.qk_pack) != 0)
		abort();
	other = k.qk_tip;
	other.id[0] ^= 1;
	if (qr_kept_take(path, &k.qk_base, &k.qk_start, &other, &k2) == NULL)
		abort();
	unlink(path);
	return 0;
}
