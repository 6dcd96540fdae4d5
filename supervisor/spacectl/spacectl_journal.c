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
 * spacectl journal ID [-f]
 *
 * What spaced-journal keeps of a space's gatekeeper records, one line a
 * record ("at listener host:port decision"), or with -j one object:
 * {"records": [...], "malformed": N, "dropped": N}.  An answer holds at
 * most JOURNAL_READ_MAX records; the rest is asked for from where it
 * stopped.  -f asks again every two seconds and shows only what is new,
 * until interrupted (with -j, one object a line for each poll that
 * found something).
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "labels.h"
#include "spacectl.h"

#define JR_WAIT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)
#define JR_FOLLOW_S	2

static __dead void
usage_journal(void)
{
	fprintf(stderr, "usage: spacectl [-j] journal ID [-f]\n");
	exit(2);
}

static void
jr_print(const struct journal_entry *je, json_t *records)
{
	json_t	*o;

	if (records == NULL) {
		printf("%s %s %s:%u %s\n", je->je_at, je->je_listener,
		    je->je_host, (unsigned)je->je_port, je->je_decision);
		return;
	}
	if ((o = json_pack("{s:s, s:s, s:s, s:i, s:s}", "at", je->je_at,
	    "listener", je->je_listener, "host", je->je_host, "port",
	    (json_int_t)je->je_port, "decision", je->je_decision)) == NULL ||
	    json_array_append_new(records, o) == -1)
		failed("internal_error", "json");
}

/*
 * One request from *from on: its records printed (text) or added to
 * records (-j), *from moved past them, the counts in *jc.  Returns 1
 * when the journal holds more than this answer carried.
 */
static int
jr_call(int s, const char *id, uint64_t *from, json_t *records, int json,
    struct journal_counts *jc)
{
	struct imsgbuf		 ibuf;
	struct imsg		 imsg;
	struct pollfd		 pfd;
	struct ctl_journal	 cj;
	struct journal_entry	 je;
	struct space_done	 sd;
	struct ctl_fail		 cf;
	ssize_t			 n;
	size_t			 len;
	int			 have_done = 0, have_counts = 0;

	memset(&cj, 0, sizeof(cj));
	strlcpy(cj.cj_id, id, sizeof(cj.cj_id));
	cj.cj_from = *from;
	imsgbuf_init(&ibuf, s);
	if (imsg_compose(&ibuf, IMSG_CTL_JOURNAL, CTL_PEERID(0), getpid(),
	    -1, &cj, sizeof(cj)) == -1 || imsgbuf_flush(&ibuf) == -1)
		failed("send", strerror(errno));
	pfd.fd = s;
	pfd.events = POLLIN;
	for (;;) {
		if ((n = poll(&pfd, 1, JR_WAIT_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0)
			request_failed(json, ERR_TIMEOUT, "spaced did not answer");
		if ((n = imsgbuf_read(&ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (n == 0)
			request_failed(json, "connection_closed", "spaced closed "
			    "the connection");
		while ((n = imsgbuf_get(&ibuf, &imsg)) > 0) {
			if (imsg_get_peerid(&imsg) != CTL_PEERID(0))
				failed("bad_answer", "another request's");
			len = imsg_get_len(&imsg);
			switch (imsg_get_type(&imsg)) {
			case IMSG_CTL_PROGRESS:
				break;
			case IMSG_CTL_DATA:
				if (len == sizeof(je)) {
					(void)imsg_get_data(&imsg, &je,
					    sizeof(je));
					je.je_at[sizeof(je.je_at) - 1] = '\0';
					je.je_listener[sizeof(je.je_listener) -
					    1] = '\0';
					je.je_host[sizeof(je.je_host) - 1] =
					    '\0';
					je.je_decision[sizeof(je.je_decision) -
					    1] = '\0';
					jr_print(&je, records);
					(*from)++;
				} else if (len == sizeof(*jc)) {
					(void)imsg_get_data(&imsg, jc,
					    sizeof(*jc));
					have_counts = 1;
				} else if (len == sizeof(sd)) {
					(void)imsg_get_data(&imsg, &sd,
					    sizeof(sd));
					sd.sd_message[sizeof(sd.sd_message) -
					    1] = '\0';
					have_done = 1;
				} else
					failed("bad_answer", "unknown record");
				break;
			case IMSG_CTL_END:
				imsg_free(&imsg);
				imsgbuf_clear(&ibuf);
				if (!have_counts)
					failed("bad_answer", "no counts");
				return jc->jc_from + jc->jc_sent <
				    jc->jc_records && jc->jc_sent > 0;
			case IMSG_CTL_FAIL:
				if (imsg_get_data(&imsg, &cf, sizeof(cf)) == -1)
					failed("bad_answer", NULL);
				cf.cf_code[sizeof(cf.cf_code) - 1] = '\0';
				request_failed(json, cf.cf_code, have_done ?
				    sd.sd_message : NULL);
			default:
				failed("bad_answer", "unknown message");
			}
			imsg_free(&imsg);
		}
		if (n == -1)
			failed("bad_answer", strerror(errno));
	}
}

/* Everything from *from on; the records array when -j. */
static json_t *
jr_fetch(int s, const char *id, uint64_t *from, int json,
    struct journal_counts *jc)
{
	json_t	*records = NULL;

	if (json && (records = json_array()) == NULL)
		failed("internal_error", "json");
	while (jr_call(s, id, from, records, json, jc))
		;
	return records;
}

static void
jr_show(json_t *records, const struct journal_counts *jc)
{
	json_t	*o;

	o = json_pack("{s:o, s:I, s:I}", "records", records, "malformed",
	    (json_int_t)jc->jc_malformed, "dropped",
	    (json_int_t)jc->jc_dropped);
	if (o == NULL)
		failed("internal_error", "json");
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
}

int
journal_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct journal_counts	 jc;
	json_t			*records, *o;
	uint64_t		 from = 0;
	int			 follow = 0, s;

	if (argc == 3 && strcmp(argv[2], "-f") == 0)
		follow = 1;
	else if (argc != 2)
		usage_journal();
	if (!space_id_valid(argv[1]))
		failed("invalid_space_id", "an ID is 12 lowercase hex "
		    "characters");
	s = connect_socket(sockpath);
	records = jr_fetch(s, argv[1], &from, json, &jc);
	if (json && !follow)
		jr_show(records, &jc);
	else if (json) {
		o = json_pack("{s:o, s:I}", "records", records, "malformed",
		    (json_int_t)jc.jc_malformed);
		if (o == NULL)
			failed("internal_error", "json");
		json_dumpf(o, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(o);
	} else if (!follow && (jc.jc_malformed > 0 || jc.jc_dropped > 0))
		fprintf(stderr, "spacectl: %llu malformed and %llu dropped "
		    "lines in the gatekeeper's log\n",
		    (unsigned long long)jc.jc_malformed,
		    (unsigned long long)jc.jc_dropped);
	fflush(stdout);
	while (follow) {
		sleep(JR_FOLLOW_S);
		records = jr_fetch(s, argv[1], &from, json, &jc);
		if (records != NULL && json_array_size(records) > 0) {
			o = json_pack("{s:O, s:I}", "records", records,
			    "malformed", (json_int_t)jc.jc_malformed);
			if (o == NULL)
				failed("internal_error", "json");
			json_dumpf(o, stdout, JSON_COMPACT);
			putchar('\n');
			json_decref(o);
		}
		json_decref(records);
		fflush(stdout);
	}
	close(s);
	return 0;
}
