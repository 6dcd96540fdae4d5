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
 * Everything spacectl prints, text or JSON (-j), and how it fails: the
 * commands hand their records here.  Calls nothing else of spacectl,
 * so it also holds the environment every file reads.
 */

#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

static struct spacectl	 spacectl_env = { .sc_stdin_flags = -1 };
struct spacectl		*env = &spacectl_env;

/* --- usage and failures ---------------------------------------------- */

void
space_failed_json(const char *code, const char *message, int uncertain,
    json_t *rollback)
{
	json_t	*o, *v = env->sc_violations;

	o = json_pack("{s:s, s:s, s:{s:b, s:o, s:o}}", "error", code,
	    "message", message != NULL ? message : "", "details", "uncertain",
	    uncertain != 0, "rollbackFailures",
	    rollback != NULL ? json_incref(rollback) : json_array(),
	    "violations", v != NULL ? json_incref(v) : json_array());
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

/*
 * A failure of a command whose -j output is one object a line (prompt):
 * one line more, {"event": "error", "error", "message", "session"}.
 */
static __dead void
event_failed(const char *code, const char *message)
{
	json_t	*o;

	o = json_pack("{s:s, s:s, s:s}", "event", "error", "error", code,
	    "message", message != NULL ? message : "");
	if (o != NULL && env->sc_session != NULL && *env->sc_session != '\0')
		json_object_set_new(o, "session",
		    json_string(env->sc_session));
	if (o != NULL) {
		json_dumpf(o, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(o);
	}
	exit(1);
}

/*
 * exec's own failures exit 125, as the place's do: 1 is a command's
 * status, and a script could not tell its grep's "no match" from a
 * spaced it never reached or an ID it never sent.
 */
static int
fail_status(void)
{
	return env->sc_cmd != NULL && env->sc_cmd->cc_type == IMSG_CTL_EXEC ?
	    SPACECTL_EXEC_FAILED : 1;
}

/*
 * At exit: what stdio still holds written, and any error writing it
 * said and failed (a list or -j object to a full disk exited 0, the file
 * cut short).  A reader that left (EPIPE) fails without a word.
 */
void
out_close(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	if (errno != EPIPE)
		fprintf(stderr, "spacectl: standard output: %s\n",
		    errno != 0 ? strerror(errno) : "write error");
	_exit(fail_status());
}

/* spacectl itself failed (or spaced broke the protocol): as -j says. */
__dead void
failed(const char *code, const char *detail)
{
	tty_stop();
	if (env->sc_cmd != NULL && env->sc_cmd->cc_fail == FAIL_EVENT &&
	    env->sc_json)
		event_failed(code, detail);
	if (env->sc_cmd != NULL && env->sc_cmd->cc_fail == FAIL_SPACE &&
	    env->sc_json)
		space_failed_json(code, detail, 0, NULL);
	else if (env->sc_cmd != NULL && env->sc_cmd->cc_fail == FAIL_JSON &&
	    env->sc_json)
		request_failed(code, detail != NULL ? detail : "");
	else if (detail != NULL)
		fprintf(stderr, "spacectl: %s: %s\n", code, detail);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	exit(fail_status());
}

/* The words for a code whose answer brought none. */
static const struct {
	const char	*code;
	const char	*message;
} space_messages[] = {
	{ ERR_BAD_REQUEST, "spaced refused the request as malformed" },
	{ ERR_TIMEOUT, "the place did not finish in time; see spacectl "
	    "list" },
	/* It said spaced-docker for -p native too, where spaced-ns was. */
	{ ERR_WORKER_UNAVAILABLE, "the place's worker is not running "
	    "(spaced-ns, the native place, runs only when spaced runs as "
	    "root)" },
	/*
	 * Wordless only from a plain user's spaced, which has no native
	 * place (spaced-ns's own refusals bring their words); create with
	 * an agent asks the place for tools first and said the code alone.
	 */
	{ ERR_SANDBOX_UNAVAILABLE, "the native place needs spaced run as "
	    "root; this spaced is a plain user's: use the Docker place "
	    "(-p docker)" },
	{ ERR_BUSY, "too many requests in flight" },
	/* create said the code alone. */
	{ ERR_DOCKER_UNREACHABLE, "spaced cannot connect to the Docker "
	    "socket" },
	/* An unknown ID and another owner's space, in the same words. */
	{ ERR_SPACE_NOT_FOUND, "no such space of yours" },
	{ ERR_SPACE_NOT_RUNNING, "the space is stopped (spacectl start "
	    "starts it)" },
};

const char *
space_message(const char *code)
{
	size_t	 i;

	for (i = 0; i < sizeof(space_messages) / sizeof(space_messages[0]);
	    i++)
		if (strcmp(space_messages[i].code, code) == 0)
			return space_messages[i].message;
	return NULL;
}

/* The request failed: the code and message, or -j, the object. */
__dead void
request_failed(const char *code, const char *message)
{
	enum ctl_fail_style	 style = env->sc_cmd != NULL ?
				    env->sc_cmd->cc_fail : FAIL_TEXT;
	json_t			*o;

	tty_stop();
	/*
	 * An unknown ID and another owner's space: the same words, all.  A
	 * stopped one: what to do (network and grant said the code alone).
	 */
	if ((message == NULL || *message == '\0') &&
	    (strcmp(code, ERR_SPACE_NOT_FOUND) == 0 ||
	    strcmp(code, ERR_SPACE_NOT_RUNNING) == 0))
		message = space_message(code);
	if (env->sc_json && style == FAIL_EVENT)
		event_failed(code, message);
	if (env->sc_json && style == FAIL_SPACE)
		space_failed_json(code, message, 0, NULL);
	else if (env->sc_json && style == FAIL_JSON) {
		o = json_pack("{s:s, s:s}", "error", code, "message",
		    message != NULL ? message : "");
		if (o == NULL)
			o = json_pack("{s:s, s:s}", "error", code, "message",
			    "");
		out_json(o);
	} else if (message != NULL && *message != '\0')
		fprintf(stderr, "spacectl: %s: %s\n", code, message);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	exit(fail_status());
}

/* No spaced at path: under -j an error object too, whatever the command. */
__dead void
unreachable(const char *path, int error)
{
	json_t	*o;
	char	 msg[1200];

	(void)snprintf(msg, sizeof(msg), "cannot reach spaced at %s: %s",
	    path, strerror(error));
	if (!env->sc_json) {
		fprintf(stderr, "spacectl: %s\n", msg);
		exit(fail_status());
	}
	if (env->sc_cmd != NULL && env->sc_cmd->cc_fail == FAIL_EVENT)
		event_failed("spaced_unreachable", msg);
	if (env->sc_cmd != NULL && env->sc_cmd->cc_fail == FAIL_SPACE)
		space_failed_json("spaced_unreachable", msg, 0, NULL);
	else if ((o = json_pack("{s:s, s:s}", "error", "spaced_unreachable",
	    "message", msg)) != NULL)
		out_json(o);
	exit(fail_status());
}

/* A failure that does not end spacectl at once. */
void
out_error(const char *code)
{
	fprintf(stderr, "spacectl: %s\n", code);
}

/* spaced NUL-terminates; a reply that does not is refused. */
const char *
nstr(const char *s, size_t len)
{
	if (memchr(s, '\0', len) == NULL)
		failed("bad_answer", "unterminated string");
	return s;
}

/* --- JSON -------------------------------------------------------------- */

/* Prints o indented and frees it; NULL prints an empty line. */
void
out_json(json_t *o)
{
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
}

/* As out_json, but NULL (a record that is not UTF-8) is a failure. */
void
out_json_checked(json_t *o)
{
	if (o == NULL)
		failed("internal_error", "json");
	out_json(o);
}

void
out_json_add(json_t *a, json_t *o)
{
	if (o == NULL || json_array_append_new(a, o) == -1)
		failed("internal_error", "json");
}

/* -j of a command that answers nothing. */
void
out_empty(void)
{
	if (env->sc_json)
		printf("{}\n");
}

/* Bytes that came from a space: as they are, to stdout or stderr. */
void
out_bytes(int fd, const uint8_t *p, size_t n)
{
	struct pollfd	 pfd;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, p, n)) == -1) {
			if (errno == EINTR)
				continue;
			/* A terminal shares stdin's O_NONBLOCK: wait for room. */
			if (errno == EAGAIN) {
				pfd.fd = fd;
				pfd.events = POLLOUT;
				(void)poll(&pfd, 1, -1);
				continue;
			}
			/*
			 * Our reader left: the command's output goes nowhere.
			 * Any other error (a full disk) is said: it exited
			 * 125 without a word, the file cut short.
			 */
			if (errno != EPIPE)
				fprintf(stderr, "spacectl: %s: %s\n", fd == 1 ?
				    "standard output" : "standard error",
				    strerror(errno));
			exit(SPACECTL_EXEC_FAILED);
		}
		p += w;
		n -= w;
	}
}

const char *
jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* --- spaced's processes ------------------------------------------------ */

void
out_status_head(void)
{
	if (!env->sc_json)
		printf("%-16s %-8s %-8s %s\n", "PROCESS", "PID", "STATE",
		    "DETAIL");
}

void
out_status(const struct ctl_proc *cp, json_t *rows)
{
	const char	*name = nstr(cp->cp_name, sizeof(cp->cp_name));
	const char	*state = nstr(cp->cp_state, sizeof(cp->cp_state));
	const char	*detail = nstr(cp->cp_detail, sizeof(cp->cp_detail));
	char		 pid[16], counts[64 + CTL_DETAIL_MAX];
	json_t		*o;

	if (env->sc_json) {
		o = json_pack("{s:s, s:s}", "name", name, "state", state);
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
		json_array_append_new(rows, o);
		return;
	}
	if (cp->cp_pid > 0)
		snprintf(pid, sizeof(pid), "%d", cp->cp_pid);
	else
		strlcpy(pid, "-", sizeof(pid));
	if (cp->cp_clients >= 0) {
		/* spaced's own detail (its configuration) after its counts */
		snprintf(counts, sizeof(counts), "%d clients, %d requests, "
		    "%d streams%s%s", cp->cp_clients, cp->cp_requests,
		    cp->cp_streams, detail[0] != '\0' ? "; " : "", detail);
		detail = counts;
	}
	printf("%-16s %-8s %-8s %s\n", name, pid, state, detail);
}

void
out_privileges_head(void)
{
	if (!env->sc_json)
		printf("%-15s %-7s %-12s %-12s %-7s %-3s %-16s %-24s %-22s %s\n",
		    "PROCESS", "PID", "UID", "GID", "SECCOMP", "NNP", "CAPEFF",
		    "LANDLOCK", "ROOT", "FDS");
}

void
out_privileges(const struct ctl_privileges *cv, json_t *rows)
{
	const char	*name = nstr(cv->cv_name, sizeof(cv->cv_name));
	const char	*uid = nstr(cv->cv_uid, sizeof(cv->cv_uid));
	const char	*gid = nstr(cv->cv_gid, sizeof(cv->cv_gid));
	const char	*cap = nstr(cv->cv_capeff, sizeof(cv->cv_capeff));
	const char	*ll = nstr(cv->cv_landlock, sizeof(cv->cv_landlock));
	const char	*root = nstr(cv->cv_root, sizeof(cv->cv_root));

	if (env->sc_json) {
		json_array_append_new(rows, json_pack(
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

/* With -j, after the END: the rows as status and privileges show them. */
void
out_processes(json_t *rows)
{
	if (env->sc_json)
		out_json(json_pack("{s:O}", "processes", rows));
}

/* With -j, after the END: the one record of check, probe, stream-test. */
void
out_first_row(json_t *rows)
{
	if (env->sc_json)
		out_json(json_incref(json_array_get(rows, 0)));
}

void
out_probe(const char *proc, const char *call, int error, json_t *rows)
{
	if (env->sc_json)
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:s}",
		    "process", proc, "call", call, "allowed", error == 0,
		    "error", error == 0 ? "" : strerror(error)));
	else if (error == 0)
		printf("%s: %s was ALLOWED\n", proc, call);
	else
		printf("%s: %s failed: %s\n", proc, call, strerror(error));
}

void
out_stream_test(const char *sink, uint64_t bytes, int intact,
    const struct ctl_stream_test *got, json_t *rows)
{
	double	 secs = got->ct_usec / 1e6;

	if (env->sc_json)
		json_array_append_new(rows, json_pack(
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
}

/* --- exec -------------------------------------------------------------- */

/*
 * Bytes that are not UTF-8 are shown as U+FFFD, one each, never
 * dropped: jansson refuses such a string whole, which lost all output.
 */
static json_t *
output_json(const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	json_t			*o;
	char			*fixed;
	size_t			 i, len, out = 0;

	if (s == NULL)
		return json_stringn("", 0);
	if ((o = json_stringn(s, n)) != NULL)
		return o;
	if (n > SIZE_MAX / 3 || (fixed = malloc(n * 3)) == NULL)
		failed("internal_error", "out of memory");
	for (i = 0; i < n; i += len) {
		if ((len = utf8_char_len(p + i, n - i)) == 0) {
			memcpy(fixed + out, "\xef\xbf\xbd", 3);
			out += 3;
			len = 1;
		} else {
			memcpy(fixed + out, p + i, len);
			out += len;
		}
	}
	o = json_stringn_nocheck(fixed, out);
	free(fixed);
	return o;
}

/* An exec that did not run to its end: the code, and why. */
void
out_exec_failed(const char *code, const char *message)
{
	if (message[0] == '\0' && space_message(code) != NULL)
		message = space_message(code);
	if (env->sc_json)
		out_json(json_pack("{s:s, s:s}", "error", code, "message",
		    message));
	else
		fprintf(stderr, "spacectl: %s%s%s\n", code, message[0] ?
		    ": " : "", message);
}

/*
 * -j: the exit code and what the command printed, collected.  spaced's
 * word on how it ended (its space removed meanwhile) goes on stderr, or
 * under -j as "message".
 */
void
out_exec_result(int code, const char *out, size_t outlen, const char *err,
    size_t errlen, const char *message)
{
	json_t	*o;

	if (!env->sc_json) {
		if (*message != '\0')
			fprintf(stderr, "spacectl: %s\n", message);
		return;
	}
	o = json_pack("{s:i, s:o, s:o}", "exitCode", code, "stdout",
	    output_json(out, outlen), "stderr", output_json(err, errlen));
	if (o != NULL && *message != '\0')
		json_object_set_new(o, "message", json_string(message));
	out_json(o);
}

/* --- code in ----------------------------------------------------------- */

/*
 * Bytes of outside origin (a repository's names, what a space or its
 * server printed) reach a terminal with their control characters, C1's
 * UTF-8 form included, as \ooo: they may not move the cursor, retitle
 * the window or fake a line.  Piped output stays exact, as -j does.
 */
void
out_outside(FILE *f, const char *s, size_t len, int text)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	if (!isatty(fileno(f))) {
		if (len > 0 && fwrite(s, 1, len, f) != len)
			failed("write", "stdout");
		return;
	}
	for (i = 0; i < len; i++) {
		if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f) {
			fprintf(f, "\\%03o\\%03o", p[i], p[i + 1]);
			i++;
		} else if ((p[i] < 0x20 && !(text && (p[i] == '\n' ||
		    p[i] == '\t'))) || p[i] == 0x7f)
			fprintf(f, "\\%03o", p[i]);
		else
			fputc(p[i], f);
	}
}

/* Names come from a repository: one a line, escaped at a terminal. */
void
out_file(const struct git_file *gf, json_t *travel, json_t *stay)
{
	int	 travels = gf->gf_kind == GIT_FILE_TRAVELS;

	if (env->sc_json && travels)
		out_json_add(travel, json_pack("{s:s, s:I}", "path",
		    gf->gf_path, "size", (json_int_t)gf->gf_size));
	else if (env->sc_json)
		out_json_add(stay, json_pack("{s:s, s:s}", "path",
		    gf->gf_path, "kind", "repository"));
	else {
		out_outside(stdout, gf->gf_path, strlen(gf->gf_path), 0);
		if (travels)
			printf("\t%llu\n", (unsigned long long)gf->gf_size);
		else
			printf("\trepository, stays\n");
	}
}

void
out_files(json_t *travel, json_t *stay, uint64_t count, uint64_t total)
{
	if (env->sc_json)
		out_json_checked(json_pack("{s:o, s:o, s:I}", "files", travel,
		    "notTravelling", stay, "totalBytes", (json_int_t)total));
	else {
		json_decref(travel);
		json_decref(stay);
		fprintf(stderr, "%llu untracked files travel, %llu bytes\n",
		    (unsigned long long)count, (unsigned long long)total);
	}
}

void
out_limit(const struct git_limit *lm, json_t *submodules, json_t *lfs)
{
	if (!env->sc_json)
		printf("%s\t%s\n", lm->gl_kind == GIT_LIMIT_SUBMODULE ?
		    "submodule" : "lfs", lm->gl_path);
	else
		out_json_add(lm->gl_kind == GIT_LIMIT_SUBMODULE ? submodules :
		    lfs, json_string(lm->gl_path));
}

void
out_limits(json_t *submodules, json_t *lfs)
{
	if (env->sc_json)
		out_json_checked(json_pack("{s:o, s:b, s:o}", "submodules",
		    submodules, "lfs", json_array_size(lfs) > 0,
		    "lfsAttributes", lfs));
	else {
		json_decref(submodules);
		json_decref(lfs);
	}
}

/* On a terminal: the bytes code in sent so far, on one line. */
void
out_codein_progress(uint64_t done)
{
	fprintf(stderr, "\rcode in: %llu bytes sent",
	    (unsigned long long)done);
}

void
out_codein_progress_end(void)
{
	fputc('\n', stderr);
}

/* What the space printed, shown when the transfer failed. */
void
out_codein_tail(const char *tail, size_t len)
{
	if (env->sc_json || len == 0)
		return;
	fprintf(stderr, "spacectl: what the space printed:\n");
	out_outside(stderr, tail, len, 1);
	if (tail[len - 1] != '\n')
		fputc('\n', stderr);
}

void
out_codein(const struct ctl_codein_result *cr)
{
	if (env->sc_json) {
		out_json_checked(json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, "
		    "s:s, s:{s:b, s:b}}", "spacePath", cr->cr_space_path,
		    "projectPath", cr->cr_project_path, "base", cr->cr_base,
		    "staged", cr->cr_staged, "start", cr->cr_start, "branch",
		    cr->cr_branch[0] != '\0' ? json_string(cr->cr_branch) :
		    json_null(), "objectFormat", cr->cr_format,
		    "identityCopied", "name", cr->cr_name_copied, "email",
		    cr->cr_email_copied));
		return;
	}
	printf("space path: %s\nproject path: %s\nbranch: %s\n",
	    cr->cr_space_path, cr->cr_project_path,
	    cr->cr_branch[0] != '\0' ? cr->cr_branch : "(detached HEAD)");
	if (!cr->cr_name_copied || !cr->cr_email_copied)
		fprintf(stderr, "spacectl: warning: your git user.%s did not "
		    "travel (not set, or not one short line): the agent "
		    "cannot commit in the space\n", !cr->cr_name_copied &&
		    !cr->cr_email_copied ? "name and user.email" :
		    !cr->cr_name_copied ? "name" : "email");
}

void
out_history(const struct ctl_history_result *ch)
{
	if (env->sc_json)
		out_json_checked(json_pack("{s:s, s:I}", "status",
		    ch->ch_status, "bytes", (json_int_t)ch->ch_bytes));
	else
		printf("%s\n", ch->ch_status);
}

/* --- the gatekeeper's journal ------------------------------------------ */

/* A record: its line now, or with -j into records. */
void
out_journal_entry(const struct journal_entry *je, json_t *records)
{
	if (records == NULL) {
		printf("%s %s %s:%u %s", je->je_at, je->je_listener,
		    je->je_host, (unsigned)je->je_port, je->je_decision);
		printf(je->je_count > 1 ? " x%u\n" : "\n", je->je_count);
		return;
	}
	out_json_add(records, json_pack("{s:s, s:s, s:s, s:i, s:s, s:i, "
	    "s:I}", "at", je->je_at, "listener", je->je_listener, "host",
	    je->je_host, "port", (json_int_t)je->je_port, "decision",
	    je->je_decision, "count", (json_int_t)je->je_count, "seq",
	    (json_int_t)je->je_seq));
}

/* The whole journal (follow: 0), or what a poll of -f found. */
void
out_journal(json_t *records, const struct journal_counts *jc, int follow)
{
	if (!env->sc_json) {
		if (!follow && (jc->jc_malformed > 0 || jc->jc_dropped > 0))
			fprintf(stderr, "spacectl: %llu malformed and %llu "
			    "dropped lines in the gatekeeper's log\n",
			    (unsigned long long)jc->jc_malformed,
			    (unsigned long long)jc->jc_dropped);
		return;
	}
	if (!follow) {
		out_json_checked(json_pack("{s:O, s:I, s:I}", "records",
		    records, "malformed", (json_int_t)jc->jc_malformed,
		    "dropped", (json_int_t)jc->jc_dropped));
		return;
	}
	out_json_line(json_pack("{s:O, s:I}", "records", records,
	    "malformed", (json_int_t)jc->jc_malformed));
}

/* One object a line, for a reader that follows. */
void
out_json_line(json_t *o)
{
	if (o == NULL)
		failed("internal_error", "json");
	json_dumpf(o, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(o);
}

/* --- the server inside a space ----------------------------------------- */

/* The server's answer; any status is one, not 2xx exits 3. */
int
out_server(unsigned int status, const uint8_t *body, size_t len)
{
	if (env->sc_json)
		out_json_checked(json_pack("{s:i, s:s%}", "status",
		    (int)status, "body", len > 0 ? (const char *)body : "",
		    len));
	else {
		out_outside(stdout, (const char *)body, len, 1);
		/* A body ends its line, so a prompt never follows it. */
		if (len > 0 && body[len - 1] != '\n')
			putchar('\n');
	}
	if (!env->sc_json && (status < 200 || status > 299)) {
		fprintf(stderr, "spacectl: the server answered %u\n", status);
		return 3;
	}
	return 0;
}

void
out_token(const char *token)
{
	if (env->sc_json)
		out_json_checked(json_pack("{s:s}", "token", token));
	else
		printf("%s\n", token);
}
