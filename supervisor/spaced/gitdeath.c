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
 * The words of a spaced-git's death (gitdeath.h).  It said "it went
 * away" or "exited with status 127" where a person needed the exec that
 * failed, or the filter that killed it.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gitdeath.h"
#include "log.h"
#include "proto.h"

static const char *const launch_steps[LAUNCH_STEP_MAX] = {
	[LAUNCH_STEP_CHANNEL] = "its channel and /dev/null on fds 0-2",
	[LAUNCH_STEP_BOUNDING] = "the drop of its capabilities",
	[LAUNCH_STEP_CREDENTIALS] = "the change to its owner's uid and gid",
	[LAUNCH_STEP_DEATHSIG] = "its death signal",
	[LAUNCH_STEP_QR_FOLDER] = "the quarantine's folder",
	[LAUNCH_STEP_QR_CAPS] = "the quarantine's capabilities",
	[LAUNCH_STEP_EXEC] = "the exec of spaced-git",
};

void
gitdeath_how(const struct launch_exit *le, int ready, char *buf, size_t len)
{
	const char	*when = ready ? "while it served" :
			    "before it was ready (its start and confinement)";
	const char	*name;
	int		 sig;

	/* spaced-launch's word: a step in range, an errno it saw. */
	if (le->le_step > LAUNCH_STEP_NONE && le->le_step < LAUNCH_STEP_MAX &&
	    le->le_errno > 0) {
		(void)snprintf(buf, len, "did not start: spaced-launch's child "
		    "failed at %s: %s", launch_steps[le->le_step],
		    strerror(le->le_errno));
		return;
	}
	if (WIFSIGNALED(le->le_status)) {
		sig = WTERMSIG(le->le_status);
		if ((name = sigabbrev_np(sig)) == NULL)
			name = "?";
		/* SIGSYS: its seccomp filter's kill (sandbox.c). */
		(void)snprintf(buf, len, "killed by signal %d (SIG%s: %s%s) %s",
		    sig, name, strsignal(sig), sig == SIGSYS ? ", a system call "
		    "its filter forbids" : "", when);
	} else
		(void)snprintf(buf, len, "exited with status %d %s",
		    WEXITSTATUS(le->le_status), when);
}

int
gitdeath_line(const struct worker_fatal *wf, char *esc, size_t len)
{
	if (memchr(wf->wf_line, '\0', sizeof(wf->wf_line)) == NULL)
		return -1;
	(void)log_escape(esc, len, wf->wf_line);
	return 0;
}

void
gitdeath_said(char *how, size_t len, const char *said)
{
	if (said[0] == '\0')
		return;
	(void)strlcat(how, "; it said: ", len);
	(void)strlcat(how, said, len);
}
