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
 * sandbox_drop_privileges: as root, the child becomes "nobody" inside
 * an empty chroot and cannot come back; as a plain user it changes
 * nothing.  The undropped child is the control.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sandbox.h"
#include "sbt.h"

static char	 rootdir[64];
static uid_t	 nobody_uid;
static gid_t	 nobody_gid;

static void
setup(void)
{
	struct passwd	*pw;

	if ((pw = getpwnam("nobody")) != NULL) {
		nobody_uid = pw->pw_uid;
		nobody_gid = pw->pw_gid;
	}
	strlcpy(rootdir, "/tmp/sbt-chroot.XXXXXX", sizeof(rootdir));
	cr_assert_not_null(mkdtemp(rootdir));
	/* Like /var/empty: root's, and searchable by the dropped user. */
	cr_assert(chmod(rootdir, 0755) == 0);
}

static void
teardown(void)
{
	rmdir(rootdir);
}

TestSuite(privdrop, .init = setup, .fini = teardown);

static void
need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("not root: the uid change cannot be tested");
	if (nobody_uid == 0)
		cr_skip_test("no user nobody in the password database");
}

/* Exit codes: which property failed. */
#define PD_UID		1
#define PD_GID		2
#define PD_ROOT_DIR	3
#define PD_REGAIN	4
#define PD_GROUPS	5

static int
check_dropped(void)
{
	uid_t	 r, e, s;
	gid_t	 rg, eg, sg;
	gid_t	 groups[64];
	DIR	*d;
	struct dirent *de;
	int	 entries = 0, ngroups;

	if (getresuid(&r, &e, &s) == -1 || r != nobody_uid ||
	    e != nobody_uid || s != nobody_uid)
		return PD_UID;
	if (getresgid(&rg, &eg, &sg) == -1 || rg != nobody_gid ||
	    eg != nobody_gid || sg != nobody_gid)
		return PD_GID;
	/* root's supplementary groups (root, and more) must be gone. */
	ngroups = getgroups(64, groups);
	if (ngroups != 1 || groups[0] != nobody_gid)
		return PD_GROUPS;
	if ((d = opendir("/")) == NULL)
		return PD_ROOT_DIR;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			entries++;
	closedir(d);
	if (entries != 0)
		return PD_ROOT_DIR;
	if (setuid(0) != -1 || seteuid(0) != -1)
		return PD_REGAIN;
	return 0;
}

static int
drop_to_nobody(void)
{
	sandbox_drop_privileges("nobody", rootdir);
	return 0;
}

Test(privdrop, root_becomes_nobody_in_empty_chroot)
{
	int st;

	need_root();
	/* Control: undropped, the first check already fails. */
	st = sbt_run_prepared(NULL, NULL, check_dropped);
	cr_assert(sbt_exit(st) == PD_UID, "%s", sbt_describe(st));
	st = sbt_run_prepared(NULL, drop_to_nobody, check_dropped);
	cr_assert(sbt_exit(st) == 0, "%s", sbt_describe(st));
}

static int
drop_without_chroot(void)
{
	sandbox_drop_privileges("nobody", NULL);
	return 0;
}

Test(privdrop, no_chroot_keeps_the_root_dir)
{
	int st;

	need_root();
	/* Same drop without chroot: "/" is the host's, not empty. */
	st = sbt_run_prepared(NULL, drop_without_chroot, check_dropped);
	cr_assert(sbt_exit(st) == PD_ROOT_DIR, "%s", sbt_describe(st));
}

static int
become_nobody_then_drop_to_root(void)
{
	if (setresgid(nobody_gid, nobody_gid, nobody_gid) == -1 ||
	    setresuid(nobody_uid, nobody_uid, nobody_uid) == -1)
		return SBT_BROKEN;
	/* A plain user: nothing happens, and nothing is fatal. */
	sandbox_drop_privileges("root", "/nonexistent");
	return 0;
}

static int
check_still_nobody(void)
{
	return getuid() == nobody_uid && geteuid() == nobody_uid ? 0 : 1;
}

Test(privdrop, plain_user_is_left_alone)
{
	int st;

	need_root();
	st = sbt_run_prepared(NULL, become_nobody_then_drop_to_root,
	    check_still_nobody);
	cr_assert(sbt_exit(st) == 0, "%s", sbt_describe(st));
}

static int
drop_to_unknown(void)
{
	sandbox_drop_privileges("sbt-no-such-user", rootdir);
	return 0;
}

Test(privdrop, unknown_user_is_fatal)
{
	int st;

	need_root();
	st = sbt_run_prepared(NULL, drop_to_unknown, check_dropped);
	cr_assert(sbt_exit(st) == 1, "%s", sbt_describe(st));
}
