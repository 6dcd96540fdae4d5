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
 * tools and tools-fill (spec "Tools volume"): the volumes of the
 * caller, and an ensure of the current one.  The ensure itself is
 * tools.c's, which create and start use too.
 */

#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_check.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space_parse.h"
#include "spaced.h"
#include "tools_key.h"

/* An agent that is not there is refused by name, never listed as keyless. */
static int
tools_no_agent(struct request *r, const char *agent)
{
	char	 msg[128];

	if (tools_agent_known(agent))
		return 0;
	if (agent[0] == '\0')
		request_refuse(r, ERR_NO_AGENT, "spaces here run no agent "
		    "(default agent none in spaced.conf): name one with -a");
	else {
		(void)snprintf(msg, sizeof(msg), "spaced.conf names no agent "
		    "%s", agent);
		request_refuse(r, ERR_NO_AGENT, msg);
	}
	return 1;
}

/*
 * The request of tools and tools-fill: 0, its agent is one to go on
 * with; -1, answered *code (NULL: refused by name already).
 */
static int
tools_req_take(struct request *r, struct imsg *imsg, struct ctl_tools *ct,
    const char **code)
{
	*code = ERR_BAD_REQUEST;
	if (imsg_get_data(imsg, ct, sizeof(*ct)) == -1 ||
	    !ctl_tools_valid(ct))
		return -1;
	*code = NULL;
	return tools_no_agent(r, ct->ct_agent) ? -1 : 0;
}

const char *
tools_fill_start(struct request *r, struct imsg *imsg)
{
	struct ctl_tools	 ct;
	const char		*code;

	if (tools_req_take(r, imsg, &ct, &code) == -1)
		return code;
	return tools_ensure(r, ct.ct_agent, 0);
}

static void
tools_answer(struct request *r, enum procid from, struct imsg *imsg)
{
	struct tools_done	 td;

	if (tools_done_read(r, from, imsg, &td) == -1)
		fatalx("%s: bad tools answer from %s", __func__,
		    proc_title(from));
	/* tools asked both places: the last one's word ends it. */
	if (r->r_op->op_type != IMSG_CTL_TOOLS_FILL &&
	    r->r_list_pending > 1 && td.td_done.sd_code[0] == '\0') {
		r->r_list_pending--;
		return;
	}
	if (td.td_done.sd_code[0] == '\0' &&
	    r->r_op->op_type == IMSG_CTL_TOOLS_FILL) {
		request_data(r, &td, sizeof(td));
		request_end(r);
		return;
	}
	if (td.td_done.sd_code[0] == '\0') {
		request_end(r);
		return;
	}
	request_data(r, &td.td_done, sizeof(td.td_done));
	request_fail(r, td.td_done.sd_code);
}

static void
tools_volume(struct request *r, enum procid from, struct imsg *imsg)
{
	struct tools_volume_info	 vi;
	uint32_t			 i;

	if (imsg_get_data(imsg, &vi, sizeof(vi)) == -1 ||
	    memchr(vi.tv_name, '\0', sizeof(vi.tv_name)) == NULL ||
	    memchr(vi.tv_key, '\0', sizeof(vi.tv_key)) == NULL ||
	    memchr(vi.tv_description, '\0', sizeof(vi.tv_description)) ==
	    NULL || memchr(vi.tv_created, '\0', sizeof(vi.tv_created)) ==
	    NULL || vi.tv_state < TOOLS_STATE_FILLED ||
	    vi.tv_state > TOOLS_STATE_UNKNOWN ||
	    vi.tv_nmounts > TOOLS_MOUNTS_MAX || !tools_key_valid(vi.tv_key))
		fatalx("%s: bad tools volume from %s", __func__,
		    proc_title(from));
	for (i = 0; i < TOOLS_MOUNTS_MAX; i++)
		if (memchr(vi.tv_mounts[i], '\0', sizeof(vi.tv_mounts[i])) ==
		    NULL || (i < vi.tv_nmounts &&
		    !space_id_valid(vi.tv_mounts[i])))
			fatalx("%s: bad tools volume from %s", __func__,
			    proc_title(from));
	strlcpy(vi.tv_place, from == PROC_NS ? "native" : "docker",
	    sizeof(vi.tv_place));
	request_data(r, &vi, sizeof(vi));
}

const char *
tools_list_start(struct request *r, struct imsg *imsg)
{
	const struct spaced_conf	*conf = spaced_config();
	static struct tools_ensure_req	 te;
	struct ctl_tools_info		*ti;
	struct ctl_tools		 ct;
	const char			*code;

	if (tools_req_take(r, imsg, &ct, &code) == -1)
		return code;
	if ((ti = calloc(1, sizeof(*ti))) == NULL)
		return ERR_INTERNAL;
	/* The current key first; none when the profile cannot be filled. */
	if (tools_current(ct.ct_agent, r->r_uid, ti) == -1)
		strlcpy(ti->ti_agent, ct.ct_agent, sizeof(ti->ti_agent));
	request_data(r, ti, sizeof(*ti));
	free(ti);
	memset(&te, 0, sizeof(te));
	if (space_owner_fmt(te.te_owner, sizeof(te.te_owner),
	    conf->sc_install_id, r->r_uid) == -1)
		return ERR_INTERNAL;
	strlcpy(te.te_image, conf->sc_space_image, sizeof(te.te_image));
	return place_send(r, IMSG_TOOLS_LIST_REQ, &te, sizeof(te));
}

const struct answer_row tools_list_answers[] = {
	{ IMSG_TOOLS_VOLUME, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_NS),
	    sizeof(struct tools_volume_info), 0, tools_volume },
	{ IMSG_TOOLS_DONE, PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_NS),
	    sizeof(struct tools_done), AR_FINAL, tools_answer },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};

const struct answer_row tools_fill_answers[] = {
	{ IMSG_TOOLS_DONE, PROC_BIT(PROC_DOCKER), sizeof(struct tools_done),
	    AR_FINAL, tools_answer },
	/* a cancelled fill rolls back, and needs its connections */
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};
