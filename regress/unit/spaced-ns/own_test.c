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
 * A filled tools tree made root's (ns_own_tree): no link is followed,
 * even one put in place of a file after the walk looked at it, so a
 * host file a fill pointed at keeps its mode.  The controls: a plain
 * chmod through the same link changes the host file, and a real file
 * of the tree is changed.
 */

#include <sys/stat.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "worker-ns/ns.h"

static char	 dir[] = "/tmp/spaced-own.XXXXXX";
static char	 host[128], tree[128];

static void
path(char *buf, const char *leaf)
{
	snprintf(buf, 128, "%s/%s", dir, leaf);
}

static void
make_file(const char *p, mode_t mode)
{
	int	 fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);

	cr_assert_neq(fd, -1, "%s", p);
	close(fd);
	cr_assert_eq(chmod(p, mode), 0);
}

static mode_t
mode_of(const char *p)
{
	struct stat	 st;

	cr_assert_eq(stat(p, &st), 0, "%s", p);
	return st.st_mode & 07777;
}

static void
setup(void)
{
	cr_assert_neq(mkdtemp(dir), NULL);
	path(host, "host-secret");
	path(tree, "fill");
	make_file(host, 0600);
	cr_assert_eq(mkdir(tree, 0700), 0);
}

static void
teardown(void)
{
	char	 cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		cr_log_warn("%s failed", cmd);
}

TestSuite(own, .init = setup, .fini = teardown);

/* A file of the tree swapped for a link after the walk saw a file. */
Test(own, swapped_link_not_followed)
{
	char	 link[PATH_MAX];

	snprintf(link, sizeof(link), "%s/bin", tree);
	cr_assert_eq(symlink(host, link), 0);
	cr_assert_eq(ns_own_mode(link), 0);
	cr_assert_eq(mode_of(host), 0600, "the host file's mode changed: %o",
	    mode_of(host));
	/* The control: a chmod that follows the link changes the host's. */
	cr_assert_eq(chmod(link, 0644), 0);
	cr_assert_eq(mode_of(host), 0644);
}

Test(own, real_file_and_folder_changed)
{
	char	 f[PATH_MAX];

	snprintf(f, sizeof(f), "%s/bin", tree);
	make_file(f, 04700);
	cr_assert_eq(ns_own_mode(f), 0);
	cr_assert_eq(mode_of(f), 0744, "no setid bit, readable: %o",
	    mode_of(f));
	cr_assert_eq(ns_own_mode(tree), 0);
	cr_assert_eq(mode_of(tree), 0755);
}

/* The whole walk, as root: a planted link to a host file. */
Test(own, tree_with_planted_link)
{
	char	 link[PATH_MAX], f[PATH_MAX];

	if (geteuid() != 0)
		cr_skip_test("ns_own_tree chowns to root");
	snprintf(link, sizeof(link), "%s/planted", tree);
	snprintf(f, sizeof(f), "%s/tool", tree);
	cr_assert_eq(symlink(host, link), 0);
	make_file(f, 0666);
	cr_assert_eq(ns_own_tree(tree), 0);
	cr_assert_eq(mode_of(host), 0600, "the host file's mode changed");
	cr_assert_eq(mode_of(f), 0644, "no write bit for others: %o",
	    mode_of(f));
}
