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

/* --- what is shown (from spacectl_output.c, whose size it grew past) --- */

static const char *const tools_states[] = {
	[TOOLS_STATE_FILLED] = "filled",
	[TOOLS_STATE_EMPTY] = "empty",
	[TOOLS_STATE_MISMATCH] = "mismatch",
	[TOOLS_STATE_UNKNOWN] = "unknown",
};

/* A volume of the caller's into vols; its state checked by the caller. */
static void
out_tools_volume(const struct tools_volume_info *vi, int current,
    json_t *vols)
{
	json_t		*spaces, *o;
	uint32_t	 i;

	spaces = json_array();
	for (i = 0; i < vi->tv_nmounts; i++)
		json_array_append_new(spaces, json_string(vi->tv_mounts[i]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:b, s:b, s:s}",
	    "name", vi->tv_name, "key", vi->tv_key,
	    "description", vi->tv_description, "created", vi->tv_created,
	    "state", tools_states[vi->tv_state], "spaces", spaces,
	    "moreSpaces", vi->tv_more != 0, "current", current,
	    "place", vi->tv_place);
	if (o != NULL)
		json_array_append_new(vols, o);
}

static void
tools_volumes_text(json_t *vols)
{
	json_t	*v, *s;
	size_t	 i, j;
	int	 w = (int)strlen("VOLUME");

	/* A name holds the install id (up to 64): the widest one sets it. */
	json_array_foreach(vols, i, v)
		if ((int)strlen(jstr(v, "name")) > w)
			w = (int)strlen(jstr(v, "name"));
	printf("%-*s %-16s %-8s %-6s %s\n", w, "VOLUME", "KEY", "STATE",
	    "PLACE", "SPACES");
	json_array_foreach(vols, i, v) {
		printf("%-*s %-16s %-8s %-6s", w, jstr(v, "name"),
		    jstr(v, "key"), jstr(v, "state"), jstr(v, "place"));
		json_array_foreach(json_object_get(v, "spaces"), j, s)
			printf("%s%s", j == 0 ? " " : ",",
			    json_string_value(s));
		if (json_array_size(json_object_get(v, "spaces")) == 0)
			printf(" -");
		if (json_is_true(json_object_get(v, "current")))
			printf(" (current)");
		putchar('\n');
	}
}

static void
out_tools(const struct ctl_tools_info *ti, json_t *vols)
{
	const char	*d, *nl;

	if (env->sc_json) {
		out_json(json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:O}",
		    "agent", ti->ti_agent,
		    "key", ti->ti_key[0] != '\0' ? ti->ti_key : NULL,
		    "volume", ti->ti_volume[0] != '\0' ? ti->ti_volume : NULL,
		    "label", ti->ti_label[0] != '\0' ? ti->ti_label : NULL,
		    "description", ti->ti_description[0] != '\0' ?
		    ti->ti_description : NULL, "volumes", vols));
		return;
	}
	if (ti->ti_key[0] != '\0') {
		printf("agent %s: key %s, %s\n  volume %s\n", ti->ti_agent,
		    ti->ti_key, ti->ti_label, ti->ti_volume);
		for (d = ti->ti_description; *d != '\0'; d = nl + 1) {
			if ((nl = strchr(d, '\n')) == NULL)
				nl = d + strlen(d) - 1;
			printf("  | %.*s\n", (int)(nl - d + (*nl != '\n')), d);
		}
	} else
		printf("agent %s: no key (the profile or the filler could "
		    "not be read; see the log of spaced)\n", ti->ti_agent);
	tools_volumes_text(vols);
}

static void
out_tools_filled(const struct tools_done *td)
{
	if (env->sc_json)
		out_json(json_pack("{s:s, s:s, s:b, s:i}", "volume",
		    td->td_volume, "key", td->td_key, "filled",
		    td->td_filled != 0, "pruned", td->td_pruned));
	else
		printf("%s %s (key %s)%s\n", td->td_filled ? "filled" :
		    "ready", td->td_volume, td->td_key,
		    td->td_pruned > 0 ? ", old volumes pruned" : "");
}

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
	ctl_req_set(&tc.tc_req, fill ? IMSG_CTL_TOOLS_FILL : IMSG_CTL_TOOLS, &ct,
	    sizeof(ct), &tc, tools_data);
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
