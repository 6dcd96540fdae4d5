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
 * spacectl tools [-a agent]: the current content key of the profile,
 * its canonical description, and the caller's tools volumes (key,
 * whether filled, the spaces that mount each).  spacectl tools fill
 * [-a agent]: the ensure, filling the volume when it must, so tools can
 * be made ready before a create.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "spacectl.h"

static const char *const states[] = {
	[TOOLS_STATE_FILLED] = "filled",
	[TOOLS_STATE_EMPTY] = "empty",
	[TOOLS_STATE_MISMATCH] = "mismatch",
	[TOOLS_STATE_UNKNOWN] = "unknown",
};

struct tools_out {
	struct ctl_tools_info	 ti;
	int			 have_ti;
	json_t			*vols;
	struct tools_done	 td;
	int			 have_td;
};

static __dead void
usage_tools(void)
{
	fprintf(stderr, "usage: spacectl [-j] tools [fill] [-a agent]\n");
	exit(2);
}

static void
terminate(char *s, size_t len)
{
	s[len - 1] = '\0';
}

static void
tools_record(struct imsg *imsg, void *arg)
{
	struct tools_out		*to = arg;
	struct tools_volume_info	 vi;
	json_t				*spaces, *o;
	uint32_t			 i;

	switch (imsg_get_len(imsg)) {
	case sizeof(struct ctl_tools_info):
		(void)imsg_get_data(imsg, &to->ti, sizeof(to->ti));
		terminate(to->ti.ti_agent, sizeof(to->ti.ti_agent));
		terminate(to->ti.ti_key, sizeof(to->ti.ti_key));
		terminate(to->ti.ti_volume, sizeof(to->ti.ti_volume));
		terminate(to->ti.ti_label, sizeof(to->ti.ti_label));
		terminate(to->ti.ti_description,
		    sizeof(to->ti.ti_description));
		to->have_ti = 1;
		break;
	case sizeof(struct tools_volume_info):
		(void)imsg_get_data(imsg, &vi, sizeof(vi));
		terminate(vi.tv_name, sizeof(vi.tv_name));
		terminate(vi.tv_key, sizeof(vi.tv_key));
		terminate(vi.tv_description, sizeof(vi.tv_description));
		terminate(vi.tv_created, sizeof(vi.tv_created));
		if (vi.tv_state < TOOLS_STATE_FILLED ||
		    vi.tv_state > TOOLS_STATE_UNKNOWN ||
		    vi.tv_nmounts > TOOLS_MOUNTS_MAX)
			failed("bad_answer", "a tools volume");
		spaces = json_array();
		for (i = 0; i < vi.tv_nmounts; i++) {
			terminate(vi.tv_mounts[i], sizeof(vi.tv_mounts[i]));
			json_array_append_new(spaces,
			    json_string(vi.tv_mounts[i]));
		}
		o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:b, s:b}",
		    "name", vi.tv_name, "key", vi.tv_key,
		    "description", vi.tv_description,
		    "created", vi.tv_created,
		    "state", states[vi.tv_state], "spaces", spaces,
		    "moreSpaces", vi.tv_more != 0,
		    "current", to->have_ti &&
		    strcmp(vi.tv_key, to->ti.ti_key) == 0);
		if (o != NULL)
			json_array_append_new(to->vols, o);
		break;
	case sizeof(struct tools_done):
		(void)imsg_get_data(imsg, &to->td, sizeof(to->td));
		terminate(to->td.td_volume, sizeof(to->td.td_volume));
		terminate(to->td.td_key, sizeof(to->td.td_key));
		to->have_td = 1;
		break;
	default:
		failed("bad_answer", "an unknown record");
	}
}

static void
print_list(struct tools_out *to, int json)
{
	json_t		*o, *v, *s;
	size_t		 i, j;
	const char	*d, *nl;

	if (json) {
		o = json_pack("{s:s, s:s?, s:s?, s:s?, s:s?, s:O}",
		    "agent", to->ti.ti_agent,
		    "key", to->ti.ti_key[0] != '\0' ? to->ti.ti_key : NULL,
		    "volume", to->ti.ti_volume[0] != '\0' ? to->ti.ti_volume :
		    NULL,
		    "label", to->ti.ti_label[0] != '\0' ? to->ti.ti_label :
		    NULL,
		    "description", to->ti.ti_description[0] != '\0' ?
		    to->ti.ti_description : NULL,
		    "volumes", to->vols);
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
		return;
	}
	if (to->ti.ti_key[0] != '\0') {
		printf("agent %s: key %s, %s\n  volume %s\n", to->ti.ti_agent,
		    to->ti.ti_key, to->ti.ti_label, to->ti.ti_volume);
		for (d = to->ti.ti_description; *d != '\0'; d = nl + 1) {
			if ((nl = strchr(d, '\n')) == NULL)
				nl = d + strlen(d) - 1;
			printf("  | %.*s\n", (int)(nl - d + (*nl != '\n')), d);
		}
	} else
		printf("agent %s: no key (the profile or the filler could "
		    "not be read; see the log of spaced)\n", to->ti.ti_agent);
	printf("%-60s %-16s %-8s %s\n", "VOLUME", "KEY", "STATE", "SPACES");
	json_array_foreach(to->vols, i, v) {
		printf("%-60s %-16s %-8s", json_string_value(json_object_get(v,
		    "name")), json_string_value(json_object_get(v, "key")),
		    json_string_value(json_object_get(v, "state")));
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

int
tools_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct ctl_tools	 ct;
	struct tools_out	 to;
	json_t			*o;
	int			 ch, fill = 0, s;

	memset(&ct, 0, sizeof(ct));
	memset(&to, 0, sizeof(to));
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
				usage_tools();
			break;
		default:
			usage_tools();
		}
	}
	if (optind != argc)
		usage_tools();
	to.vols = json_array();
	s = connect_socket(sockpath);
	ctl_call(s, fill ? IMSG_CTL_TOOLS_FILL : IMSG_CTL_TOOLS, &ct,
	    sizeof(ct), json, tools_record, &to);
	close(s);
	if (!fill) {
		if (!to.have_ti)
			failed("bad_answer", "no key");
		print_list(&to, json);
		json_decref(to.vols);
		return 0;
	}
	if (!to.have_td)
		failed("bad_answer", "no tools answer");
	if (json) {
		o = json_pack("{s:s, s:s, s:b, s:i}", "volume",
		    to.td.td_volume, "key", to.td.td_key, "filled",
		    to.td.td_filled != 0, "pruned", to.td.td_pruned);
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else
		printf("%s %s (key %s)%s\n", to.td.td_filled ? "filled" :
		    "ready", to.td.td_volume, to.td.td_key,
		    to.td.td_pruned > 0 ? ", old volumes pruned" : "");
	json_decref(to.vols);
	return 0;
}
