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
 * What a repository's spaced-git answers, as spaced checks it before it
 * forwards a record or puts a snapshot's fields into a script's argv in
 * a space (supervisor/spaced/git_parse.c).  A spaced-git that read a hostile
 * repository may send any bytes; what passes must keep each promise.
 * The quarantine's review records come packed (common/proto/review_pack.c).
 * fuzz-link: supervisor/spaced/git_parse.c common/proto/space_parse.c common/proto/labels.c common/lib/log.c common/proto/review_pack.c
 */

#include <stdint.h>
#include <string.h>

#include "git_proto.h"
#include "place_proto.h"
#include "review_pack.h"
#include "supervisor/spaced/git_parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Printable, no '-' first: nothing the script's git takes as an option. */
static void
plain_or_trap(const char *s)
{
	if (s[0] == '-')
		__builtin_trap();
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			__builtin_trap();
}

/* No component that leaves the folder it is joined to. */
static void
inside_or_trap(const char *s)
{
	if (s[0] == '/' || strcmp(s, "..") == 0 || strncmp(s, "../", 3) == 0 ||
	    strstr(s, "/../") != NULL || strstr(s, "//") != NULL ||
	    (strlen(s) >= 3 && strcmp(s + strlen(s) - 3, "/..") == 0))
		__builtin_trap();
}

static void
fill(void *dst, size_t dstlen, const uint8_t *data, size_t size)
{
	memset(dst, 0, dstlen);
	memcpy(dst, data, size < dstlen ? size : dstlen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct git_snap	 gs;
	static struct git_file	 gf;
	static struct git_limit	 gl;
	static struct space_done sd;
	static struct git_review_rec rr;
	static char		 dir[GIT_DIR_MAX];
	static uint8_t		 packed[sizeof(struct git_review_rec)];
	size_t			 off, n;
	const char		*p;

	fill(&gs, sizeof(gs), data, size);
	if (git_snap_valid(&gs)) {
		if (strlen(gs.gs_base) != 40 || strlen(gs.gs_start) != 40 ||
		    strlen(gs.gs_staged) != 40 || strchr(gs.gs_name, '/') ||
		    gs.gs_name[0] == '.' || strchr(gs.gs_branch, ' '))
			__builtin_trap();
		plain_or_trap(gs.gs_branch);
		plain_or_trap(gs.gs_user_name);
		plain_or_trap(gs.gs_user_email);
		plain_or_trap(gs.gs_project);
		inside_or_trap(gs.gs_project);
	}
	fill(&gf, sizeof(gf), data, size);
	if (git_file_valid(&gf) && (memchr(gf.gf_path, '\0',
	    sizeof(gf.gf_path)) == NULL || gf.gf_path[0] == '/'))
		__builtin_trap();
	fill(&gl, sizeof(gl), data, size);
	if (git_limit_valid(&gl) && memchr(gl.gl_path, '\0',
	    sizeof(gl.gl_path)) == NULL)
		__builtin_trap();
	fill(&sd, sizeof(sd), data, size);
	if (git_done_valid(&sd) && (memchr(sd.sd_code, '\0',
	    sizeof(sd.sd_code)) == NULL || memchr(sd.sd_message, '\0',
	    sizeof(sd.sd_message)) == NULL))
		__builtin_trap();
	/* A review's record: ended, no control byte but a patch's newline. */
	fill(&rr, sizeof(rr), data, size);
	if (review_rec_valid(&rr)) {
		if (memchr(rr.rr_a, '\0', sizeof(rr.rr_a)) == NULL ||
		    memchr(rr.rr_b, '\0', sizeof(rr.rr_b)) == NULL ||
		    memchr(rr.rr_commit, '\0', sizeof(rr.rr_commit)) == NULL)
			__builtin_trap();
		for (p = rr.rr_a; *p != '\0'; p++)
			if (((unsigned char)*p < 0x20 && !(*p == '\n' &&
			    rr.rr_kind == REVIEW_PATCH)) || *p == 0x7f)
				__builtin_trap();
		plain_or_trap(rr.rr_b[0] == '-' ? "" : rr.rr_b);
	}
	/*
	 * The quarantine's records, packed: each taken ends its strings
	 * inside their fields and packs back to the same bytes.
	 */
	for (off = 0; off < size; off += n) {
		if ((n = review_rec_unpack(data + off, size - off, &rr)) == 0)
			break;
		if (n > size - off || memchr(rr.rr_a, '\0', sizeof(rr.rr_a)) ==
		    NULL || memchr(rr.rr_b, '\0', sizeof(rr.rr_b)) == NULL ||
		    review_rec_pack(&rr, packed, sizeof(packed)) != n ||
		    memcmp(packed, data + off, n) != 0)
			__builtin_trap();
	}
	/* The path as a client sends it. */
	memset(dir, 0, sizeof(dir));
	memcpy(dir, data, size < sizeof(dir) - 1 ? size : sizeof(dir) - 1);
	if (git_dir_valid(dir, sizeof(dir))) {
		if (dir[0] != '/')
			__builtin_trap();
		inside_or_trap(dir + 1);
		if (strstr(dir, "/./") != NULL)
			__builtin_trap();
	}
	return 0;
}
