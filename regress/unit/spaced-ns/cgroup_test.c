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
 * the process in each.  Root only, as spaced-ns.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "space_limits.h"
#include "worker-ns/ns.h"

static char	 group[32];
static pid_t	 child = -1;

static void
setup(void)
{
	char	 missing[16];

	if (geteuid() != 0 || access(NS_CGROOT "/pids", F_OK) == -1)
		return;
	snprintf(group, sizeof(group), "unit-join-%d", (int)getpid());
	cr_assert_eq(ns_cgroup_make(group, 256ULL << 20, 1000000000LL, 64,
	    ns_limits_absent(), missing, sizeof(missing)), 0, "%s", missing);
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
