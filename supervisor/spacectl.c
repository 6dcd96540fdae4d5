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
 * spacectl: talks to spaced over its control socket.  Holds nothing,
 * parses only the fixed structs spaced answers with.
 */

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "imsg.h"
#include "log.h"
#include "ctl_proto.h"
#include "proc.h"
#include "stream.h"

/*
 * spaced sends PROGRESS at least every CTL_PROGRESS_SECONDS while a
 * request runs: silence for several of those means it is stuck.
 */
#define SPACECTL_TIMEOUT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)

enum cmd {
	CMD_STATUS, CMD_PRIVILEGES, CMD_CHECK, CMD_PROBE, CMD_VERBOSE,
	CMD_PING, CMD_STREAM_TEST
};

static const struct {
	const char	*name;
	enum cmd	 cmd;
	uint32_t	 type;
	int		 nargs;
} cmds[] = {
	{ "status",	CMD_STATUS,	IMSG_CTL_STATUS,	0 },
	{ "privileges",	CMD_PRIVILEGES,	IMSG_CTL_PRIVILEGES,	0 },
	{ "check",	CMD_CHECK,	IMSG_CTL_CHECK,		0 },
	{ "probe",	CMD_PROBE,	IMSG_CTL_PROBE,		2 },
	{ "verbose",	CMD_VERBOSE,	IMSG_CTL_VERBOSE,	1 },
	{ "ping",	CMD_PING,	IMSG_CTL_PING,		1 },
	{ "stream-test", CMD_STREAM_TEST, IMSG_CTL_STREAM_TEST,	1 },
	{ "stream-test", CMD_STREAM_TEST, IMSG_CTL_STREAM_TEST,	2 },
};

static const char *probe_calls[] = {
	[PROBE_EXECVE] = "execve", [PROBE_OPEN] = "open",
	[PROBE_SOCKET] = "socket", [PROBE_CONNECT] = "connect",
	[PROBE_FORK] = "fork",
};
static const char *probe_procs[] = {
	[PROC_DOCKER] = "docker", [PROC_GIT] = "git",
	[PROC_JOURNAL] = "journal",
};

static int	 jflag;
static json_t	*jrows;

static __dead void
usage(void)
{
	fprintf(stderr,
	    "usage: spacectl [-j] [-s socket] command\n"
	    "commands: status | privileges | check |\n"
	    "          probe docker|git|journal execve|open|socket|connect|fork |\n"
	    "          ping docker|git|journal | stream-test MiB [journal|client] |\n"
	    "          verbose level\n");
	exit(2);
}

static __dead void
failed(const char *code, const char *detail)
{
	if (detail != NULL)
		fprintf(stderr, "spacectl: %s: %s\n", code, detail);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	exit(1);
}

static int
lookup(const char **names, size_t n, const char *want)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], want) == 0)
			return (int)i;
	return -1;
}

static int
connect_socket(const char *path)
{
	struct sockaddr_un	 sun;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		failed("bad_socket_path", path);
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		failed("socket", strerror(errno));
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		fprintf(stderr, "spacectl: cannot reach spaced at %s: %s\n",
		    path, strerror(errno));
		exit(1);
	}
	return s;
}

static const char *
nstr(const char *s, size_t len)
{
	/* spaced NUL-terminates; a reply that does not is refused. */
	if (memchr(s, '\0', len) == NULL)
		failed("bad_answer", "unterminated string");
	return s;
}

static void
show_status(const struct ctl_proc *cp)
{
	const char	*name = nstr(cp->cp_name, sizeof(cp->cp_name));
	const char	*state = nstr(cp->cp_state, sizeof(cp->cp_state));
	const char	*detail = nstr(cp->cp_detail, sizeof(cp->cp_detail));
	char		 pid[16], counts[64];

	if (jflag) {
		json_t *o = json_pack("{s:s, s:s}", "name", name, "state",
		    state);
		if (cp->cp_pid > 0)
			json_object_set_new(o, "pid", json_integer(cp->cp_pid));
		if (detail[0] != '\0')
			json_object_set_new(o, "detail", json_string(detail));
		if (cp->cp_clients >= 0)
			json_object_set_new(o, "clients",
			    json_integer(cp->cp_clients));
		if (cp->cp_requests >= 0)
			json_object_set_new(o, "requests",
			    json_integer(cp->cp_requests));
		if (cp->cp_streams >= 0)
			json_object_set_new(o, "streams",
			    json_integer(cp->cp_streams));
		json_array_append_new(jrows, o);
		return;
	}
	if (cp->cp_pid > 0)
		snprintf(pid, sizeof(pid), "%d", cp->cp_pid);
	else
		strlcpy(pid, "-", sizeof(pid));
	if (cp->cp_clients >= 0) {
		snprintf(counts, sizeof(counts), "%d clients, %d requests, "
		    "%d streams", cp->cp_clients, cp->cp_requests,
		    cp->cp_streams);
		detail = counts;
	}
	printf("%-16s %-8s %-8s %s\n", name, pid, state, detail);
}

static void
show_privileges(const struct ctl_privileges *cv)
{
	const char	*name = nstr(cv->cv_name, sizeof(cv->cv_name));
	const char	*uid = nstr(cv->cv_uid, sizeof(cv->cv_uid));
	const char	*gid = nstr(cv->cv_gid, sizeof(cv->cv_gid));
	const char	*cap = nstr(cv->cv_capeff, sizeof(cv->cv_capeff));
	const char	*ll = nstr(cv->cv_landlock, sizeof(cv->cv_landlock));
	const char	*root = nstr(cv->cv_root, sizeof(cv->cv_root));

	if (jflag) {
		json_array_append_new(jrows, json_pack(
		    "{s:s, s:i, s:s, s:s, s:i, s:i, s:s, s:s, s:s, s:i}",
		    "name", name, "pid", cv->cv_pid, "uid", uid, "gid", gid,
		    "seccomp", cv->cv_seccomp, "noNewPrivs", cv->cv_nnp,
		    "capEff", cap, "landlock", ll, "root", root,
		    "fds", cv->cv_nfds));
		return;
	}
	printf("%-15s %-7d %-12s %-12s %-7d %-3d %-16s %-24s %-22s %d\n",
	    name, cv->cv_pid, uid, gid, cv->cv_seccomp, cv->cv_nnp, cap, ll,
	    root, cv->cv_nfds);
}

static int
show_check(const struct docker_check_msg *dc)
{
	const char	*code = nstr(dc->dc_code, sizeof(dc->dc_code));
	const char	*ver = nstr(dc->dc_version, sizeof(dc->dc_version));
	const char	*api = nstr(dc->dc_api_version,
			    sizeof(dc->dc_api_version));
	const char	*minapi = nstr(dc->dc_min_api_version,
			    sizeof(dc->dc_min_api_version));
	const char	*os = nstr(dc->dc_os, sizeof(dc->dc_os));
	const char	*arch = nstr(dc->dc_arch, sizeof(dc->dc_arch));

	if (jflag) {
		if (dc->dc_available)
			json_array_append_new(jrows, json_pack(
			    "{s:b, s:s, s:s, s:s, s:s, s:s, s:b}",
			    "available", 1, "version", ver, "apiVersion", api,
			    "minApiVersion", minapi, "os", os, "arch", arch,
			    "hostIsolation", dc->dc_host_isolation != 0));
		else
			json_array_append_new(jrows, json_pack("{s:b, s:s}",
			    "available", 0, "code", code));
	} else if (dc->dc_available)
		printf("docker: available\nversion: %s\napi version: %s "
		    "(minimum %s)\nos/arch: %s/%s\nhost isolation: %s\n",
		    ver, api, minapi, os, arch,
		    dc->dc_host_isolation ? "yes" : "no");
	else
		printf("docker: unavailable (%s)\n", code);
	return dc->dc_available ? 0 : -1;
}

static int
show_probe(const struct probe_msg *pm)
{
	const char	*proc = pm->pr_proc < PROC_MAX &&
			    probe_procs[pm->pr_proc] != NULL ?
			    probe_procs[pm->pr_proc] : "?";
	const char	*call = pm->pr_call <= PROBE_FORK ?
			    probe_calls[pm->pr_call] : "?";

	if (jflag)
		json_array_append_new(jrows, json_pack("{s:s, s:s, s:b, s:s}",
		    "process", proc, "call", call, "allowed",
		    pm->pr_errno == 0, "error",
		    pm->pr_errno == 0 ? "" : strerror(pm->pr_errno)));
	else if (pm->pr_errno == 0)
		printf("%s: %s was ALLOWED\n", proc, call);
	else
		printf("%s: %s failed: %s\n", proc, call,
		    strerror(pm->pr_errno));
	return 0;
}

/*
 * The client as a stream's sink: every chunk must be the pattern at its
 * offset, and credit goes back as we consume, so spaced holds at most a
 * window for us however slowly we read.
 */
static struct stream_rx	 sink_rx;
static int		 sink_started;
static uint64_t		 sink_bad;

static void
sink_take(struct imsgbuf *ibuf, struct imsg *imsg)
{
	const uint8_t	*data;
	size_t		 len;
	uint64_t	 offset;

	if (!sink_started) {
		stream_rx_init(&sink_rx, imsg_get_peerid(imsg));
		sink_started = 1;
	}
	if (imsg_get_type(imsg) == IMSG_STREAM_END) {
		if (stream_rx_end(&sink_rx, imsg) == -1)
			failed("bad_answer", "stream end");
		return;
	}
	offset = sink_rx.sr_received;
	if (stream_rx_data(&sink_rx, imsg, &data, &len) == -1)
		failed("bad_answer", "stream data");
	if (memcmp(data, stream_test_pattern(offset), len) != 0)
		sink_bad++;
	if (stream_rx_consumed(&sink_rx, ibuf, len) == -1 ||
	    imsgbuf_flush(ibuf) == -1)
		failed("send", strerror(errno));
}

/* The sink must have got every byte, each as sent. */
static int
show_stream_test(const struct ctl_stream_test *got,
    const struct ctl_stream_test *sent)
{
	uint64_t bytes = got->ct_bytes, bad = got->ct_bad;
	int	 intact;
	double	 secs = got->ct_usec / 1e6;
	const char *sink = sent->ct_sink == CTL_SINK_CLIENT ? "spacectl" :
		    "spaced-journal";

	if (sent->ct_sink == CTL_SINK_CLIENT) {
		bad = sink_bad;
		if (!sink_rx.sr_ended || sink_rx.sr_received != bytes)
			bad++;
	}
	intact = bytes == sent->ct_bytes && bad == 0;
	if (jflag)
		json_array_append_new(jrows, json_pack(
		    "{s:I, s:b, s:s, s:I, s:f, s:I}", "bytes",
		    (json_int_t)bytes, "intact", intact, "sink", sink,
		    "usec", (json_int_t)got->ct_usec, "mibPerSec",
		    secs > 0 ? bytes / 1048576.0 / secs : 0.0,
		    "spacedPeakRssKiB", (json_int_t)got->ct_peak_rss));
	else
		printf("spaced-git -> spaced -> %s: %llu bytes "
		    "%s in %.3f s (%.0f MiB/s); spaced peak RSS %llu KiB\n",
		    sink, (unsigned long long)bytes,
		    intact ? "intact" : "CORRUPTED", secs,
		    secs > 0 ? bytes / 1048576.0 / secs : 0.0,
		    (unsigned long long)got->ct_peak_rss);
	return intact ? 0 : -1;
}

int
main(int argc, char *argv[])
{
	struct imsgbuf		 ibuf;
	struct imsg		 imsg;
	struct pollfd		 pfd;
	struct probe_msg	 pm;
	struct ctl_verbose	 cvb;
	struct ping_msg		 pg;
	struct ctl_stream_test	 tm;
	struct ctl_fail		 cf;
	union {
		struct ctl_proc		 cp;
		struct ctl_privileges	 cv;
		struct docker_check_msg	 dc;
		struct probe_msg	 pm;
		struct ctl_stream_test	 tm;
	} u;
	const char		*sockpath = NULL, *errstr;
	char			 defpath[256];
	const void		*payload = NULL;
	size_t			 plen = 0, i;
	ssize_t			 n;
	int			 ch, s, done = 0, bad = 0, p;
	enum cmd		 cmd;

	while ((ch = getopt(argc, argv, "js:")) != -1) {
		switch (ch) {
		case 'j':
			jflag = 1;
			break;
		case 's':
			sockpath = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[0], cmds[i].name) == 0 &&
		    argc - 1 == cmds[i].nargs)
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0]) || argc - 1 != cmds[i].nargs)
		usage();
	cmd = cmds[i].cmd;

	if (cmd == CMD_PROBE) {
		memset(&pm, 0, sizeof(pm));
		if ((p = lookup(probe_procs, PROC_MAX, argv[1])) == -1 ||
		    (pm.pr_proc = p, (p = lookup(probe_calls, PROBE_FORK + 1,
		    argv[2])) == -1))
			usage();
		pm.pr_call = p;
		payload = &pm;
		plen = sizeof(pm);
	} else if (cmd == CMD_PING) {
		if ((p = lookup(probe_procs, PROC_MAX, argv[1])) == -1)
			usage();
		pg.pg_proc = p;
		payload = &pg;
		plen = sizeof(pg);
	} else if (cmd == CMD_STREAM_TEST) {
		memset(&tm, 0, sizeof(tm));
		tm.ct_bytes = strtonum(argv[1], 0, 65536, &errstr) << 20;
		if (errstr != NULL)
			usage();
		if (argc == 3 && strcmp(argv[2], "client") == 0)
			tm.ct_sink = CTL_SINK_CLIENT;
		else if (argc == 3 && strcmp(argv[2], "journal") != 0)
			usage();
		payload = &tm;
		plen = sizeof(tm);
	} else if (cmd == CMD_VERBOSE) {
		cvb.cv_level = strtonum(argv[1], 0, 3, &errstr);
		if (errstr != NULL)
			usage();
		payload = &cvb;
		plen = sizeof(cvb);
	}

	if (sockpath == NULL) {
		if (geteuid() == 0)
			sockpath = "/run/spaced/spaced.sock";
		else if (getenv("XDG_RUNTIME_DIR") != NULL) {
			snprintf(defpath, sizeof(defpath), "%s/spaced.sock",
			    getenv("XDG_RUNTIME_DIR"));
			sockpath = defpath;
		} else
			failed("no_socket", "set XDG_RUNTIME_DIR or use -s");
	}
	s = connect_socket(sockpath);
	imsgbuf_init(&ibuf, s);
	if (imsg_compose(&ibuf, cmds[i].type, CTL_PEERID(0), getpid(), -1,
	    payload, plen) == -1 || imsgbuf_flush(&ibuf) == -1)
		failed("send", strerror(errno));

	jrows = json_array();
	if (!jflag && cmd == CMD_STATUS)
		printf("%-16s %-8s %-8s %s\n", "PROCESS", "PID", "STATE",
		    "DETAIL");
	else if (!jflag && cmd == CMD_PRIVILEGES)
		printf("%-15s %-7s %-12s %-12s %-7s %-3s %-16s %-24s %-22s %s\n",
		    "PROCESS", "PID", "UID", "GID", "SECCOMP", "NNP", "CAPEFF",
		    "LANDLOCK", "ROOT", "FDS");
	pfd.fd = s;
	pfd.events = POLLIN;
	while (!done) {
		if ((n = poll(&pfd, 1, SPACECTL_TIMEOUT_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0)
			failed(ERR_TIMEOUT, "spaced did not answer");
		if ((n = imsgbuf_read(&ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (n == 0)
			failed("connection_closed",
			    "spaced closed the connection");
		while (!done) {
			if ((n = imsgbuf_get(&ibuf, &imsg)) == -1)
				failed("bad_answer", strerror(errno));
			if (n == 0)
				break;
			switch (imsg_get_type(&imsg)) {
			case IMSG_STREAM_DATA:
			case IMSG_STREAM_END:
				if (cmd != CMD_STREAM_TEST ||
				    tm.ct_sink != CTL_SINK_CLIENT)
					failed("bad_answer", "unasked stream");
				sink_take(&ibuf, &imsg);
				break;
			case IMSG_CTL_PROGRESS:
				/* Still at work: the poll timeout restarts. */
				break;
			case IMSG_CTL_DATA:
				if (cmd == CMD_STATUS &&
				    imsg_get_data(&imsg, &u.cp, sizeof(u.cp))
				    == 0)
					show_status(&u.cp);
				else if (cmd == CMD_PRIVILEGES &&
				    imsg_get_data(&imsg, &u.cv, sizeof(u.cv))
				    == 0)
					show_privileges(&u.cv);
				else if (cmd == CMD_CHECK &&
				    imsg_get_data(&imsg, &u.dc, sizeof(u.dc))
				    == 0) {
					if (show_check(&u.dc) == -1)
						bad = 1;
				} else if (cmd == CMD_STREAM_TEST &&
				    imsg_get_data(&imsg, &u.tm, sizeof(u.tm))
				    == 0) {
					if (show_stream_test(&u.tm, &tm) == -1)
						bad = 2;
				} else if (cmd == CMD_PROBE &&
				    imsg_get_data(&imsg, &u.pm, sizeof(u.pm))
				    == 0)
					show_probe(&u.pm);
				else
					failed("bad_answer", "unexpected data");
				break;
			case IMSG_CTL_END:
				done = 1;
				break;
			case IMSG_CTL_FAIL:
				if (imsg_get_data(&imsg, &cf, sizeof(cf)) == -1)
					failed("bad_answer", NULL);
				failed(nstr(cf.cf_code, sizeof(cf.cf_code)),
				    NULL);
			default:
				failed("bad_answer", "unknown message");
			}
			imsg_free(&imsg);
		}
	}
	if (jflag) {
		json_t	*out;

		if (cmd == CMD_CHECK || cmd == CMD_PROBE ||
		    cmd == CMD_STREAM_TEST)
			out = json_incref(json_array_get(jrows, 0));
		else if (cmd == CMD_VERBOSE || cmd == CMD_PING)
			out = json_object();
		else
			out = json_pack("{s:O}", "processes", jrows);
		json_dumpf(out, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(out);
	}
	json_decref(jrows);
	close(s);
	if (bad == 2) {
		fprintf(stderr, "spacectl: stream_corrupted\n");
		return 1;
	}
	if (bad) {
		fprintf(stderr, "spacectl: %s\n", u.dc.dc_code);
		return 1;
	}
	return 0;
}
