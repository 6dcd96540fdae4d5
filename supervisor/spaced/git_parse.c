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
 * The shape of what a repository's spaced-git answers: pure, so that a
 * fuzzer can feed it anything (regress/fuzz/git_answers_fuzz.c).  A
 * spaced-git reads repositories that may be hostile; what passes here
 * is what spaced forwards to a client or hands to a script in a space
 * as an argument, never more.
 */

#include <sys/types.h>

#include <string.h>

#include "git_proto.h"
#include "place_proto.h"
#include "space_parse.h"
#include "git_parse.h"

static int
terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/* Every '/'-separated part of path is there and is not "." or "..". */
static int
components_plain(const char *path)
{
	const char	*p, *end;
	size_t		 n;

	for (p = path; ; p = end + 1) {
		if ((end = strchr(p, '/')) == NULL)
			end = p + strlen(p);
		n = end - p;
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (*end == '\0')
			return 1;
	}
}

/*
 * An absolute path with no empty, "." or ".." component: the caller's
 * client resolved it (realpath), and spaced-launch looks at exactly it.
 */
int
git_dir_valid(const char *dir, size_t len)
{
	if (!terminated(dir, len) || dir[0] != '/')
		return 0;
	return dir[1] == '\0' || components_plain(dir + 1);
}

/* A path inside the repository, relative to its top. */
static int
relative_path_valid(const char *path, size_t len)
{
	return terminated(path, len) && path[0] != '\0' && path[0] != '/';
}

int
git_file_valid(const struct git_file *gf)
{
	return (gf->gf_kind == GIT_FILE_TRAVELS ||
	    gf->gf_kind == GIT_FILE_REPOSITORY) && gf->gf_pad == 0 &&
	    relative_path_valid(gf->gf_path, sizeof(gf->gf_path));
}

int
git_limit_valid(const struct git_limit *gl)
{
	return (gl->gl_kind == GIT_LIMIT_SUBMODULE ||
	    gl->gl_kind == GIT_LIMIT_LFS) && gl->gl_pad == 0 &&
	    relative_path_valid(gl->gl_path, sizeof(gl->gl_path));
}

int
git_done_valid(const struct space_done *sd)
{
	return terminated(sd->sd_code, sizeof(sd->sd_code)) &&
	    terminated(sd->sd_message, sizeof(sd->sd_message)) &&
	    (sd->sd_code[0] == '\0' ||
	    space_code_valid(sd->sd_code, sizeof(sd->sd_code)));
}

static int
hex_valid(const char *s, size_t len)
{
	size_t	 i, n;

	if (memchr(s, '\0', len) == NULL || (n = strlen(s)) != 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Printable, terminated, and not an option to the script's git. */
static int
text_valid(const char *s, size_t len, int may_be_empty)
{
	size_t	 i;

	if (memchr(s, '\0', len) == NULL || (!may_be_empty && s[0] == '\0') ||
	    s[0] == '-')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

static int
name_valid(const char *s, size_t len)
{
	size_t	 i;

	if (!text_valid(s, len, 0) || s[0] == '.')
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		    s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

/* Relative, with no empty, "." or ".." component: stays inside. */
static int
relative_valid(const char *s, size_t len)
{
	if (!text_valid(s, len, 1))
		return 0;
	return s[0] == '\0' || components_plain(s);
}

int
git_snap_valid(const struct git_snap *gs)
{
	return hex_valid(gs->gs_base, sizeof(gs->gs_base)) &&
	    hex_valid(gs->gs_staged, sizeof(gs->gs_staged)) &&
	    hex_valid(gs->gs_start, sizeof(gs->gs_start)) &&
	    memchr(gs->gs_format, '\0', sizeof(gs->gs_format)) != NULL &&
	    strcmp(gs->gs_format, "sha1") == 0 &&
	    text_valid(gs->gs_branch, sizeof(gs->gs_branch), 1) &&
	    strchr(gs->gs_branch, ' ') == NULL &&
	    name_valid(gs->gs_name, sizeof(gs->gs_name)) &&
	    relative_valid(gs->gs_project, sizeof(gs->gs_project)) &&
	    text_valid(gs->gs_user_name, sizeof(gs->gs_user_name), 1) &&
	    text_valid(gs->gs_user_email, sizeof(gs->gs_user_email), 1);
}


/*
 * A record of a review from a quarantine: its kind, every string ended,
 * ids in hex, and text escaped (no control byte; a patch's newlines).
 */
static int
escaped_valid(const char *s, size_t len, int newlines)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	if (memchr(s, '\0', len) == NULL)
		return 0;
	for (i = 0; p[i] != '\0'; i++)
		if ((p[i] < 0x20 && !(newlines && p[i] == '\n')) ||
		    p[i] == 0x7f)
			return 0;
	return 1;
}

int
review_rec_valid(const struct git_review_rec *rr)
{
	if (rr->rr_kind < REVIEW_TIP || rr->rr_kind > REVIEW_PATCH ||
	    !escaped_valid(rr->rr_a, sizeof(rr->rr_a),
	    rr->rr_kind == REVIEW_PATCH) ||
	    !escaped_valid(rr->rr_b, sizeof(rr->rr_b), 0))
		return 0;
	if (rr->rr_kind == REVIEW_PATCH)
		return rr->rr_commit[0] == '\0';
	if (rr->rr_kind == REVIEW_PATH)
		return rr->rr_commit[0] == '\0' && rr->rr_status != 0 &&
		    strchr("ADMRCT", (int)rr->rr_status) != NULL;
	return hex_valid(rr->rr_commit, sizeof(rr->rr_commit));
}

/* An object id in hex, as spaced-git writes one. */
int
git_hex_valid(const char *s, size_t len)
{
	return hex_valid(s, len);
}
