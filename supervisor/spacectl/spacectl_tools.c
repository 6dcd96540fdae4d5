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
 * spacectl tools [-a agent]: the profile's current key and description,
 * and the caller's tools volumes.  spacectl tools fill: the ensure,
 * filling the volume when it must, so tools are ready before a create.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "spacectl.h"
#include "spacectl_output.h"

struct tools_call {
	struct ctl_req		 tc_req;
	struct ctl_tools_info	 tc_info;
	int			 tc_have_info;
	json_t			*tc_vols;
	struct tools_done	 tc_done;
	int			 tc_have_done;
};

static void
terminate(char *s, size_t len)
{
	s[len - 1] = '\0';
}

static void
tools_info(struct tools_call *tc, struct imsg *imsg)
{
	struct ctl_tools_info	*ti = &tc->tc_info;

	ctl_read(imsg, ti, sizeof(*ti));
	terminate(ti->ti_agent, sizeof(ti->ti_agent));
	terminate(ti->ti_key, sizeof(ti->ti_key));
	terminate(ti->ti_volume, sizeof(ti->ti_volume));
	terminate(ti->ti_label, sizeof(ti->ti_label));
	terminate(ti->ti_description, sizeof(ti->ti_description));
	tc->tc_have_info = 1;
}

static void
tools_volume(struct tools_call *tc, struct imsg *imsg)
{
	struct tools_volume_info	 vi;
	uint32_t			 i;

	ctl_read(imsg, &vi, sizeof(vi));
	terminate(vi.tv_name, sizeof(vi.tv_name));
	terminate(vi.tv_key, sizeof(vi.tv_key));
	terminate(vi.tv_description, sizeof(vi.tv_description));
	terminate(vi.tv_created, sizeof(vi.tv_created));
	terminate(vi.tv_place, sizeof(vi.tv_place));
	if (vi.tv_state < TOOLS_STATE_FILLED ||
	    vi.tv_state > TOOLS_STATE_UNKNOWN ||
	    vi.tv_nmounts > TOOLS_MOUNTS_MAX)
		failed("bad_answer", "a tools volume");
	for (i = 0; i < vi.tv_nmounts; i++)
		terminate(vi.tv_mounts[i], sizeof(vi.tv_mounts[i]));
	out_tools_volume(&vi, tc->tc_have_info &&
	    strcmp(vi.tv_key, tc->tc_info.ti_key) == 0, tc->tc_vols);
}

static void
tools_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct tools_call	*tc = cr->cr_arg;
	struct tools_done	*td = &tc->tc_done;

	if (ctl_take_done(cr, imsg))
		return;
	switch (imsg_get_len(imsg)) {
	case sizeof(struct ctl_tools_info):
		tools_info(tc, imsg);
		break;
	case sizeof(struct tools_volume_info):
		tools_volume(tc, imsg);
		break;
	case sizeof(struct tools_done):
		ctl_read(imsg, td, sizeof(*td));
		terminate(td->td_volume, sizeof(td->td_volume));
		terminate(td->td_key, sizeof(td->td_key));
		tc->tc_have_done = 1;
		break;
	default:
		failed("bad_answer", "an unknown record");
	}
}

int
tools_main(int argc, char *argv[])
{
	struct ctl_tools	 ct;
	struct tools_call	 tc;
	int			 ch, fill = 0;

	memset(&ct, 0, sizeof(ct));
	memset(&tc, 0, sizeof(tc));
	if (argc > 1 && strcmp(argv[1], "fill") == 0) {
		fill = 1;
		argc--;
		argv++;
	}
	optind = 1;
	while ((ch = getopt(argc, argv, "a:")) != -1) {
		switch (ch) {
		case 'a':
			if (strlcpy(ct.ct_agent, optarg, sizeof(ct.ct_agent)) >=
			    sizeof(ct.ct_agent))
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	tc.tc_vols = json_array();
	tc.tc_req.cr_type = fill ? IMSG_CTL_TOOLS_FILL : IMSG_CTL_TOOLS;
	tc.tc_req.cr_payload = &ct;
	tc.tc_req.cr_len = sizeof(ct);
	tc.tc_req.cr_arg = &tc;
	tc.tc_req.cr_data = tools_data;
	ctl_call(&tc.tc_req);
	if (!fill && !tc.tc_have_info)
		failed("bad_answer", "no key");
	if (fill && !tc.tc_have_done)
		failed("bad_answer", "no tools answer");
	if (fill)
		out_tools_filled(&tc.tc_done);
	else
		out_tools(&tc.tc_info, tc.tc_vols);
	json_decref(tc.tc_vols);
	return 0;
}
