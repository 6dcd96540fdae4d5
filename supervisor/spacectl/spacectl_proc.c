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
 * The commands about spaced itself: status, privileges, check, probe,
 * ping, verbose, and stream-test (the client as a stream's sink).
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_proto.h"
#include "proc.h"
#include "spacectl.h"
#include "spacectl_output.h"
#include "stream.h"

static const char *probe_calls[] = {
	[PROBE_EXECVE] = "execve", [PROBE_OPEN] = "open",
	[PROBE_SOCKET] = "socket", [PROBE_CONNECT] = "connect",
	[PROBE_FORK] = "fork",
};
static const char *probe_procs[] = {
	[PROC_DOCKER] = "docker", [PROC_GIT] = "git",
	[PROC_JOURNAL] = "journal",
};

/* One request of these commands and what its answer gathers. */
struct proc_call {
	struct ctl_req		 pc_req;
	json_t			*pc_rows;	/* -j */
	char			 pc_code[CTL_CODE_MAX];	/* a failure's */
	int			 pc_bad;
	int			 pc_headed;	/* a table's head, at its first row */
	/* stream-test */
	struct ctl_stream_test	 pc_test;
	struct stream_rx	 pc_sink;
	int			 pc_started;
	uint64_t		 pc_corrupt;
	/* check: the native place's record, apart from Docker's */
	struct docker_check_msg	 pc_native;
	int			 pc_have_native;
};

static int
lookup(const char **names, size_t n, const char *want)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], want) == 0)
			return (int)i;
	return -1;
}

static void
proc_init(struct proc_call *pc, int argc, int nargs, uint32_t type,
    const void *payload, size_t len,
    void (*data)(struct ctl_req *, struct imsg *))
{
	if (argc - 1 != nargs)
		usage();
	ctl_req_set(&pc->pc_req, type, payload, len, pc, data);
	pc->pc_rows = json_array();
}

/* After the END: -j's object, then the exit status. */
static int
proc_done(struct proc_call *pc)
{
	json_decref(pc->pc_rows);
	if (pc->pc_bad) {
		out_error(pc->pc_code);
		return 1;
	}
	return 0;
}

static void
status_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	struct ctl_proc		 cp;

	if (imsg_get_data(imsg, &cp, sizeof(cp)) == -1)
		failed("bad_answer", "unexpected data");
	if (!pc->pc_headed++)
		out_status_head();
	out_status(&cp, pc->pc_rows);
}

int
status_main(int argc, char *argv[])
{
	struct proc_call	 pc;

	memset(&pc, 0, sizeof(pc));
	proc_init(&pc, argc, 0, IMSG_CTL_STATUS, NULL, 0, status_data);
	ctl_send(&pc.pc_req, connect_socket(env->sc_socket));
	ctl_wait(&pc.pc_req);
	out_processes(pc.pc_rows);
	return proc_done(&pc);
}

static void
privileges_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	struct ctl_privileges	 cv;

	if (imsg_get_data(imsg, &cv, sizeof(cv)) == -1)
		failed("bad_answer", "unexpected data");
	/* Not before: a refusal prints no table (it printed its head). */
	if (!pc->pc_headed++)
		out_privileges_head();
	out_privileges(&cv, pc->pc_rows);
}

int
privileges_main(int argc, char *argv[])
{
	struct proc_call	 pc;

	memset(&pc, 0, sizeof(pc));
	proc_init(&pc, argc, 0, IMSG_CTL_PRIVILEGES, NULL, 0, privileges_data);
	ctl_send(&pc.pc_req, connect_socket(env->sc_socket));
	ctl_wait(&pc.pc_req);
	out_processes(pc.pc_rows);
	return proc_done(&pc);
}

static void
check_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	struct docker_check_msg	 dc;

	if (imsg_get_data(imsg, &dc, sizeof(dc)) == -1)
		failed("bad_answer", "unexpected data");
	/* The native place's comes in any order: shown after Docker's. */
	if (strcmp(nstr(dc.dc_version, sizeof(dc.dc_version)), "native") ==
	    0 || (!dc.dc_available && strcmp(nstr(dc.dc_code,
	    sizeof(dc.dc_code)), "sandbox_unavailable") == 0)) {
		pc->pc_native = dc;
		pc->pc_have_native = 1;
		return;
	}
	out_check(&dc, pc->pc_rows);
	/* Of several records, the last one's code is shown. */
	strlcpy(pc->pc_code, dc.dc_code, sizeof(pc->pc_code));
	if (!dc.dc_available)
		pc->pc_bad = 1;
}

int
check_main(int argc, char *argv[])
{
	struct proc_call	 pc;

	memset(&pc, 0, sizeof(pc));
	proc_init(&pc, argc, 0, IMSG_CTL_CHECK, NULL, 0, check_data);
	ctl_call(&pc.pc_req);
	if (pc.pc_have_native)
		out_check_native(&pc.pc_native, pc.pc_rows);
	out_first_row(pc.pc_rows);
	return proc_done(&pc);
}

static void
probe_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	struct probe_msg	 pm;

	if (imsg_get_data(imsg, &pm, sizeof(pm)) == -1)
		failed("bad_answer", "unexpected data");
	out_probe(pm.pr_proc < PROC_MAX && probe_procs[pm.pr_proc] != NULL ?
	    probe_procs[pm.pr_proc] : "?", pm.pr_call <= PROBE_FORK ?
	    probe_calls[pm.pr_call] : "?", pm.pr_errno, pc->pc_rows);
}

int
probe_main(int argc, char *argv[])
{
	struct proc_call	 pc;
	struct probe_msg	 pm;
	int			 p;

	memset(&pc, 0, sizeof(pc));
	memset(&pm, 0, sizeof(pm));
	proc_init(&pc, argc, 2, IMSG_CTL_PROBE, &pm, sizeof(pm), probe_data);
	if ((p = lookup(probe_procs, PROC_MAX, argv[1])) == -1)
		usage();
	pm.pr_proc = p;
	if ((p = lookup(probe_calls, PROBE_FORK + 1, argv[2])) == -1)
		usage();
	pm.pr_call = p;
	ctl_call(&pc.pc_req);
	out_first_row(pc.pc_rows);
	return proc_done(&pc);
}

/* ping and verbose: END is the whole answer. */
static int
proc_empty(struct proc_call *pc)
{
	ctl_call(&pc->pc_req);
	out_empty();
	return proc_done(pc);
}

int
ping_main(int argc, char *argv[])
{
	struct proc_call	 pc;
	struct ping_msg		 pg;
	int			 p;

	memset(&pc, 0, sizeof(pc));
	memset(&pg, 0, sizeof(pg));
	proc_init(&pc, argc, 1, IMSG_CTL_PING, &pg, sizeof(pg), NULL);
	if ((p = lookup(probe_procs, PROC_MAX, argv[1])) == -1)
		usage();
	pg.pg_proc = p;
	return proc_empty(&pc);
}

int
verbose_main(int argc, char *argv[])
{
	struct proc_call	 pc;
	struct ctl_verbose	 cvb;
	const char		*errstr;

	memset(&pc, 0, sizeof(pc));
	memset(&cvb, 0, sizeof(cvb));
	proc_init(&pc, argc, 1, IMSG_CTL_VERBOSE, &cvb, sizeof(cvb), NULL);
	cvb.cv_level = strtonum(argv[1], 0, 3, &errstr);
	if (errstr != NULL)
		usage();
	return proc_empty(&pc);
}

/*
 * The client as a stream's sink: every chunk must be the pattern at its
 * offset, and credit goes back as we consume, so spaced holds at most a
 * window for us however slowly we read.
 */
static void
sink_take(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	const uint8_t		*data;
	size_t			 len;
	uint64_t		 offset;

	if (imsg_get_type(imsg) == IMSG_STREAM_CREDIT)
		failed("bad_answer", "unknown message");
	if (pc->pc_test.ct_sink != CTL_SINK_CLIENT)
		failed("bad_answer", "unasked stream");
	if (!pc->pc_started) {
		stream_rx_init(&pc->pc_sink, imsg_get_peerid(imsg));
		pc->pc_started = 1;
	}
	if (imsg_get_type(imsg) == IMSG_STREAM_END) {
		if (stream_rx_end(&pc->pc_sink, imsg) == -1)
			failed("bad_answer", "stream end");
		return;
	}
	offset = pc->pc_sink.sr_received;
	if (stream_rx_data(&pc->pc_sink, imsg, &data, &len) == -1)
		failed("bad_answer", "stream data");
	if (memcmp(data, stream_test_pattern(offset), len) != 0)
		pc->pc_corrupt++;
	if (stream_rx_consumed(&pc->pc_sink, &cr->cr_ibuf, len) == -1 ||
	    imsgbuf_flush(&cr->cr_ibuf) == -1)
		failed("send", strerror(errno));
}

/* The sink must have got every byte, each as sent. */
static void
stream_test_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct proc_call	*pc = cr->cr_arg;
	const struct ctl_stream_test *sent = &pc->pc_test;
	struct ctl_stream_test	 got;
	uint64_t		 bad;
	int			 client = sent->ct_sink == CTL_SINK_CLIENT;
	int			 intact;

	if (imsg_get_data(imsg, &got, sizeof(got)) == -1)
		failed("bad_answer", "unexpected data");
	bad = got.ct_bad;
	if (client) {
		bad = pc->pc_corrupt;
		if (!pc->pc_sink.sr_ended ||
		    pc->pc_sink.sr_received != got.ct_bytes)
			bad++;
	}
	intact = got.ct_bytes == sent->ct_bytes && bad == 0;
	out_stream_test(client ? "spacectl" : "spaced-journal",
	    got.ct_bytes, intact, &got, pc->pc_rows);
	if (!intact) {
		pc->pc_bad = 1;
		strlcpy(pc->pc_code, "stream_corrupted", sizeof(pc->pc_code));
	}
}

int
stream_test_main(int argc, char *argv[])
{
	struct proc_call	 pc;
	struct ctl_stream_test	*tm = &pc.pc_test;
	const char		*errstr;

	memset(&pc, 0, sizeof(pc));
	if (argc != 2 && argc != 3)
		usage();
	proc_init(&pc, argc, argc - 1, IMSG_CTL_STREAM_TEST, tm, sizeof(*tm),
	    stream_test_data);
	tm->ct_bytes = strtonum(argv[1], 0, 65536, &errstr) << 20;
	if (errstr != NULL)
		usage();
	if (argc == 3 && strcmp(argv[2], "client") == 0)
		tm->ct_sink = CTL_SINK_CLIENT;
	else if (argc == 3 && strcmp(argv[2], "journal") != 0)
		usage();
	pc.pc_req.cr_stream = sink_take;
	ctl_call(&pc.pc_req);
	out_first_row(pc.pc_rows);
	return proc_done(&pc);
}
