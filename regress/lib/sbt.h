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

#ifndef SBT_H
#define SBT_H

/*
 * Helpers for the sandbox tests: every attempt runs in a forked child,
 * because a filter cannot be taken back and a forbidden call kills.
 */

#include <sys/wait.h>

#include <signal.h>

#include "sandbox.h"

/* An attempt returns 0 when the call worked, else the errno it got. */
typedef int (*sbt_attempt)(void);

/* Exit status of a child whose own plumbing failed. */
#define SBT_BROKEN	250

/*
 * Fork; the child enters spec (none when NULL) and exits with what
 * attempt returned.  Returns the child's wait status.
 */
int	 sbt_run(const struct sandbox_spec *spec, sbt_attempt attempt);
/* The same, with prepare run in the child before the sandbox. */
int	 sbt_run_prepared(const struct sandbox_spec *spec, sbt_attempt prepare,
	    sbt_attempt attempt);

/* A spec of groups plus extras, Landlock off: tests of seccomp alone. */
struct sandbox_spec sbt_seccomp_spec(unsigned int groups, const int *extra);

/*
 * A prepare step: from here on, the Landlock calls fail with ENOSYS, as
 * on a kernel without Landlock (a seccomp filter of the test's own,
 * which sandbox_enter's filter then stacks on).  0, or an errno.
 */
int	 sbt_hide_landlock(void);

int	 sbt_sigsys(int status);
/* The child's exit code, or -1 when it did not exit. */
int	 sbt_exit(int status);
/* For failure messages. */
const char *sbt_describe(int status);

/* Assertions on a child's fate; used inside Criterion tests. */
#define SBT_KILLED(spec, attempt) do {					\
	int sbt_st_ = sbt_run((spec), (attempt));			\
	cr_assert(sbt_sigsys(sbt_st_), "%s: want SIGSYS, got %s",	\
	    #attempt, sbt_describe(sbt_st_));				\
} while (0)

#define SBT_EXITS(spec, attempt, code) do {				\
	int sbt_st_ = sbt_run((spec), (attempt));			\
	cr_assert(sbt_exit(sbt_st_) == (code), "%s: want exit %d, got %s", \
	    #attempt, (code), sbt_describe(sbt_st_));			\
} while (0)

#endif /* SBT_H */
