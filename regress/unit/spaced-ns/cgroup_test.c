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
 * ns_cgroup_join on the host's real cgroup v1 groups: a group taken
 * between a start's make and its join (another installation's sweep of
 * a spent pair) fails the join, so no process runs outside a limit the
 * host has.  The control: the same join with every group there puts
 * the process in each.  A start's join (ns_cgroup_enter) makes a taken
 * group again and joins it.  Root only, as spaced-ns.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "space_limits.h"
#include "worker-ns/ns.h"

static char	 group[32];
static pid_t	 child = -1;
static struct ns_cglimits limits = { 256ULL << 20, 1000000000LL, 64, 0 };

static void
setup(void)
{
	char	 missing[16];

	if (geteuid() != 0 || access(NS_CGROOT "/pids", F_OK) == -1)
		return;
	snprintf(group, sizeof(group), "unit-join-%d", (int)getpid());
	limits.cl_skip = ns_limits_absent();
	cr_assert_eq(ns_cgroup_make(group, &limits, missing, sizeof(missing)),
	    0, "%s", missing);
	if ((child = fork()) == 0) {
		pause();
		_exit(0);
	}
	cr_assert_neq(child, -1);
}

static void
teardown(void)
{
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (group[0] != '\0')
		ns_cgroup_remove(group);
}

static void
need_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("cgroups are root's");
	if (access(NS_CGROOT "/pids", F_OK) == -1)
		cr_skip_test("no cgroup v1 pids controller here");
}

/* 1 when pid is in the group's cgroup.procs of a controller. */
static int
in_group(const char *ctl, pid_t pid)
{
	char	 path[PATH_MAX], line[32];
	FILE	*f;
	int	 found = 0;

	snprintf(path, sizeof(path), "%s/%s/%s/%s/cgroup.procs", NS_CGROOT,
	    ctl, NS_CGNAME, group);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (atoi(line) == (int)pid)
			found = 1;
	fclose(f);
	return found;
}

/* A group's limit file as a number, -1 when unread. */
static long
limit_of(const char *ctl, const char *file)
{
	char	 path[PATH_MAX], line[32];
	FILE	*f;
	long	 v = -1;

	snprintf(path, sizeof(path), "%s/%s/%s/%s/%s", NS_CGROOT, ctl,
	    NS_CGNAME, group, file);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(line, sizeof(line), f) != NULL)
		v = strtol(line, NULL, 10);
	fclose(f);
	return v;
}

TestSuite(cgroup_join, .init = setup, .fini = teardown);

Test(cgroup_join, every_group_there_holds_the_process)
{
	need_root();
	cr_assert_eq(ns_cgroup_join(group, child), 0);
	cr_assert(in_group("pids", child));
	cr_assert(in_group("memory", child));
}

Test(cgroup_join, a_group_taken_before_the_join_fails_it)
{
	char	 path[PATH_MAX];

	need_root();
	snprintf(path, sizeof(path), "%s/pids/%s/%s", NS_CGROOT, NS_CGNAME,
	    group);
	cr_assert_eq(rmdir(path), 0, "%s", path);
	cr_assert_eq(ns_cgroup_join(group, child), -1,
	    "joined without its pids limit");
}

/* A start whose group was taken once makes it again: in every group. */
Test(cgroup_join, a_start_makes_a_taken_group_again)
{
	char	 path[PATH_MAX], err[256];

	need_root();
	snprintf(path, sizeof(path), "%s/pids/%s/%s", NS_CGROOT, NS_CGNAME,
	    group);
	cr_assert_eq(rmdir(path), 0, "%s", path);
	err[0] = '\0';
	cr_assert_eq(ns_cgroup_enter(group, &limits, child, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert(in_group("pids", child), "not in the group made again");
	cr_assert_eq(limit_of("pids", "pids.max"), 64, "made without its limit");
	cr_assert(in_group("memory", child));
	if (access(NS_CGROOT "/cpu/" NS_CGNAME, F_OK) == 0)
		cr_assert(in_group("cpu", child));
}

/*
 * A group there already (a stop's that lingered, spent) made again for
 * a start is young again: the sweep of another installation spares it
 * until the join.  Its mtime an hour back first, as an old group's.
 */
Test(cgroup_join, a_group_made_again_is_young)
{
	struct timespec	 ts[2];
	struct stat	 st;
	char		 path[PATH_MAX], missing[16];
	time_t		 before;

	need_root();
	snprintf(path, sizeof(path), "%s/pids/%s/%s", NS_CGROOT, NS_CGNAME,
	    group);
	ts[0].tv_sec = ts[1].tv_sec = time(NULL) - 3600;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	cr_assert_eq(utimensat(AT_FDCWD, path, ts, 0), 0, "%s", path);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_lt(st.st_mtime, time(NULL) - 60, "control: aged");
	before = time(NULL);
	cr_assert_eq(ns_cgroup_make(group, &limits, missing, sizeof(missing)),
	    0, "%s", missing);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_geq(st.st_mtime, before, "made again, still old");
}
