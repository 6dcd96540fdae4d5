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
 * The quarantine's record of the store its last check left, for an
 * apply that follows a review (docs/privsep.md, "The quarantine's
 * store between review and apply"): base, start, tip and the space's
 * pack, one line beside the packs, replaced whole or not at all.
 */

#include <sys/types.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "quarantine.h"

static int
hex_field(const char *p, git_oid *id)
{
	char	 hex[GIT_OID_HEXSZ + 1];
	size_t	 i;

	for (i = 0; i < GIT_OID_HEXSZ; i++)
		if (!((p[i] >= '0' && p[i] <= '9') ||
		    (p[i] >= 'a' && p[i] <= 'f')))
			return -1;
	memcpy(hex, p, GIT_OID_HEXSZ);
	hex[GIT_OID_HEXSZ] = '\0';
	return git_oid_fromstr(id, hex) == 0 ? 0 : -1;
}

/*
 * len bytes of a record: exactly four ids of 40 lower-case hex digits,
 * three spaces between and a newline after, or -1.
 */
int
qr_kept_parse(const char *buf, size_t len, struct qr_kept *k)
{
	git_oid	 pack;
	size_t	 i, at;

	if (len != QR_KEPT_LEN || buf[QR_KEPT_LEN - 1] != '\n')
		return -1;
	for (i = 0; i < 4; i++) {
		at = i * (GIT_OID_HEXSZ + 1);
		if (hex_field(buf + at, i == 0 ? &k->qk_base : i == 1 ?
		    &k->qk_start : i == 2 ? &k->qk_tip : &pack) == -1 ||
		    buf[at + GIT_OID_HEXSZ] != (i < 3 ? ' ' : '\n'))
			return -1;
	}
	memcpy(k->qk_pack, buf + 3 * (GIT_OID_HEXSZ + 1), GIT_OID_HEXSZ);
	k->qk_pack[GIT_OID_HEXSZ] = '\0';
	return 0;
}

void
qr_kept_write(const char *path, const git_oid *base, const git_oid *start,
    const git_oid *tip, const char *pack)
{
	char	 b[GIT_OID_HEXSZ + 1], s[GIT_OID_HEXSZ + 1];
	char	 t[GIT_OID_HEXSZ + 1], line[QR_KEPT_LEN + 1], tmp[256];
	int	 fd, len, wrote, closed;

	git_oid_tostr(b, sizeof(b), base);
	git_oid_tostr(s, sizeof(s), start);
	git_oid_tostr(t, sizeof(t), tip);
	len = snprintf(line, sizeof(line), "%s %s %s %s\n", b, s, t, pack);
	if (len != QR_KEPT_LEN || (size_t)snprintf(tmp, sizeof(tmp), "%s.new",
	    path) >= sizeof(tmp))
		return;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		return;
	/* close whatever the write did: the fd never leaks. */
	wrote = write(fd, line, len) == len;
	closed = close(fd) == 0;
	if (!wrote || !closed || rename(tmp, path) == -1)
		(void)unlink(tmp);
}

/*
 * The record at path, when it holds this base, start and tip (the
 * ones spaced kept of the review): NULL and *k, else why not.
 */
const char *
qr_kept_take(const char *path, const git_oid *base, const git_oid *start,
    const git_oid *tip, struct qr_kept *k)
{
	char	 line[QR_KEPT_LEN + 1];
	ssize_t	 n;
	int	 fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return "no reviewed store is kept";
	n = read(fd, line, sizeof(line));
	close(fd);
	if (n < 0 || qr_kept_parse(line, n, k) == -1)
		return "the kept store's record is not whole";
	if (!git_oid_equal(&k->qk_base, base) ||
	    !git_oid_equal(&k->qk_start, start))
		return "the kept store is of another base or start";
	if (!git_oid_equal(&k->qk_tip, tip))
		return "the kept store is not the tip the review named";
	return NULL;
}
