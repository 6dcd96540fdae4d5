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
 * spacectl journal ID [-f] [-j] [--since T] [--verify]: what
 * spaced-journal keeps of a space's gatekeeper records.  An answer
 * holds at most JOURNAL_READ_MAX records; the rest is asked for from
 * where it stopped, on the same connection.  -f asks again every two
 * seconds; -j is one JSON object a line (docs/journal-schema.md).
 */

#include <sys/types.h>

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define JR_FOLLOW_S	2

struct journal_read {
	struct ctl_req		 jr_req;
	struct ctl_journal	 jr_ask;
	const char		*jr_id;
	const char		*jr_since;	/* records before it not shown */
	int			 jr_lines;	/* -j after the ID: OCSF lines */
	json_t			*jr_records;	/* -j before it, else NULL */
	struct journal_counts	 jr_counts;
	int			 jr_have_counts;
	struct journal_verdict	 jr_verdict;
	int			 jr_have_verdict;
};

/* "2026-12-03T19:19:20.569Z" in milliseconds since the epoch. */
static long long
at_ms(const char *at)
{
	struct tm	 tm;
	const char	*p;

	memset(&tm, 0, sizeof(tm));
	if ((p = strptime(at, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL ||
	    *p != '.')
		return 0;
	return (long long)timegm(&tm) * 1000 + atoi(p + 1);
}

/* T of --since: a prefix of "2026-12-06T04:00:00.000Z", digits as there. */
static int
since_valid(const char *t)
{
	const char	*form = "0000-00-00T00:00:00.000Z";
	size_t		 i;

	if (*t == '\0' || strlen(t) > strlen(form))
		return 0;
	for (i = 0; t[i] != '\0'; i++)
		if (form[i] == '0' ? !isdigit((unsigned char)t[i]) :
		    t[i] != form[i])
			return 0;
	return 1;
}

/* One record as OCSF Network Activity (class 4001), one line. */
static void
journal_ocsf(const struct journal_entry *je, const char *id)
{
	int	 own = strcmp(je->je_listener, "journal") == 0;
	/* A restart of the agent's server: the space's word, no connection */
	int	 server = strcmp(je->je_listener, "server") == 0;
	int	 other = own || server;
	int	 allow = strcmp(je->je_decision, "allow") == 0;
	int	 deny = strncmp(je->je_decision, "deny", 4) == 0;

	out_json_line(json_pack("{s:i, s:s, s:i, s:s, s:i, s:s, s:i, s:I, "
	    "s:i, s:i, s:s, s:i, s:s, s:i, s:s, s:{s:s, s:i}, s:{s:s}, "
	    "s:{s:s, s:I, s:s, s:s, s:{s:s, s:s, s:{s:s}}}, "
	    "s:{s:s, s:s}}",
	    "class_uid", 4001, "class_name", "Network Activity",
	    "category_uid", 4, "category_name", "Network Activity",
	    "activity_id", other ? 99 : 1, "activity_name", other ? "Other" :
	    "Open", "type_uid", other ? 400199 : 400101,
	    "time", at_ms(je->je_at),
	    "count", (int)je->je_count,
	    "severity_id", own ? 4 : server ? 3 : allow ? 1 : 2,
	    "message", je->je_decision,
	    "status_id", allow ? 1 : other ? 99 : 2,
	    "status", allow ? "Success" : other ? "Other" : "Failure",
	    "disposition_id", allow ? 1 : deny ? 2 : other ? 0 : 1,
	    "disposition", allow ? "Allowed" : deny ? "Blocked" : other ?
	    "Unknown" : "Allowed",
	    "dst_endpoint", "hostname", je->je_host, "port", (int)je->je_port,
	    "src_endpoint", "uid", id,
	    "metadata", "version", "1.1.0",
	    "sequence", (json_int_t)je->je_seq,
	    "original_time", je->je_at, "log_name", "spaced-journal",
	    "product", "name", "spaced", "vendor_name", "spaced",
	    "feature", "name", je->je_listener,
	    "unmapped", "listener", je->je_listener,
	    "decision", je->je_decision));
}

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
		jr->jr_ask.cj_from = je.je_seq + 1;
		/* Where a file begins: the chain's, not the reader's. */
		if ((jr->jr_since != NULL &&
		    strcmp(je.je_at, jr->jr_since) < 0) ||
		    strcmp(je.je_decision, "journal:segment") == 0)
			return;
		if (jr->jr_lines)
			journal_ocsf(&je, jr->jr_id);
		else
			out_journal_entry(&je, jr->jr_records);
	} else if (len == sizeof(jr->jr_counts)) {
		ctl_read(imsg, &jr->jr_counts, sizeof(jr->jr_counts));
		jr->jr_have_counts = 1;
	} else if (len == sizeof(jr->jr_verdict)) {
		ctl_read(imsg, &jr->jr_verdict, sizeof(jr->jr_verdict));
		jr->jr_verdict.jv_reason[sizeof(jr->jr_verdict.jv_reason) -
		    1] = '\0';
		jr->jr_have_verdict = 1;
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
	return jc->jc_sent > 0 && jr->jr_ask.cj_from < jc->jc_records;
}

/* Everything from cj_from on, into a new jr_records when -j. */
static void
journal_fetch(struct journal_read *jr, int s)
{
	if (env->sc_json && !jr->jr_lines &&
	    (jr->jr_records = json_array()) == NULL)
		failed("internal_error", "json");
	while (journal_ask(jr, s))
		;
}

/* --verify: exit 1 when the chain is broken, naming where. */
static int
journal_verify(struct journal_read *jr, int s)
{
	struct journal_verdict	*jv = &jr->jr_verdict;

	jr->jr_ask.cj_flags = JOURNAL_VERIFY;
	journal_ask(jr, s);
	if (!jr->jr_have_verdict)
		failed("bad_answer", "no verdict");
	if (env->sc_json || jr->jr_lines)
		out_json_line(json_pack("{s:b, s:I, s:I, s:I, s:i, s:s}",
		    "verified", jv->jv_status == 0,
		    "records", (json_int_t)jv->jv_records,
		    "first", (json_int_t)jv->jv_first,
		    "broken_at", (json_int_t)(jv->jv_status == 0 ? -1 :
		    (json_int_t)jv->jv_seq),
		    "files", (int)jv->jv_segments, "reason", jv->jv_reason));
	else if (jv->jv_status == 0 && jv->jv_records == 0)
		printf("the chain holds: no records\n");
	else if (jv->jv_status == 0)
		printf("the chain holds: records %llu to %llu in %u files\n",
		    (unsigned long long)jv->jv_first,
		    (unsigned long long)(jv->jv_first + jv->jv_records - 1),
		    jv->jv_segments);
	else
		printf("broken at record %llu: %s\n",
		    (unsigned long long)jv->jv_seq, jv->jv_reason);
	return jv->jv_status == 0 ? 0 : 1;
}

static void
journal_args(struct journal_read *jr, int argc, char *argv[], int *follow,
    int *verify)
{
	int	 i;

	if (argc < 2)
		usage();
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-f") == 0)
			*follow = 1;
		else if (strcmp(argv[i], "-j") == 0)
			jr->jr_lines = 1;
		else if (strcmp(argv[i], "--verify") == 0)
			*verify = 1;
		else if (strcmp(argv[i], "--since") == 0) {
			if (i + 1 == argc)
				usage_why("--since needs a time");
			if (!since_valid(argv[i + 1]))
				usage_why("--since takes a UTC time "
				    "2026-12-06T04:00:00Z or a prefix of it");
			jr->jr_since = argv[++i];
		} else
			usage_why("journal takes -f, -j, --since T and "
			    "--verify after the ID");
	}
	if (*verify && *follow)
		usage_why("--verify and -f do not go together");
	check_space_id(argv[1]);
	jr->jr_id = argv[1];
}

int
journal_main(int argc, char *argv[])
{
	struct journal_read	 jr;
	int			 follow = 0, verify = 0, s, rv = 0;

	memset(&jr, 0, sizeof(jr));
	journal_args(&jr, argc, argv, &follow, &verify);
	strlcpy(jr.jr_ask.cj_id, argv[1], sizeof(jr.jr_ask.cj_id));
	ctl_req_set(&jr.jr_req, IMSG_CTL_JOURNAL, &jr.jr_ask, sizeof(jr.jr_ask),
	    &jr, journal_data);
	s = connect_socket(env->sc_socket);
	if (verify) {
		rv = journal_verify(&jr, s);
		close(s);
		return rv;
	}
	journal_fetch(&jr, s);
	if (!jr.jr_lines)
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
		jr.jr_records = NULL;
		fflush(stdout);
	}
	close(s);
	return 0;
}
