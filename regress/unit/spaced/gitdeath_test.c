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
 * The words of a spaced-git's death (gitdeath.c): spaced-launch's step
 * and errno, or spaced-git's signal by name or exit status and whether
 * it had said it was ready.  It said "it went away".
 */

#include <sys/types.h>

#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "supervisor/spaced/gitdeath.h"
#include "place_proto.h"
#include "proto.h"

static char	 how[GITDEATH_HOW_MAX];

static const char *
words(int status, int step, int err, int ready)
{
	struct launch_exit	 le;

	memset(&le, 0, sizeof(le));
	le.le_pid = 42;
	le.le_status = status;
	le.le_step = step;
	le.le_errno = err;
	gitdeath_how(&le, ready, how, sizeof(how));
	return how;
}

Test(gitdeath, a_failed_exec_names_the_step_and_its_errno)
{
	/* The child's _exit(127) says no more than the status. */
	cr_assert_str_eq(words(127 << 8, LAUNCH_STEP_EXEC, ENOENT, 0),
	    "did not start: spaced-launch's child failed at the exec of "
	    "spaced-git: No such file or directory");
	cr_assert_str_eq(words(1 << 8, LAUNCH_STEP_CREDENTIALS, EPERM, 0),
	    "did not start: spaced-launch's child failed at the change to "
	    "its owner's uid and gid: Operation not permitted");
}

Test(gitdeath, every_step_has_words)
{
	int	 step;

	for (step = LAUNCH_STEP_NONE + 1; step < LAUNCH_STEP_MAX; step++)
		cr_assert(strstr(words(1 << 8, step, EACCES, 0),
		    "failed at ") != NULL && strstr(how, "(null)") == NULL,
		    "step %d: %s", step, how);
}

Test(gitdeath, a_signal_by_name_and_its_filter_for_sigsys)
{
	cr_assert_str_eq(words(SIGSYS, 0, 0, 0), "killed by signal 31 "
	    "(SIGSYS: Bad system call, a system call its filter forbids) "
	    "before it was ready (its start and confinement)");
	cr_assert_str_eq(words(SIGKILL, 0, 0, 1),
	    "killed by signal 9 (SIGKILL: Killed) while it served");
}

Test(gitdeath, an_exit_status_and_when)
{
	cr_assert_str_eq(words(1 << 8, 0, 0, 0), "exited with status 1 "
	    "before it was ready (its start and confinement)");
	cr_assert_str_eq(words(3 << 8, 0, 0, 1),
	    "exited with status 3 while it served");
}

Test(gitdeath, a_report_out_of_range_is_only_the_status)
{
	/* No step, no errno, or a step past the table: the status. */
	cr_assert_str_eq(words(1 << 8, LAUNCH_STEP_MAX, EACCES, 0),
	    "exited with status 1 before it was ready (its start and "
	    "confinement)");
	cr_assert_str_eq(words(1 << 8, -1, EACCES, 1),
	    "exited with status 1 while it served");
	cr_assert_str_eq(words(1 << 8, LAUNCH_STEP_EXEC, 0, 1),
	    "exited with status 1 while it served");
	cr_assert_str_eq(words(127 << 8, LAUNCH_STEP_NONE, ENOENT, 0),
	    "exited with status 127 before it was ready (its start and "
	    "confinement)");
}

Test(gitdeath, a_short_buffer_is_cut_never_overrun)
{
	struct launch_exit	 le;
	char			 small[8];

	memset(&le, 0, sizeof(le));
	le.le_status = SIGSYS;
	memset(small, 'x', sizeof(small));
	gitdeath_how(&le, 0, small, sizeof(small));
	cr_assert_str_eq(small, "killed ");
}

/*
 * spaced-git's own fatal line: outside bytes, taken only whole and
 * NUL-terminated in its field, escaped (no byte that ends a line or
 * starts a terminal sequence), after how it died.
 */
Test(gitdeath, its_fatal_line_escaped_after_how_it_died)
{
	struct worker_fatal	 wf;
	char			 esc[SPACE_DONE_MESSAGE_MAX];
	char			 msg[SPACE_DONE_MESSAGE_MAX];

	memset(&wf, 0, sizeof(wf));
	strlcpy(wf.wf_line, "repo /r\nfake: line\033[31m\x7f",
	    sizeof(wf.wf_line));
	cr_assert_eq(gitdeath_line(&wf, esc, sizeof(esc)), 0);
	cr_assert_str_eq(esc, "repo /r\\nfake: line\\033[31m\\177");
	strlcpy(msg, "spaced-git pid 42 exited with status 1", sizeof(msg));
	gitdeath_said(msg, sizeof(msg), esc);
	cr_assert_str_eq(msg, "spaced-git pid 42 exited with status 1; it "
	    "said: repo /r\\nfake: line\\033[31m\\177");
	/* Nothing said: how it died alone. */
	strlcpy(msg, "spaced-git pid 42 exited with status 1", sizeof(msg));
	gitdeath_said(msg, sizeof(msg), "");
	cr_assert_str_eq(msg, "spaced-git pid 42 exited with status 1");
}

Test(gitdeath, a_fatal_line_without_its_nul_is_refused)
{
	struct worker_fatal	 wf;
	char			 esc[SPACE_DONE_MESSAGE_MAX];

	memset(&wf, 'a', sizeof(wf));
	cr_assert_eq(gitdeath_line(&wf, esc, sizeof(esc)), -1);
}

/* A long line (or a long how) is cut to the answer's room. */
Test(gitdeath, a_long_line_is_cut_to_the_room)
{
	struct worker_fatal	 wf;
	char			 esc[SPACE_DONE_MESSAGE_MAX];
	char			 msg[SPACE_DONE_MESSAGE_MAX] = "spaced-git pid 7";

	memset(&wf, '\n', sizeof(wf));
	wf.wf_line[sizeof(wf.wf_line) - 1] = '\0';
	cr_assert_eq(gitdeath_line(&wf, esc, sizeof(esc)), 0);
	cr_assert_lt(strlen(esc), sizeof(esc));
	cr_assert(strchr(esc, '\n') == NULL);
	gitdeath_said(msg, sizeof(msg), esc);
	cr_assert_eq(strlen(msg), sizeof(msg) - 1);
	cr_assert(strncmp(msg, "spaced-git pid 7; it said: \\n", 29) == 0);
}
