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

#include <sys/types.h>
#include <sys/wait.h>

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "sbt.h"

static int	 sbt_in_child;

/*
 * LeakSanitizer's hook: no leak check in a child that leaves through
 * exit() (a fatal path); it was forked from a threaded test runner, so
 * LSan could not stop the world and might report false leaks.
 */
int	 __lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return sbt_in_child;
}

/* Exit with what exit_group gets: nothing else runs (no atexit, no LSan). */
static void __attribute__((__noreturn__))
sbt_child(const struct sandbox_spec *spec, sbt_attempt prepare,
    sbt_attempt attempt)
{
	int	 rc;

	sbt_in_child = 1;
	if (prepare != NULL && prepare() != 0)
		_exit(SBT_BROKEN);
	if (spec != NULL)
		sandbox_enter(spec);
	rc = attempt();
	_exit(rc < 0 || rc > 255 ? SBT_BROKEN : rc);
}

int
sbt_run(const struct sandbox_spec *spec, sbt_attempt attempt)
{
	return sbt_run_prepared(spec, NULL, attempt);
}

int
sbt_run_prepared(const struct sandbox_spec *spec, sbt_attempt prepare,
    sbt_attempt attempt)
{
	pid_t	 pid;
	int	 status;

	log_init(1, LOG_DAEMON);
	fflush(NULL);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0)
		sbt_child(spec, prepare, attempt);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return -1;
	return status;
}

struct sandbox_spec
sbt_seccomp_spec(unsigned int groups, const int *extra)
{
	struct sandbox_spec	 spec;

	memset(&spec, 0, sizeof(spec));
	spec.sb_name = "test";
	spec.sb_groups = groups;
	spec.sb_extra = extra;
	spec.sb_landlock_optional = 1;
	return spec;
}

int
sbt_hide_landlock(void)
{
	static const int	 calls[] = { SYS_landlock_create_ruleset,
	    SYS_landlock_add_rule, SYS_landlock_restrict_self };
	scmp_filter_ctx		 ctx;
	size_t			 i;
	int			 rc = 0;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return errno;
	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		return ENOMEM;
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]) && rc == 0; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return -rc;
}

int
sbt_sigsys(int status)
{
	return status != -1 && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGSYS;
}

int
sbt_exit(int status)
{
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

const char *
sbt_describe(int status)
{
	static char	 buf[64];

	if (status == -1)
		snprintf(buf, sizeof(buf), "fork/wait failed");
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "killed by signal %d",
		    WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		snprintf(buf, sizeof(buf), "exited 0 (call worked)");
	else if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exited %d (%s)",
		    WEXITSTATUS(status), strerror(WEXITSTATUS(status)));
	else
		snprintf(buf, sizeof(buf), "status 0x%x", status);
	return buf;
}
