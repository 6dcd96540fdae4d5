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
 * The fixture of apply's tests (apply_fx.h): a user's repository, a
 * space's clone of it, packs, and the comparator.
 */

#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_fx.h"

char	 ax_dir[64];
char	 ax_base[GIT_OID_HEXSZ + 1];

static char *
command(const char *fmt, va_list ap)
{
	char	*body, *cmd;

	cr_assert_neq(vasprintf(&body, fmt, ap), -1);
	cr_assert_neq(asprintf(&cmd, "cd %s && export GIT_AUTHOR_NAME=Ada "
	    "GIT_AUTHOR_EMAIL=ada@a.invalid GIT_COMMITTER_NAME=Ada "
	    "GIT_COMMITTER_EMAIL=ada@a.invalid HOME=%s G='%s' && %s", ax_dir,
	    ax_dir, AXG, body), -1);
	free(body);
	return cmd;
}

int
ax_sh(const char *fmt, ...)
{
	va_list	 ap;
	char	*cmd;
	int	 st;

	va_start(ap, fmt);
	cmd = command(fmt, ap);
	va_end(ap);
	st = system(cmd);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int
ax_pack(const char *file, const char *tip, const char *hide)
{
	return ax_sh("printf '%%s\\n^%%s\\n' '%s' '%s' | $G -C space "
	    "pack-objects -q --revs --stdout --delta-base-offset >%s", tip,
	    hide, file);
}

void
ax_out(char *out, size_t len, const char *fmt, ...)
{
	va_list	 ap;
	char	*cmd;
	FILE	*fp;

	va_start(ap, fmt);
	cmd = command(fmt, ap);
	va_end(ap);
	cr_assert_not_null(fp = popen(cmd, "r"));
	out[0] = '\0';
	if (fgets(out, (int)len, fp) != NULL)
		out[strcspn(out, "\n")] = '\0';
	cr_assert_eq(pclose(fp), 0, "%s", cmd);
	free(cmd);
}

void
ax_oid(git_oid *id, const char *repo, const char *rev)
{
	char	 hex[128];

	ax_out(hex, sizeof(hex), "$G -C %s rev-parse --verify '%s^{commit}'",
	    repo, rev);
	cr_assert_eq(git_oid_fromstr(id, hex), 0, "%s: %s", rev, hex);
}

void
ax_setup(void)
{
	git_libgit2_init();
	strlcpy(ax_dir, "/tmp/spaced-apply.XXXXXX", sizeof(ax_dir));
	cr_assert_not_null(mkdtemp(ax_dir));
	cr_assert_eq(ax_sh("mkdir marks && $G init -q -b main user && "
	    "cd user && echo a >a.txt && mkdir -p lib bin 'dir with space' && "
	    "echo x >lib/x.c && printf '#!/bin/sh\\n' >bin/run.sh && "
	    "chmod +x bin/run.sh && head -c 3000 /dev/urandom >keep.bin && "
	    "echo u >'dir with space/\xc3\xbc.txt' && ln -s a.txt link && "
	    "printf '*.o\\nbuild/\\n' >.gitignore && $G add -A && "
	    "$G commit -qm base && cd .. && $G clone -q user space"), 0);
	ax_out(ax_base, sizeof(ax_base), "$G -C user rev-parse HEAD");
}

void
ax_teardown(void)
{
	char	 cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", ax_dir);
	cr_expect_eq(system(cmd), 0);
	git_libgit2_shutdown();
}

void
ax_req(struct ga_req *req, int mode, const char *branch, const char *tip)
{
	memset(req, 0, sizeof(*req));
	req->mode = mode;
	if (branch != NULL)
		strlcpy(req->branch, branch, sizeof(req->branch));
	cr_assert_eq(git_oid_fromstr(&req->base, ax_base), 0);
	cr_assert_eq(git_oid_fromstr(&req->tip, tip), 0);
}

int
ax_apply(const char *repo, const struct ga_req *req, const char *file,
    size_t chunk, struct ga_result *gr, char *err, size_t len)
{
	git_repository	*r;
	struct ga_apply	*ga = NULL;
	char		 path[256], buf[65536];
	ssize_t		 n;
	int		 fd, rc;

	memset(gr, 0, sizeof(*gr));
	err[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", ax_dir, repo);
	cr_assert_eq(git_repository_open(&r, path), 0, "%s", path);
	if (chunk > sizeof(buf))
		chunk = sizeof(buf);
	if ((rc = ga_begin(r, req, &ga, err, len)) == 0) {
		snprintf(path, sizeof(path), "%s/%s", ax_dir, file);
		cr_assert_neq(fd = open(path, O_RDONLY), -1, "%s", path);
		while ((n = read(fd, buf, chunk)) > 0)
			if (ga_feed(ga, buf, (size_t)n) == -1)
				break;
		close(fd);
		rc = ga_finish(ga, gr, err, len);
		ga_free(ga);
	}
	git_repository_free(r);
	return rc;
}

void
ax_take(const char *repo, struct rc_manifest *m)
{
	char	 path[256];

	snprintf(path, sizeof(path), "%s/%s", ax_dir, repo);
	cr_assert_eq(rc_take(path, m), 0, "%s", path);
}

static void
note(char *first, size_t len, size_t *n, const char *what, const char *path)
{
	if ((*n)++ == 0)
		snprintf(first, len, "%s %s", what, path);
}

size_t
ax_diff(const struct rc_manifest *a, const struct rc_manifest *b,
    int (*allowed)(const char *), char *first, size_t len)
{
	size_t	 i = 0, j = 0, n = 0;
	int	 c;

	first[0] = '\0';
	while (i < a->rm_n || j < b->rm_n) {
		if (i == a->rm_n)
			c = 1;
		else if (j == b->rm_n)
			c = -1;
		else
			c = strcmp(a->rm_v[i].re_path, b->rm_v[j].re_path);
		if (c < 0) {
			if (allowed == NULL || !allowed(a->rm_v[i].re_path))
				note(first, len, &n, "gone:", a->rm_v[i].re_path);
			i++;
		} else if (c > 0) {
			if (allowed == NULL || !allowed(b->rm_v[j].re_path))
				note(first, len, &n, "new:", b->rm_v[j].re_path);
			j++;
		} else {
			if (strcmp(a->rm_v[i].re_desc, b->rm_v[j].re_desc) != 0 &&
			    (allowed == NULL || !allowed(a->rm_v[i].re_path)))
				note(first, len, &n, "changed:",
				    a->rm_v[i].re_path);
			i++;
			j++;
		}
	}
	return n;
}

void
ax_untouched(const char *repo, struct rc_manifest *before)
{
	struct rc_manifest	 after;
	char			 first[512];
	size_t			 n;

	ax_take(repo, &after);
	n = ax_diff(before, &after, NULL, first, sizeof(first));
	cr_expect_eq(n, 0, "%s changed: %zu differences, first %s", repo, n,
	    first);
	rc_free(&after);
	rc_free(before);
}

int
ax_branch_allowed(const char *path)
{
	return strncmp(path, ".git/objects/pack/pack-", 23) == 0 ||
	    strncmp(path, ".git/refs/heads/spaced", 22) == 0 ||
	    strncmp(path, ".git/logs/refs/heads/spaced", 27) == 0;
}

int
ax_staging(const char *path)
{
	return strncmp(path, ".git/objects/spaced-incoming-", 29) == 0;
}

int
ax_marks(void)
{
	struct dirent	*de;
	char		 path[128];
	DIR		*d;
	int		 n = 0;

	snprintf(path, sizeof(path), "%s/marks", ax_dir);
	cr_assert_not_null(d = opendir(path));
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}
