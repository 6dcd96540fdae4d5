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

/* The repository comparator of the code in tests; see repo_compare.h. */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "repo_compare.h"

static int
sha256_file(const char *path, char *hex)
{
	unsigned char	 buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int	 mdlen = 0, i;
	EVP_MD_CTX	*ctx;
	ssize_t		 n;
	int		 fd, r = -1;

	/* O_NOFOLLOW | O_NONBLOCK: a swapped-in FIFO or link is not read. */
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return (-1);
	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		goto out;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1)
			goto out;
	if (n == 0 && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1) {
		for (i = 0; i < mdlen; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		r = 0;
	}
out:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return (r);
}

static char *
describe(const FTSENT *f)
{
	const struct stat	*st = f->fts_statp;
	char			 hex[2 * EVP_MAX_MD_SIZE + 1], target[4096];
	char			*d = NULL;
	unsigned int		 mode = st->st_mode & 07777;
	ssize_t			 n;
	int			 r = -1;

	switch (st->st_mode & S_IFMT) {
	case S_IFDIR:
		r = asprintf(&d, "d %04o", mode);
		break;
	case S_IFREG:
		if (sha256_file(f->fts_accpath, hex) == -1)
			strlcpy(hex, "unreadable", sizeof(hex));
		r = asprintf(&d, "f %04o %jd %s", mode,
		    (intmax_t)st->st_size, hex);
		break;
	case S_IFLNK:
		n = readlink(f->fts_accpath, target, sizeof(target) - 1);
		target[n < 0 ? 0 : n] = '\0';
		r = asprintf(&d, "l %s", target);
		break;
	case S_IFSOCK:
		r = asprintf(&d, "s %04o", mode);
		break;
	case S_IFIFO:
		r = asprintf(&d, "p %04o", mode);
		break;
	default:
		r = asprintf(&d, "%c %04o %jx", S_ISCHR(st->st_mode) ? 'c' :
		    'b', mode, (uintmax_t)st->st_rdev);
		break;
	}
	return (r == -1 ? NULL : d);
}

static int
push(struct rc_manifest *m, const char *path, char *desc)
{
	struct rc_entry	*v;

	if (desc == NULL)
		return (-1);
	if ((v = reallocarray(m->rm_v, m->rm_n + 1, sizeof(*v))) == NULL) {
		free(desc);
		return (-1);
	}
	m->rm_v = v;
	if ((v[m->rm_n].re_path = strdup(path)) == NULL) {
		free(desc);
		return (-1);
	}
	v[m->rm_n++].re_desc = desc;
	return (0);
}

static int
entry_cmp(const void *a, const void *b)
{
	return (strcmp(((const struct rc_entry *)a)->re_path,
	    ((const struct rc_entry *)b)->re_path));
}

int
rc_take(const char *dir, struct rc_manifest *m)
{
	char	 root[PATH_MAX];
	char	*const	 argv[] = { root, NULL };
	FTS		*fts;
	FTSENT		*f;
	size_t		 rootlen = strlen(dir);
	const char	*rel;
	int		 r = 0;

	memset(m, 0, sizeof(*m));
	if (strlcpy(root, dir, sizeof(root)) >= sizeof(root))
		return (-1);
	if ((fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR, NULL)) == NULL)
		return (-1);
	while (r == 0 && (f = fts_read(fts)) != NULL) {
		if (f->fts_info == FTS_DP)
			continue;
		if (f->fts_info == FTS_DNR || f->fts_info == FTS_ERR ||
		    f->fts_info == FTS_NS) {
			r = -1;
			break;
		}
		rel = f->fts_path + rootlen;
		while (*rel == '/')
			rel++;
		r = push(m, rel, describe(f));
	}
	fts_close(fts);
	if (r == -1) {
		rc_free(m);
		return (-1);
	}
	qsort(m->rm_v, m->rm_n, sizeof(*m->rm_v), entry_cmp);
	return (0);
}

void
rc_free(struct rc_manifest *m)
{
	size_t	 i;

	for (i = 0; i < m->rm_n; i++) {
		free(m->rm_v[i].re_path);
		free(m->rm_v[i].re_desc);
	}
	free(m->rm_v);
	memset(m, 0, sizeof(*m));
}

static int
hex_n(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return (0);
	return (1);
}

/* A new loose object or its fan-out folder: additions only. */
static int
is_loose(const struct rc_entry *e)
{
	const char	*p = e->re_path;
	size_t		 n;

	if (strncmp(p, ".git/objects/", 13) != 0)
		return (0);
	p += 13;
	n = strlen(p);
	if (n == 2)
		return (hex_n(p, 2) && e->re_desc[0] == 'd');
	return (n == 41 && p[2] == '/' && hex_n(p, 2) && hex_n(p + 3, 38) &&
	    e->re_desc[0] == 'f');
}

/* This space's start ref with its folders: added or removed. */
static int
is_space_ref(const struct rc_entry *e, const char *id)
{
	char	 dir[128], ref[160];

	snprintf(dir, sizeof(dir), ".git/refs/spaced/spaces/%s", id);
	snprintf(ref, sizeof(ref), "%s/start", dir);
	if (strcmp(e->re_path, ref) == 0)
		return (e->re_desc[0] == 'f');
	return (e->re_desc[0] == 'd' &&
	    (strcmp(e->re_path, ".git/refs/spaced") == 0 ||
	    strcmp(e->re_path, ".git/refs/spaced/spaces") == 0 ||
	    strcmp(e->re_path, dir) == 0));
}

static size_t
report(FILE *fp, const char *what, const struct rc_entry *e,
    const struct rc_entry *was)
{
	if (fp == NULL)
		return (1);
	if (was != NULL)
		fprintf(fp, "%s: %s: %s -> %s\n", what, e->re_path,
		    was->re_desc, e->re_desc);
	else
		fprintf(fp, "%s: %s: %s\n", what, e->re_path, e->re_desc);
	return (1);
}

size_t
rc_diff(const struct rc_manifest *a, const struct rc_manifest *b,
    const char *id, FILE *fp)
{
	size_t	 i = 0, j = 0, bad = 0;
	int	 c;

	while (i < a->rm_n || j < b->rm_n) {
		if (i == a->rm_n)
			c = 1;
		else if (j == b->rm_n)
			c = -1;
		else
			c = strcmp(a->rm_v[i].re_path, b->rm_v[j].re_path);
		if (c < 0) {
			if (!is_space_ref(&a->rm_v[i], id))
				bad += report(fp, "removed", &a->rm_v[i], NULL);
			i++;
		} else if (c > 0) {
			if (!is_loose(&b->rm_v[j]) &&
			    !is_space_ref(&b->rm_v[j], id))
				bad += report(fp, "added", &b->rm_v[j], NULL);
			j++;
		} else {
			/* Changed in place: never allowed, a moved ref too. */
			if (strcmp(a->rm_v[i].re_desc, b->rm_v[j].re_desc))
				bad += report(fp, "changed", &b->rm_v[j],
				    &a->rm_v[i]);
			i++;
			j++;
		}
	}
	return (bad);
}

/* One entry a line, "desc\tpath", with \\, \t and \n escaped. */
static void
put_esc(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '\t' || *s == '\n')
			fprintf(fp, "\\%c", *s == '\t' ? 't' : *s == '\n' ?
			    'n' : '\\');
		else
			fputc(*s, fp);
	}
}

int
rc_save(const struct rc_manifest *m, FILE *fp)
{
	size_t	 i;

	for (i = 0; i < m->rm_n; i++) {
		put_esc(fp, m->rm_v[i].re_desc);
		fputc('\t', fp);
		put_esc(fp, m->rm_v[i].re_path);
		fputc('\n', fp);
	}
	return (ferror(fp) ? -1 : 0);
}

static char *
unesc(const char *s, size_t n)
{
	char	*o, *p;
	size_t	 i;

	if ((o = p = malloc(n + 1)) == NULL)
		return (NULL);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			*p++ = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : s[i];
		} else
			*p++ = s[i];
	}
	*p = '\0';
	return (o);
}

int
rc_load(FILE *fp, struct rc_manifest *m)
{
	char	*line = NULL, *tab, *desc;
	size_t	 cap = 0;
	ssize_t	 n;
	int	 r = 0;

	memset(m, 0, sizeof(*m));
	while (r == 0 && (n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if ((tab = strchr(line, '\t')) == NULL ||
		    (desc = unesc(line, (size_t)(tab - line))) == NULL) {
			r = -1;
			break;
		}
		tab = unesc(tab + 1, strlen(tab + 1));
		r = tab == NULL ? (free(desc), -1) : push(m, tab, desc);
		free(tab);
	}
	free(line);
	if (r == -1)
		rc_free(m);
	else
		qsort(m->rm_v, m->rm_n, sizeof(*m->rm_v), entry_cmp);
	return (r);
}
