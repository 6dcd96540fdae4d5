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
 * spacectl journal ID [-f]: what spaced-journal keeps of a space's
 * gatekeeper records.  An answer holds at most JOURNAL_READ_MAX
 * records; the rest is asked for from where it stopped, on the same
 * connection.  -f asks again every two seconds and shows what is new.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define JR_FOLLOW_S	2

struct journal_read {
	struct ctl_req		 jr_req;
	struct ctl_journal	 jr_ask;
	json_t			*jr_records;	/* -j, else NULL */
	struct journal_counts	 jr_counts;
	int			 jr_have_counts;
};

static void
journal_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct journal_read	*jr = cr->cr_arg;
	struct journal_entry	 je;
	size_t			 len = imsg_get_len(imsg);

	if (len == sizeof(je)) {
		ctl_read(imsg, &je, sizeof(je));
		je.je_at[sizeof(je.je_at) - 1] = '\0';
		je.je_listener[sizeof(je.je_listener) - 1] = '\0';
		je.je_host[sizeof(je.je_host) - 1] = '\0';
		je.je_decision[sizeof(je.je_decision) - 1] = '\0';
		out_journal_entry(&je, jr->jr_records);
		jr->jr_ask.cj_from++;
	} else if (len == sizeof(jr->jr_counts)) {
		ctl_read(imsg, &jr->jr_counts, sizeof(jr->jr_counts));
		jr->jr_have_counts = 1;
	} else if (!ctl_take_done(cr, imsg))
		failed("bad_answer", "unknown record");
}

/* One request from where the last stopped; 1 when there is more. */
static int
journal_ask(struct journal_read *jr, int s)
{
	struct journal_counts	*jc = &jr->jr_counts;

	jr->jr_have_counts = 0;
	ctl_send(&jr->jr_req, s);
	ctl_wait(&jr->jr_req);
	if (!jr->jr_have_counts)
		failed("bad_answer", "no counts");
	return jc->jc_from + jc->jc_sent < jc->jc_records && jc->jc_sent > 0;
}

/* Everything from cj_from on, into a new jr_records when -j. */
static void
journal_fetch(struct journal_read *jr, int s)
{
	if (env->sc_json && (jr->jr_records = json_array()) == NULL)
		failed("internal_error", "json");
	while (journal_ask(jr, s))
		;
}

int
journal_main(int argc, char *argv[])
{
	struct journal_read	 jr;
	int			 follow = 0, s;

	if (argc == 3 && strcmp(argv[2], "-f") == 0)
		follow = 1;
	else if (argc != 2)
		usage();
	if (!space_id_valid(argv[1]))
		failed("invalid_space_id", "an ID is 12 lowercase hex "
		    "characters");
	memset(&jr, 0, sizeof(jr));
	strlcpy(jr.jr_ask.cj_id, argv[1], sizeof(jr.jr_ask.cj_id));
	jr.jr_req.cr_type = IMSG_CTL_JOURNAL;
	jr.jr_req.cr_payload = &jr.jr_ask;
	jr.jr_req.cr_len = sizeof(jr.jr_ask);
	jr.jr_req.cr_arg = &jr;
	jr.jr_req.cr_data = journal_data;
	s = connect_socket(env->sc_socket);
	journal_fetch(&jr, s);
	out_journal(jr.jr_records, &jr.jr_counts, follow);
	json_decref(jr.jr_records);
	fflush(stdout);
	while (follow) {
		sleep(JR_FOLLOW_S);
		journal_fetch(&jr, s);
		if (jr.jr_records != NULL &&
		    json_array_size(jr.jr_records) > 0)
			out_journal(jr.jr_records, &jr.jr_counts, follow);
		json_decref(jr.jr_records);
		fflush(stdout);
	}
	close(s);
	return 0;
}
