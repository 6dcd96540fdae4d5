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
 * spaced's word to spaced-launch, which alone may start a process as
 * another user: start a repository's spaced-git or a space's
 * quarantine, kill one, remove a quarantine's folder.  Which instance
 * and when is gitinst.c's.
 */

#include <sys/socket.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "git_proto.h"
#include "gitdeath.h"
#include "log.h"
#include "spaced.h"

/*
 * Start instance id: a quarantine of space, else the spaced-git of dir
 * for caller.  *fd is spaced's end of its channel; -1 when spaced-launch
 * cannot be asked (*fd is then -1 too).
 */
int
gitlaunch_start(uint32_t id, uid_t caller, const char *dir,
    const char *space, int *fd)
{
	struct launch_git_req	 lg;
	struct launch_qr_req	 lq;
	int			 sp[2], rv;

	*fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
	    sp) == -1)
		return -1;
	if (space != NULL) {
		memset(&lq, 0, sizeof(lq));
		strlcpy(lq.lq_space, space, sizeof(lq.lq_space));
		strlcpy(lq.lq_state, spaced_config()->sc_state,
		    sizeof(lq.lq_state));
		rv = worker_compose(PROC_LAUNCH, IMSG_LAUNCH_QR_REQ, id, sp[1],
		    &lq, sizeof(lq));
	} else {
		memset(&lg, 0, sizeof(lg));
		lg.lg_caller = caller;
		lg.lg_any_owner = caller == 0;
		strlcpy(lg.lg_dir, dir, sizeof(lg.lg_dir));
		rv = worker_compose(PROC_LAUNCH, IMSG_LAUNCH_GIT_REQ, id, sp[1],
		    &lg, sizeof(lg));
	}
	if (rv == -1) {
		close(sp[0]);
		return -1;
	}
	*fd = sp[0];
	return 0;
}

/* Its process, which may be stopped or stuck: spaced-launch kills it. */
void
gitlaunch_kill(uint32_t id, pid_t pid)
{
	struct launch_exit	 le;

	memset(&le, 0, sizeof(le));
	le.le_pid = pid;
	(void)worker_compose(PROC_LAUNCH, IMSG_LAUNCH_KILL, id, -1, &le,
	    sizeof(le));
}

/*
 * Its fatal line, which its stderr (/dev/null) would lose.  Its death
 * known, the line follows how it died; else it waits in how for it.
 */
int
gitlaunch_said(struct imsg *imsg, pid_t pid, int reaped,
    char how[SPACE_DONE_MESSAGE_MAX])
{
	struct worker_fatal	 wf;
	char			 esc[SPACE_DONE_MESSAGE_MAX];

	if (imsg_get_data(imsg, &wf, sizeof(wf)) == -1 ||
	    gitdeath_line(&wf, esc, sizeof(esc)) == -1)
		return -1;
	log_warnx("spaced-git %d said as it died: %s", (int)pid, esc);
	if (reaped)
		gitdeath_said(how, SPACE_DONE_MESSAGE_MAX, esc);
	else
		(void)strlcpy(how, esc, SPACE_DONE_MESSAGE_MAX);
	return 0;
}

/* remove: the space's quarantine folder goes. */
void
gitlaunch_qr_remove(const char *space)
{
	struct launch_qr_req	 lq;

	memset(&lq, 0, sizeof(lq));
	strlcpy(lq.lq_space, space, sizeof(lq.lq_space));
	strlcpy(lq.lq_state, spaced_config()->sc_state, sizeof(lq.lq_state));
	(void)worker_compose(PROC_LAUNCH, IMSG_LAUNCH_QR_REMOVE, 0, -1, &lq,
	    sizeof(lq));
}

/*
 * An instance that died: in the log, how it died into how (its
 * requests hear it), and into detail the event for its caller (and
 * root).  The pid and how first: a long folder is cut, never how.
 */
void
gitlaunch_died(const struct launch_exit *le, int ready, uid_t owner,
    const char *dir, char *how, size_t howlen, char *detail, size_t len)
{
	char	 words[GITDEATH_HOW_MAX], said[SPACE_DONE_MESSAGE_MAX];

	gitdeath_how(le, ready, words, sizeof(words));
	log_warnx("spaced-git %d (uid %u, %s) %s", (int)le->le_pid,
	    (unsigned)owner, dir, words);
	(void)strlcpy(said, how, sizeof(said));
	(void)snprintf(how, howlen, "spaced-git pid %d %s", (int)le->le_pid,
	    words);
	gitdeath_said(how, howlen, said);
	(void)snprintf(detail, len, "spaced-git pid %d uid %u %s: ",
	    (int)le->le_pid, (unsigned)owner, words);
	(void)strlcat(detail, dir, len);
}
