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
 * Code in's requests, answered by the spaced-git of the repository they
 * name (gitinst.c).  spaced reads nothing of the repository: it checks
 * the shape of each record, which the caller's client then shows, and a
 * record of the wrong shape ends that spaced-git.
 */

#include <sys/types.h>

#include <string.h>

#include "ctl_check.h"
#include "errors.h"
#include "git_parse.h"
#include "git_proto.h"
#include "log.h"
#include "space_parse.h"
#include "spaced.h"

struct git_state {
	char	 dir[GIT_DIR_MAX];
	int	 relaunched;
};
const size_t git_state_size = sizeof(struct git_state);

static const struct {
	uint32_t	 ctl;
	uint32_t	 git;
} git_types[] = {
	{ IMSG_CTL_FILES,	IMSG_GIT_FILES_REQ },
	{ IMSG_CTL_LIMITS,	IMSG_GIT_LIMITS_REQ },
};

const char *
git_files_start(struct request *r, struct imsg *imsg)
{
	struct git_state	*gs = r->r_state;
	struct ctl_git		 cg;
	struct git_req		 gq;
	size_t			 i;

	if (imsg_get_data(imsg, &cg, sizeof(cg)) == -1 ||
	    !ctl_git_valid(&cg))
		return ERR_BAD_REQUEST;
	for (i = 0; i < sizeof(git_types) / sizeof(git_types[0]); i++)
		if (git_types[i].ctl == r->r_op->op_type)
			break;
	if (i == sizeof(git_types) / sizeof(git_types[0]))
		fatalx("%s: %s is no git operation", __func__,
		    r->r_op->op_name);
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, cg.cg_id, sizeof(gq.gq_space));
	strlcpy(gs->dir, cg.cg_dir, sizeof(gs->dir));
	return gitinst_attach(r, cg.cg_dir, git_types[i].git, &gq);
}

static void
git_file(struct request *r, enum procid from, struct imsg *imsg)
{
	struct git_file	 gf;

	if (imsg_get_data(imsg, &gf, sizeof(gf)) == -1 ||
	    !git_file_valid(&gf)) {
		gitinst_distrust(r->r_git);
		return;
	}
	request_data(r, &gf, sizeof(gf));
}

static void
git_limit(struct request *r, enum procid from, struct imsg *imsg)
{
	struct git_limit gl;

	if (imsg_get_data(imsg, &gl, sizeof(gl)) == -1 ||
	    !git_limit_valid(&gl)) {
		gitinst_distrust(r->r_git);
		return;
	}
	request_data(r, &gl, sizeof(gl));
}

static void
git_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct git_state	*gs = r->r_state;
	struct space_done	 sd;

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    !git_done_valid(&sd)) {
		gitinst_distrust(r->r_git);
		return;
	}
	if (sd.sd_code[0] == '\0') {
		request_end(r);
		return;
	}
	/* A refusal: once, for a stale one, a new spaced-git (gitinst.c). */
	if (gitinst_relaunch(r, sd.sd_code, gs->dir, &gs->relaunched))
		return;
	request_data(r, &sd, sizeof(sd));
	request_fail(r, sd.sd_code);
}

const struct answer_row git_answers[] = {
	{ IMSG_GIT_FILE, PROC_BIT(PROC_GIT), sizeof(struct git_file), 0,
	    git_file },
	{ IMSG_GIT_LIMIT, PROC_BIT(PROC_GIT), sizeof(struct git_limit), 0,
	    git_limit },
	{ IMSG_GIT_DONE, PROC_BIT(PROC_GIT), sizeof(struct space_done),
	    AR_FINAL, git_done },
	{ 0 }
};
