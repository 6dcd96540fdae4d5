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
 * Code out's tree policy: pure functions over bytes that came out of a
 * space.  A name is judged as every filesystem a checkout may land on
 * would read it (case, NTFS trailing dots, spaces, streams and short
 * names, HFS+ ignorable code points), and in doubt it is refused.
 */

#include <stdio.h>
#include <string.h>

#include "tree_policy.h"

static const struct {
	uint32_t	 rn_bit;
	const char	*rn_name;
} reason_names[] = {
	{ POLICY_DOTGIT,		"dotgit" },
	{ POLICY_DOTDOT,		"dotdot" },
	{ POLICY_ABSOLUTE,		"absolute" },
	{ POLICY_SYMLINK_ESCAPE,	"symlink_escape" },
	{ POLICY_SYMLINK_GIT,		"symlink_git" },
	{ POLICY_GITLINK,		"gitlink" },
	{ POLICY_BAD_MODE,		"bad_mode" },
	{ POLICY_BAD_NAME,		"bad_name" },
	{ POLICY_PATH_TOO_LONG,		"path_too_long" },
	{ POLICY_TOO_DEEP,		"tree_too_deep" },
	{ POLICY_TOO_MANY,		"tree_too_wide" },
	{ POLICY_GITMODULES,		"gitmodules" },
	{ POLICY_ATTR_DRIVER,		"attributes_driver" },
	{ POLICY_NEW_EXECUTABLE,	"new_executable" },
	{ POLICY_LARGE_FILE,		"large_file" },
};
#define NREASONS	(sizeof(reason_names) / sizeof(reason_names[0]))

void
policy_caps_default(struct policy_caps *pc)
{
	pc->pc_path_max = POLICY_PATH_MAX;
	pc->pc_depth_max = POLICY_DEPTH_MAX;
	pc->pc_entries_max = POLICY_ENTRIES_MAX;
	pc->pc_file_max = POLICY_FILE_MAX;
}

const char *
policy_reason_name(uint32_t bit)
{
	size_t	 i;

	for (i = 0; i < NREASONS; i++)
		if (reason_names[i].rn_bit == bit)
			return reason_names[i].rn_name;
	return NULL;
}

/* Only a reason a person may allow has a name here: never the others. */
uint32_t
policy_reason_from_name(const char *name)
{
	size_t	 i;

	for (i = 0; i < NREASONS; i++)
		if (strcmp(reason_names[i].rn_name, name) == 0 &&
		    (reason_names[i].rn_bit & POLICY_ALLOWABLE) != 0)
			return reason_names[i].rn_bit;
	return 0;
}

/*
 * apply --allow: reason names, comma-separated, each one that may be
 * allowed; -1 for any other (a never-allowed one too).
 */
int
policy_allow_parse(const char *list, uint32_t *bits)
{
	char		 name[64];
	const char	*p = list, *comma;
	size_t		 n;
	uint32_t	 bit;

	*bits = 0;
	while (*p != '\0') {
		comma = strchr(p, ',');
		n = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (n == 0 || n >= sizeof(name))
			return -1;
		memcpy(name, p, n);
		name[n] = '\0';
		if ((bit = policy_reason_from_name(name)) == 0)
			return -1;
		*bits |= bit;
		if (comma != NULL && comma[1] == '\0')
			return -1;	/* a trailing comma: a name left out */
		p += n + (comma != NULL);
	}
	return 0;
}

/* The HFS+ ignorable code points git's utf8.c names, as UTF-8. */
static size_t
hfs_ignorable(const unsigned char *p, size_t left)
{
	if (left < 3)
		return 0;
	if (p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x8c && p[2] <= 0x8f) || (p[2] >= 0xaa && p[2] <= 0xae)))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xaa && p[2] <= 0xaf)
		return 3;
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		return 3;
	return 0;
}

/* A name as a case-folding, ignorable-skipping filesystem reads it. */
struct folded {
	const unsigned char	*f_p;
	size_t			 f_len, f_i;
};

static int
fold_next(struct folded *f)
{
	size_t	 n;
	int	 c;

	while (f->f_i < f->f_len &&
	    (n = hfs_ignorable(f->f_p + f->f_i, f->f_len - f->f_i)) != 0)
		f->f_i += n;
	if (f->f_i >= f->f_len)
		return -1;
	c = f->f_p[f->f_i++];
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* What NTFS drops at a name's end: dots, spaces, and a ':stream'. */
static int
fold_rest_empty(struct folded *f)
{
	int	 c;

	for (;;) {
		if ((c = fold_next(f)) == -1 || c == ':')
			return 1;
		if (c != '.' && c != ' ')
			return 0;
	}
}

static int
fold_word(struct folded *f, const char *word)
{
	for (; *word != '\0'; word++)
		if (fold_next(f) != (unsigned char)*word)
			return 0;
	return 1;
}

/* "~N": an NTFS short name's tail, N from 1 up. */
static int
fold_tilde_number(struct folded *f)
{
	int	 c;

	if (fold_next(f) != '~' || (c = fold_next(f)) < '1' || c > '9')
		return 0;
	for (;;) {
		size_t	 at = f->f_i;

		c = fold_next(f);
		if (c < '0' || c > '9') {
			f->f_i = at;
			return 1;
		}
	}
}

/*
 * NTFS's fall-back short name: up to six characters of the hashed
 * prefix, '~', digits (git's is_ntfs_dot_generic).
 */
static int
fold_short_fallback(struct folded *f, const char *prefix)
{
	size_t	 i;
	int	 c;

	for (i = 0; i < 6; i++) {
		size_t	 at = f->f_i;

		if ((c = fold_next(f)) == -1)
			return 0;
		if (c == '~') {
			f->f_i = at;
			return i > 0 && fold_tilde_number(f);
		}
		if (c != (unsigned char)prefix[i])
			return 0;
	}
	return fold_tilde_number(f);
}

/* One piece of a name (between backslashes) is ".<word>" in disguise. */
static int
piece_is(const char *p, size_t len, const char *word, const char *fallback)
{
	struct folded	 f = { (const unsigned char *)p, len, 0 };
	char		 six[7];

	if (fold_next(&f) == '.' && fold_word(&f, word) && fold_rest_empty(&f))
		return 1;
	/* The regular short name: six characters of the word, then ~N. */
	strlcpy(six, word, sizeof(six));
	f.f_i = 0;
	if (fold_word(&f, six) && fold_tilde_number(&f) && fold_rest_empty(&f))
		return 1;
	f.f_i = 0;
	return fallback != NULL && fold_short_fallback(&f, fallback) &&
	    fold_rest_empty(&f);
}

/*
 * name (one component of a path) could be read as ".<word>": a
 * backslash separates on Windows, so each piece counts.
 */
int
policy_name_is(const char *name, size_t len, const char *word,
    const char *fallback)
{
	size_t	 start = 0, i;

	for (i = 0; i <= len; i++)
		if (i == len || name[i] == '\\') {
			if (piece_is(name + start, i - start, word, fallback))
				return 1;
			start = i + 1;
		}
	return 0;
}

int
policy_name_is_dotgit(const char *name, size_t len)
{
	return policy_name_is(name, len, "git", NULL);
}

/* Only dots and spaces: ".", "..", and what Windows trims to them. */
static int
dots_only(const char *p, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (p[i] != '.' && p[i] != ' ')
			return 0;
	return len > 0 && p[0] == '.';
}

static int
component_dotdot(const char *name, size_t len)
{
	size_t	 start = 0, i;

	for (i = 0; i <= len; i++)
		if (i == len || name[i] == '\\') {
			if (dots_only(name + start, i - start))
				return 1;
			start = i + 1;
		}
	return 0;
}

/*
 * A symlink at path pointing at target.  Leading ".." may climb no
 * higher than the link's own folder's depth; a ".." after a component
 * could cross a link of the tree, so it is refused too; every
 * component on the way must not be .git.
 */
uint32_t
policy_check_symlink(const char *path, size_t path_len, const char *target,
    size_t target_len)
{
	size_t	 i, start = 0, depth = 0, n;
	int	 descended = 0;
	uint32_t bits = 0;

	for (i = 0; i < path_len; i++)
		if (path[i] == '/')
			depth++;
	if (target_len == 0 || memchr(target, '\0', target_len) != NULL ||
	    target[0] == '/' || target[0] == '\\' ||
	    (target_len >= 2 && target[1] == ':'))
		return POLICY_SYMLINK_ESCAPE;
	for (i = 0; i <= target_len; i++) {
		if (i < target_len && target[i] != '/' && target[i] != '\\')
			continue;
		n = i - start;
		if (n == 0 || (n == 1 && target[start] == '.')) {
			/* "" and "." stay where they are */
		} else if (dots_only(target + start, n)) {
			if (n != 2 || target[start + 1] != '.' || descended ||
			    depth == 0)
				bits |= POLICY_SYMLINK_ESCAPE;
			else
				depth--;
		} else {
			descended = 1;
			depth++;
			if (policy_name_is_dotgit(target + start, n))
				bits |= POLICY_SYMLINK_GIT;
		}
		start = i + 1;
	}
	return bits;
}

/*
 * A .gitattributes that names a filter, diff or merge driver: any
 * token of any line, the pattern's included (a false alarm costs an
 * --allow, a miss runs a program).
 */
int
policy_attributes_driver(const char *buf, size_t len)
{
	static const char *const drivers[] = { "filter=", "diff=", "merge=" };
	size_t	 i = 0, start, k, n;

	while (i < len) {
		while (i < len && (buf[i] == ' ' || buf[i] == '\t' ||
		    buf[i] == '\r' || buf[i] == '\n' || buf[i] == '\0'))
			i++;
		start = i;
		while (i < len && buf[i] != ' ' && buf[i] != '\t' &&
		    buf[i] != '\r' && buf[i] != '\n' && buf[i] != '\0')
			i++;
		for (k = 0; k < sizeof(drivers) / sizeof(drivers[0]); k++) {
			n = strlen(drivers[k]);
			if (i - start >= n &&
			    memcmp(buf + start, drivers[k], n) == 0)
				return 1;
		}
	}
	return 0;
}

/* The last component of path. */
static const char *
base_name(const char *path, size_t len, size_t *blen)
{
	const char	*slash = memrchr(path, '/', len);

	if (slash == NULL) {
		*blen = len;
		return path;
	}
	*blen = len - (size_t)(slash + 1 - path);
	return slash + 1;
}

static int
is_attributes(const char *path, size_t len)
{
	const char	*b;
	size_t		 blen;

	b = base_name(path, len, &blen);
	return policy_name_is(b, blen, "gitattributes", "gi7d29");
}

/* The walker loads a blob for these only. */
int
policy_wants_data(const char *path, size_t len, uint32_t mode)
{
	return mode == POLICY_MODE_LINK ||
	    ((mode == POLICY_MODE_FILE || mode == POLICY_MODE_EXEC) &&
	    is_attributes(path, len));
}

uint32_t
policy_check_tree_size(const struct policy_caps *pc, size_t entries)
{
	return entries > pc->pc_entries_max ? POLICY_TOO_MANY : 0;
}

static uint32_t
check_path(const struct policy_caps *pc, const char *path, size_t len)
{
	size_t		 i, start = 0, depth = 0;
	uint32_t	 bits = 0;

	if (len == 0 || memchr(path, '\0', len) != NULL)
		return POLICY_BAD_NAME;
	if (len > pc->pc_path_max)
		bits |= POLICY_PATH_TOO_LONG;
	if (path[0] == '/')
		bits |= POLICY_ABSOLUTE;
	for (i = 0; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		if (i == start) {
			if (i != 0)	/* the leading '/' counted above */
				bits |= POLICY_BAD_NAME;
		} else if (component_dotdot(path + start, i - start))
			bits |= POLICY_DOTDOT;
		else if (policy_name_is_dotgit(path + start, i - start))
			bits |= POLICY_DOTGIT;
		if (i < len)
			depth++;
		start = i + 1;
	}
	if (depth > pc->pc_depth_max)
		bits |= POLICY_TOO_DEEP;
	return bits;
}

/*
 * One entry the new tree adds or changes.  Entries the base already
 * had, unchanged, are the user's own and are not judged.
 */
uint32_t
policy_check_entry(const struct policy_caps *pc, const struct policy_entry *pe)
{
	const char	*b;
	size_t		 blen;
	uint32_t	 bits;

	bits = check_path(pc, pe->pe_path, pe->pe_path_len);
	if (bits & POLICY_BAD_NAME)
		return bits;
	b = base_name(pe->pe_path, pe->pe_path_len, &blen);
	switch (pe->pe_mode) {
	case POLICY_MODE_GITLINK:
		return bits | POLICY_GITLINK;
	case POLICY_MODE_TREE:
		return bits;
	case POLICY_MODE_LINK:
		bits |= policy_check_symlink(pe->pe_path, pe->pe_path_len,
		    pe->pe_data, pe->pe_data_len);
		/* Their content cannot be judged through a link. */
		if (is_attributes(pe->pe_path, pe->pe_path_len))
			bits |= POLICY_ATTR_DRIVER;
		break;
	case POLICY_MODE_EXEC:
		if (pe->pe_old_mode != POLICY_MODE_EXEC)
			bits |= POLICY_NEW_EXECUTABLE;
		/* FALLTHROUGH */
	case POLICY_MODE_FILE:
		if (pe->pe_size > pc->pc_file_max)
			bits |= POLICY_LARGE_FILE;
		if (is_attributes(pe->pe_path, pe->pe_path_len) &&
		    (pe->pe_data == NULL ||
		    policy_attributes_driver(pe->pe_data, pe->pe_data_len)))
			bits |= POLICY_ATTR_DRIVER;
		break;
	default:
		return bits | POLICY_BAD_MODE;
	}
	/* Git reads .gitmodules at the top only. */
	if (b == pe->pe_path && policy_name_is(b, blen, "gitmodules", "gi7eba"))
		bits |= POLICY_GITMODULES;
	return bits;
}

/*
 * path for a person's terminal: control bytes, C1, bidirectional and
 * invisible code points, bytes that are no UTF-8 and the backslash
 * escaped; cut at a whole escape.  Returns the length written.
 */
size_t
policy_escape(char *out, size_t outlen, const char *in, size_t inlen)
{
	const unsigned char	*p = (const unsigned char *)in;
	static const char	 hex[] = "0123456789abcdef";
	char			 esc[16];
	size_t			 i = 0, o = 0, n, k;
	uint32_t		 cp;

	if (outlen == 0)
		return 0;
	while (i < inlen) {
		n = 1;
		cp = p[i];
		if (p[i] >= 0xc2 && p[i] <= 0xdf && i + 1 < inlen &&
		    (p[i + 1] & 0xc0) == 0x80) {
			n = 2;
			cp = (p[i] & 0x1fu) << 6 | (p[i + 1] & 0x3fu);
		} else if (p[i] >= 0xe0 && p[i] <= 0xef && i + 2 < inlen &&
		    (p[i + 1] & 0xc0) == 0x80 && (p[i + 2] & 0xc0) == 0x80) {
			n = 3;
			cp = (p[i] & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 |
			    (p[i + 2] & 0x3fu);
			if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))
				n = 1;
		} else if (p[i] >= 0xf0 && p[i] <= 0xf4 && i + 3 < inlen &&
		    (p[i + 1] & 0xc0) == 0x80 && (p[i + 2] & 0xc0) == 0x80 &&
		    (p[i + 3] & 0xc0) == 0x80) {
			n = 4;
			cp = (p[i] & 0x07u) << 18 | (p[i + 1] & 0x3fu) << 12 |
			    (p[i + 2] & 0x3fu) << 6 | (p[i + 3] & 0x3fu);
			if (cp < 0x10000 || cp > 0x10ffff)
				n = 1;
		}
		if (n == 1 && (p[i] < 0x20 || p[i] >= 0x7f)) {
			esc[0] = '\\'; esc[1] = 'x';
			esc[2] = hex[p[i] >> 4]; esc[3] = hex[p[i] & 15];
			k = 4;
		} else if (n == 1 && p[i] == '\\') {
			esc[0] = esc[1] = '\\';
			k = 2;
		} else if (n > 1 && (cp <= 0x9f || cp == 0x61c ||
		    (cp >= 0x200b && cp <= 0x200f) ||
		    (cp >= 0x2028 && cp <= 0x202e) ||
		    (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff)) {
			k = (size_t)snprintf(esc, sizeof(esc), "\\u{%04x}",
			    (unsigned)cp);
		} else {
			memcpy(esc, p + i, n);
			k = n;
		}
		if (o + k >= outlen)
			break;
		memcpy(out + o, esc, k);
		o += k;
		i += n;
	}
	out[o] = '\0';
	return o;
}
