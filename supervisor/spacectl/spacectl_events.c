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
 * events [-f]: what spaced did, one line an event (-j: one JSON object
 * a line), the caller's own spaces' (root: all); -f follows.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ctl_proto.h"
#include "spacectl.h"
#include "spacectl_output.h"

static void
events_at(int64_t ms, char *buf, size_t len)
{
	time_t		 t = (time_t)(ms / 1000);
	struct tm	 tm;
	char		 s[32];

	gmtime_r(&t, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", s, (int)(ms % 1000));
}

static void
events_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct ctl_event	 ev;
	const char		*kind, *space, *detail;
	char			 at[48], about[SPACE_ID_SIZE + 16], line[400];
	int			 n;

	ctl_read(imsg, &ev, sizeof(ev));
	kind = nstr(ev.ev_kind, sizeof(ev.ev_kind));
	space = nstr(ev.ev_space, sizeof(ev.ev_space));
	detail = nstr(ev.ev_detail, sizeof(ev.ev_detail));
	events_at(ev.ev_time, at, sizeof(at));
	/*
	 * An event about no space (a reload, a spaced-git's death) has no
	 * space field at all, in text as in -j: an empty one read as a
	 * space of no name.
	 */
	if (env->sc_json) {
		/* uid null: spaced's own event */
		out_json_line(json_pack("{s:I, s:s, s:s, s:s*, s:o, s:s}",
		    "seq", (json_int_t)ev.ev_seq, "time", at, "kind", kind,
		    "space", space[0] != '\0' ? space : NULL, "uid",
		    ev.ev_uid == CTL_EVENT_NO_UID ? json_null() :
		    json_integer(ev.ev_uid), "detail", detail));
		fflush(stdout);
		return;
	}
	if (space[0] != '\0')
		snprintf(about, sizeof(about), "%-12s ", space);
	else
		about[0] = '\0';
	if (ev.ev_uid == CTL_EVENT_NO_UID)
		n = snprintf(line, sizeof(line), "%s %-14s %s%-10s %s\n",
		    at, kind, about, "spaced", detail);
	else
		n = snprintf(line, sizeof(line), "%s %-14s %suid %-6u %s\n",
		    at, kind, about, (unsigned)ev.ev_uid, detail);
	/* What a space named may hold escapes: the terminal is spared. */
	out_outside(stdout, line, n > 0 && (size_t)n < sizeof(line) ?
	    (size_t)n : strlen(line), 1);
	fflush(stdout);
}

int
events_main(int argc, char *argv[])
{
	struct ctl_events_req	 ce;
	struct ctl_req		 cr;
	int			 i;

	memset(&ce, 0, sizeof(ce));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-f") == 0)
			ce.ce_flags |= CTL_EVENTS_FOLLOW;
		else if (strcmp(argv[i], "-j") == 0)
			env->sc_json = 1;
		else
			usage();
	}
	memset(&cr, 0, sizeof(cr));
	ctl_req_set(&cr, IMSG_CTL_EVENTS, &ce, sizeof(ce), NULL, events_data);
	ctl_call(&cr);
	return 0;
}
