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
#include "labels.h"
#include "log.h"
#include "ctl_proto.h"
#include "proc.h"
#include "space_parse.h"
#include "spacectl.h"
#include "stream.h"

/*
 * spaced sends PROGRESS at least every CTL_PROGRESS_SECONDS while a
 * request runs: silence for several of those means it is stuck.
 */
#define SPACECTL_TIMEOUT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)
#define SPACED_SOCK_DEFAULT	"/run/spaced/spaced.sock"	/* root's */

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
static int	 space_cmd;	/* a space command: -j failures are JSON */

static void	 space_failed_json(const char *, const char *, int,
		    json_t *);

static __dead void
usage(void)
{
	fprintf(stderr,
	    "usage: spacectl [-j] [-s socket] command\n"
	    "commands: status | privileges | check |\n"
	    "          probe docker|git|journal execve|open|socket|connect|fork |\n"
	    "          ping docker|git|journal | stream-test MiB [journal|client] |\n"
	    "          verbose level |\n"
	    "          create [-n name] [-m memory] | list |\n"
	    "          show|verify|stop|start|remove ID |\n"
	    "          exec ID [-g] [-n] [-t seconds] -- command [arg ...] |\n"
	    "          network ID allowlist|open [domain ...] |\n"
	    "          grant ID GRANT_ID UPSTREAM HEADER < secret |\n"
	    "          journal ID [-f] | files DIR | limits DIR |\n"
	    "          code-in ID DIR [--clean] | history ID [DIR] |\n"
	    "          server ID [-d] [-T type] METHOD PATH | token ID |\n"
	    "          tools [fill] [-a agent]\n");
	exit(2);
}

__dead void
failed(const char *code, const char *detail)
{
	if (space_cmd && jflag)
		space_failed_json(code, detail, 0, NULL);
	else if (detail != NULL)
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

/* A request that failed: the code and message, or -j, the object. */
__dead void
request_failed(int json, const char *code, const char *message)
{
	json_t	*o;

	if (json) {
		o = json_pack("{s:s, s:s}", "error", code, "message",
		    message != NULL ? message : "");
		if (o == NULL)
			o = json_pack("{s:s, s:s}", "error", code, "message",
			    "");
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else if (message != NULL && *message != '\0')
		fprintf(stderr, "spacectl: %s: %s\n", code, message);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	exit(1);
}

int
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

/* --- the space commands ------------------------------------------------ */

enum space_cmd {
	SC_CREATE, SC_LIST, SC_SHOW, SC_VERIFY, SC_STOP, SC_START, SC_REMOVE
};

static const struct {
	const char	*sc_name;
	enum space_cmd	 sc_cmd;
	uint32_t	 sc_type;
	int		 sc_id;		/* takes an ID */
} space_cmds[] = {
	{ "create",	SC_CREATE,	IMSG_CTL_CREATE,	0 },
	{ "list",	SC_LIST,	IMSG_CTL_LIST,		0 },
	{ "show",	SC_SHOW,	IMSG_CTL_SHOW,		1 },
	{ "verify",	SC_VERIFY,	IMSG_CTL_VERIFY,	1 },
	{ "stop",	SC_STOP,	IMSG_CTL_STOP,		1 },
	{ "start",	SC_START,	IMSG_CTL_START,		1 },
	{ "remove",	SC_REMOVE,	IMSG_CTL_REMOVE,	1 },
};

/* The records are told apart by their length, then by their kind. */
_Static_assert(sizeof(struct space_info) != sizeof(struct space_violation) &&
    sizeof(struct space_info) != sizeof(struct space_resource) &&
    sizeof(struct space_info) != sizeof(struct space_done) &&
    sizeof(struct space_violation) != sizeof(struct space_resource) &&
    sizeof(struct space_violation) != sizeof(struct space_done) &&
    sizeof(struct space_resource) != sizeof(struct space_done),
    "space records must differ in length");

/* What the answer said, gathered before anything is shown. */
static struct {
	json_t			*infos;		/* the spaces */
	json_t			*violations;
	json_t			*removed;
	json_t			*failed;	/* remove's, or a rollback's */
	struct space_done	 done;
	int			 have_done;
} sa;

/* What spaced's own refusals mean, for a FAIL without a message. */
static const struct {
	const char	*code;
	const char	*message;
} space_messages[] = {
	{ ERR_PERMISSION_DENIED, "space operations are for root, spaced's "
	    "own user and members of the docker group" },
	{ ERR_BAD_REQUEST, "spaced refused the request as malformed" },
	{ ERR_TIMEOUT, "the place did not finish in time; see spacectl "
	    "list" },
	{ ERR_WORKER_UNAVAILABLE, "spaced-docker is not running" },
	{ ERR_BUSY, "too many requests in flight" },
};

static const char *
space_message(const char *code)
{
	size_t	 i;

	for (i = 0; i < sizeof(space_messages) / sizeof(space_messages[0]);
	    i++)
		if (strcmp(space_messages[i].code, code) == 0)
			return space_messages[i].message;
	return NULL;
}

static void
space_failed_json(const char *code, const char *message, int uncertain,
    json_t *rollback)
{
	json_t	*o;

	o = json_pack("{s:s, s:s, s:{s:b, s:o, s:o}}", "error", code,
	    "message", message != NULL ? message : "", "details", "uncertain",
	    uncertain != 0, "rollbackFailures",
	    rollback != NULL ? json_incref(rollback) : json_array(),
	    "violations", sa.violations != NULL ? json_incref(sa.violations) :
	    json_array());
	if (o == NULL)		/* a message that is not UTF-8 */
		o = json_pack("{s:s, s:s, s:{s:b, s:o}}", "error", code,
		    "message", "", "details", "uncertain", uncertain != 0,
		    "rollbackFailures", rollback != NULL ?
		    json_incref(rollback) : json_array());
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	fflush(stdout);
	json_decref(o);
}

/* The request failed with code: say so, with what the place told. */
static __dead void
space_fail_show(const char *code)
{
	const char	*message = NULL;
	int		 uncertain = 0;
	size_t		 i;
	json_t		*r;

	if (sa.have_done && strcmp(sa.done.sd_code, code) == 0) {
		message = sa.done.sd_message;
		uncertain = sa.done.sd_uncertain != 0;
	}
	if (message == NULL || *message == '\0')
		message = space_message(code);
	if (jflag) {
		space_failed_json(code, message, uncertain, sa.failed);
		exit(1);
	}
	if (message != NULL)
		fprintf(stderr, "spacectl: %s: %s\n", code, message);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	json_array_foreach(sa.violations, i, r)
		fprintf(stderr, "spacectl: %s: %s\n",
		    json_string_value(json_object_get(r, "check")),
		    json_string_value(json_object_get(r, "message")));
	json_array_foreach(sa.failed, i, r)
		fprintf(stderr, "spacectl: not removed: %s %s\n",
		    json_string_value(json_object_get(r, "kind")),
		    json_string_value(json_object_get(r, "name")));
	if (uncertain)
		fprintf(stderr, "spacectl: a step may still finish: see "
		    "spacectl list\n");
	exit(1);
}

static json_t *
space_info_json(const struct space_info *si, int with_memory)
{
	json_t		*o, *missing;
	uint32_t	 i;

	if (si->si_kind != SPACE_REC_INFO ||
	    si->si_nmissing > SPACE_MISSING_MAX)
		failed("bad_answer", "space info");
	missing = json_array();
	for (i = 0; i < si->si_nmissing; i++)
		json_array_append_new(missing, json_string(nstr(
		    si->si_missing[i], sizeof(si->si_missing[i]))));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:[]}",
	    "id", nstr(si->si_id, sizeof(si->si_id)),
	    "name", nstr(si->si_name, sizeof(si->si_name)),
	    "project", nstr(si->si_project, sizeof(si->si_project)),
	    "created", nstr(si->si_created, sizeof(si->si_created)),
	    "state", nstr(si->si_state, sizeof(si->si_state)),
	    "gatekeeper", nstr(si->si_gk_state, sizeof(si->si_gk_state)),
	    "damaged", si->si_damaged != 0, "missing", missing, "orphans");
	if (o == NULL)
		failed("bad_answer", "space info is not UTF-8");
	if (with_memory)
		json_object_set_new(o, "memory",
		    json_integer((json_int_t)si->si_memory));
	return o;
}

static void
space_record(enum space_cmd cmd, struct imsg *imsg)
{
	struct space_info	 si;
	struct space_violation	 sv;
	struct space_resource	 sr;
	json_t			*r, *info = NULL;
	const char		*id;
	size_t			 len = imsg_get_len(imsg), i;

	if (len == sizeof(si)) {
		(void)imsg_get_data(imsg, &si, sizeof(si));
		json_array_append_new(sa.infos, space_info_json(&si,
		    cmd != SC_LIST));
	} else if (len == sizeof(sv)) {
		(void)imsg_get_data(imsg, &sv, sizeof(sv));
		if (sv.sv_kind != SPACE_REC_VIOLATION ||
		    (r = json_pack("{s:s, s:s}", "check",
		    nstr(sv.sv_check, sizeof(sv.sv_check)), "message",
		    nstr(sv.sv_message, sizeof(sv.sv_message)))) == NULL)
			failed("bad_answer", "violation");
		json_array_append_new(sa.violations, r);
	} else if (len == sizeof(sr)) {
		(void)imsg_get_data(imsg, &sr, sizeof(sr));
		if (sr.sr_kind != SPACE_REC_RESOURCE ||
		    (r = json_pack("{s:s, s:s}", "kind",
		    nstr(sr.sr_type, sizeof(sr.sr_type)), "name",
		    nstr(sr.sr_name, sizeof(sr.sr_name)))) == NULL)
			failed("bad_answer", "resource");
		id = nstr(sr.sr_id, sizeof(sr.sr_id));
		switch (sr.sr_state) {
		case SPACE_RES_REMOVED:
			json_array_append_new(sa.removed, r);
			break;
		case SPACE_RES_FAILED:
			json_array_append_new(sa.failed, r);
			break;
		case SPACE_RES_ORPHAN:
			/* It belongs to a space of the answer. */
			json_array_foreach(sa.infos, i, info)
				if (strcmp(json_string_value(json_object_get(
				    info, "id")), id) == 0)
					break;
			if (i == json_array_size(sa.infos))
				failed("bad_answer", "orphan of no space");
			json_array_append_new(json_object_get(info, "orphans"),
			    r);
			break;
		default:
			failed("bad_answer", "resource state");
		}
	} else if (len == sizeof(struct ctl_ready)) {
		struct ctl_ready	 cy;

		(void)imsg_get_data(imsg, &cy, sizeof(cy));
		id = nstr(cy.cy_id, sizeof(cy.cy_id));
		json_array_foreach(sa.infos, i, info)
			if (strcmp(json_string_value(json_object_get(info,
			    "id")), id) == 0)
				break;
		if (i == json_array_size(sa.infos) ||
		    (cy.cy_ready != CTL_READY_YES &&
		    cy.cy_ready != CTL_READY_NO))
			failed("bad_answer", "readiness of no space");
		json_object_set_new(info, "ready",
		    json_boolean(cy.cy_ready == CTL_READY_YES));
		if (cy.cy_ready == CTL_READY_NO)
			json_object_set_new(info, "notReady", json_string(
			    nstr(cy.cy_code, sizeof(cy.cy_code))));
	} else if (len == sizeof(sa.done)) {
		(void)imsg_get_data(imsg, &sa.done, sizeof(sa.done));
		if (!space_code_valid(sa.done.sd_code, sizeof(sa.done.sd_code)))
			failed("bad_answer", "error code");
		(void)nstr(sa.done.sd_message, sizeof(sa.done.sd_message));
		sa.have_done = 1;
	} else
		failed("bad_answer", "unexpected data");
}

static const char *
or_dash(const char *s)
{
	return s == NULL || *s == '\0' ? "-" : s;
}

/* "a,b" of an array of strings, or "-". */
static void
join(json_t *a, char *buf, size_t len)
{
	json_t	*v;
	size_t	 i;

	buf[0] = '\0';
	json_array_foreach(a, i, v) {
		if (i > 0)
			strlcat(buf, ",", len);
		strlcat(buf, json_string_value(v), len);
	}
	if (buf[0] == '\0')
		strlcpy(buf, "-", len);
}

static const char *
jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

#define LIST_COLS	7	/* of the list's table */

static void
cell_print(int c, int w, const char *cell)
{
	if (c < LIST_COLS - 1)
		printf("%-*s  ", w, cell);
	else
		printf("%s\n", cell);
}

/* "yes", "no" or "-": the server's readiness, when it was asked. */
static const char *
ready_text(json_t *o)
{
	json_t	*v = json_object_get(o, "ready");

	return v == NULL ? "-" : json_is_true(v) ? "yes" : "no";
}

/*
 * ID NAME STATE GATEKEEPER READY CREATED MISSING, each column as wide
 * as it needs.
 */
static void
space_list_text(void)
{
	static const char *cols[] = { "ID", "NAME", "STATE", "GATEKEEPER",
	    "READY", "CREATED", "MISSING" };
	char		 missing[SPACE_MISSING_MAX * SPACE_MISSING_LEN];
	const char	*cell[LIST_COLS];
	int		 w[LIST_COLS], row, c, n;
	size_t		 i, j;
	json_t		*o, *orphan;

	for (c = 0; c < LIST_COLS; c++)
		w[c] = strlen(cols[c]);
	for (row = 0; row < 2; row++) {
		/* row 0 measures, row 1 prints */
		if (row == 1) {
			for (c = 0; c < LIST_COLS; c++)
				cell_print(c, w[c], cols[c]);
		}
		json_array_foreach(sa.infos, i, o) {
			join(json_object_get(o, "missing"), missing,
			    sizeof(missing));
			cell[0] = jstr(o, "id");
			cell[1] = or_dash(jstr(o, "name"));
			cell[2] = or_dash(jstr(o, "state"));
			cell[3] = or_dash(jstr(o, "gatekeeper"));
			cell[4] = ready_text(o);
			cell[5] = or_dash(jstr(o, "created"));
			cell[6] = missing;
			for (c = 0; c < LIST_COLS; c++) {
				n = strlen(cell[c]);
				if (row == 0 && n > w[c])
					w[c] = n;
				if (row == 1)
					cell_print(c, w[c], cell[c]);
			}
		}
	}
	json_array_foreach(sa.infos, i, o)
		json_array_foreach(json_object_get(o, "orphans"), j, orphan)
			printf("%s: orphan %s %s\n", jstr(o, "id"),
			    jstr(orphan, "kind"), jstr(orphan, "name"));
}

static void
space_show_text(json_t *o)
{
	char	 missing[SPACE_MISSING_MAX * SPACE_MISSING_LEN];
	json_t	*orphan;
	size_t	 i;

	join(json_object_get(o, "missing"), missing, sizeof(missing));
	printf("id:          %s\n", jstr(o, "id"));
	printf("name:        %s\n", or_dash(jstr(o, "name")));
	printf("project:     %s\n", or_dash(jstr(o, "project")));
	printf("created:     %s\n", or_dash(jstr(o, "created")));
	printf("state:       %s\n", or_dash(jstr(o, "state")));
	printf("gatekeeper:  %s\n", or_dash(jstr(o, "gatekeeper")));
	printf("ready:       %s\n", ready_text(o));
	printf("memory:      %lld\n",
	    (long long)json_integer_value(json_object_get(o, "memory")));
	printf("damaged:     %s\n",
	    json_is_true(json_object_get(o, "damaged")) ? "yes" : "no");
	printf("missing:     %s\n", missing);
	json_array_foreach(json_object_get(o, "orphans"), i, orphan)
		printf("orphan:      %s %s\n", jstr(orphan, "kind"),
		    jstr(orphan, "name"));
}

static void
print_json(json_t *o)
{
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
}

/* The answer ended well: show it; the exit status. */
static int
space_show(enum space_cmd cmd)
{
	json_t	*o = json_array_get(sa.infos, 0), *r;
	size_t	 i;
	int	 rc = 0;

	switch (cmd) {
	case SC_CREATE:
		if (o == NULL)
			failed("bad_answer", "no space in the answer");
		if (jflag)
			print_json(o);
		else
			printf("%s\n", jstr(o, "id"));
		break;
	case SC_LIST:
		if (jflag)
			print_json(sa.infos);
		else
			space_list_text();
		break;
	case SC_SHOW:
	case SC_START:
		if (o == NULL && cmd == SC_SHOW)
			failed("bad_answer", "no space in the answer");
		if (jflag) {
			if (o != NULL)
				print_json(o);
			else
				printf("{}\n");
		} else if (o != NULL)
			space_show_text(o);
		break;
	case SC_VERIFY:
		if (jflag)
			print_json(sa.violations);
		else
			json_array_foreach(sa.violations, i, r)
				printf("%s: %s\n", jstr(r, "check"),
				    jstr(r, "message"));
		rc = json_array_size(sa.violations) == 0 ? 0 : 1;
		break;
	case SC_STOP:
		if (jflag)
			printf("{}\n");
		break;
	case SC_REMOVE:
		if (jflag) {
			o = json_pack("{s:O, s:O}", "removed", sa.removed,
			    "failed", sa.failed);
			print_json(o);
			json_decref(o);
		} else {
			json_array_foreach(sa.removed, i, r)
				printf("removed %s %s\n", jstr(r, "kind"),
				    jstr(r, "name"));
			json_array_foreach(sa.failed, i, r)
				printf("failed %s %s\n", jstr(r, "kind"),
				    jstr(r, "name"));
		}
		rc = json_array_size(sa.failed) == 0 ? 0 : 1;
		break;
	}
	return rc;
}

static int
space_main(int argc, char *argv[], const char *sockpath, size_t k)
{
	struct ctl_space	 cs;
	struct imsgbuf		 ibuf;
	struct imsg		 imsg;
	struct pollfd		 pfd;
	struct ctl_fail		 cf;
	enum space_cmd		 cmd = space_cmds[k].sc_cmd;
	const char		*errstr;
	ssize_t			 n;
	int			 ch, s, done = 0;

	space_cmd = 1;
	memset(&cs, 0, sizeof(cs));
	optind = 0;	/* glibc: start over, at argv[1] */
	while ((ch = getopt(argc, argv, cmd == SC_CREATE ? "+jm:n:" : "+j"))
	    != -1) {
		switch (ch) {
		case 'j':
			jflag = 1;
			break;
		case 'm':
			if (space_memory_parse(optarg, &cs.cs_memory, &errstr)
			    == -1)
				failed("invalid_memory", errstr);
			break;
		case 'n':
			if (!space_name_valid(optarg))
				failed("invalid_name", "1 to 64 bytes, no "
				    "control characters");
			strlcpy(cs.cs_name, optarg, sizeof(cs.cs_name));
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != space_cmds[k].sc_id)
		usage();
	if (space_cmds[k].sc_id) {
		/* Checked here: a bad id never reaches spaced. */
		if (!space_id_valid(argv[0]))
			failed("invalid_space_id", "an ID is 12 lowercase hex "
			    "characters");
		strlcpy(cs.cs_id, argv[0], sizeof(cs.cs_id));
	}

	sa.infos = json_array();
	sa.violations = json_array();
	sa.removed = json_array();
	sa.failed = json_array();
	s = connect_socket(sockpath);
	imsgbuf_init(&ibuf, s);
	if (imsg_compose(&ibuf, space_cmds[k].sc_type, CTL_PEERID(0),
	    getpid(), -1, &cs, sizeof(cs)) == -1 ||
	    imsgbuf_flush(&ibuf) == -1)
		failed("send", strerror(errno));
	pfd.fd = s;
	pfd.events = POLLIN;
	/* A create takes minutes: we wait as long as PROGRESS comes. */
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
			if (imsg_get_peerid(&imsg) != CTL_PEERID(0))
				failed("bad_answer", "another request's");
			switch (imsg_get_type(&imsg)) {
			case IMSG_CTL_PROGRESS:
				break;
			case IMSG_CTL_DATA:
				space_record(cmd, &imsg);
				break;
			case IMSG_CTL_END:
				done = 1;
				break;
			case IMSG_CTL_FAIL:
				if (imsg_get_data(&imsg, &cf, sizeof(cf)) == -1)
					failed("bad_answer", NULL);
				space_fail_show(nstr(cf.cf_code,
				    sizeof(cf.cf_code)));
			default:
				failed("bad_answer", "unknown message");
			}
			imsg_free(&imsg);
		}
	}
	close(s);
	return space_show(cmd);
}

static const char *
default_socket(void)
{
	static char	 path[256];

	if (geteuid() == 0)
		return SPACED_SOCK_DEFAULT;
	if (getenv("XDG_RUNTIME_DIR") == NULL)
		failed("no_socket", "set XDG_RUNTIME_DIR or use -s");
	if ((size_t)snprintf(path, sizeof(path), "%s/spaced.sock",
	    getenv("XDG_RUNTIME_DIR")) >= sizeof(path))
		failed("bad_socket_path", "XDG_RUNTIME_DIR is too long");
	return path;
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
	const void		*payload = NULL;
	size_t			 plen = 0, i;
	ssize_t			 n;
	int			 ch, s, done = 0, bad = 0, p;
	enum cmd		 cmd;

	while ((ch = getopt(argc, argv, "+js:")) != -1) {
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
	if (sockpath == NULL)
		sockpath = default_socket();
	for (i = 0; i < sizeof(space_cmds) / sizeof(space_cmds[0]); i++)
		if (strcmp(argv[0], space_cmds[i].sc_name) == 0)
			return space_main(argc, argv, sockpath, i);
	if (strcmp(argv[0], "exec") == 0)
		return exec_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "network") == 0)
		return network_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "grant") == 0)
		return grant_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "journal") == 0)
		return journal_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "files") == 0)
		return files_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "limits") == 0)
		return limits_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "code-in") == 0)
		return codein_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "history") == 0)
		return history_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "server") == 0)
		return server_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "token") == 0)
		return token_main(argc, argv, sockpath, jflag);
	if (strcmp(argv[0], "tools") == 0)
		return tools_main(argc, argv, sockpath, jflag);
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
