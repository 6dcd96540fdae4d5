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
 * spacectl files DIR, spacectl limits DIR
 *
 * What code in would carry from the repository DIR is in, before any
 * space is involved: the untracked files that travel with their sizes
 * and the untracked repositories that stay ({"files": [{"path",
 * "size"}], "notTravelling": [{"path", "kind"}], "totalBytes"} with -j),
 * and what arrives incomplete: submodules (empty) and Git LFS files
 * (pointers) ({"submodules": [...], "lfs": bool, "lfsAttributes":
 * [...]}).  Paths are relative to the repository's top.  DIR is resolved
 * here, as the caller; spaced-git, as the repository's owner, reads it.
 */

#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_proto.h"
#include "imsg.h"
#include "stream.h"
#include "spacectl.h"

struct git_listing {
	int		 json;
	json_t		*a, *b;		/* files and notTravelling, or... */
	uint64_t	 total;		/* submodules and lfsAttributes */
	uint64_t	 count;
};

static __dead void
usage_git(const char *cmd)
{
	fprintf(stderr, "usage: spacectl [-j] %s DIR\n", cmd);
	exit(2);
}

static __dead void
usage_codein(void)
{
	fprintf(stderr, "usage: spacectl [-j] code-in ID DIR [--clean]\n");
	exit(2);
}

static void
git_dir_request(const char *dir, struct ctl_git *cg)
{
	char	 path[PATH_MAX];

	if (realpath(dir, path) == NULL)
		failed("project_folder_missing", strerror(errno));
	memset(cg, 0, sizeof(*cg));
	if (strlcpy(cg->cg_dir, path, sizeof(cg->cg_dir)) >=
	    sizeof(cg->cg_dir))
		failed("bad_request", "path too long");
}

/* Names come from a repository: printed as they are, one a line. */
static void
files_record(struct imsg *imsg, void *arg)
{
	struct git_listing	*gl = arg;
	struct git_file		 gf;

	if (imsg_get_data(imsg, &gf, sizeof(gf)) == -1)
		failed("bad_answer", "unknown record");
	gf.gf_path[sizeof(gf.gf_path) - 1] = '\0';
	if (gf.gf_kind == GIT_FILE_TRAVELS) {
		gl->total += gf.gf_size;
		gl->count++;
		if (!gl->json)
			printf("%s\t%llu\n", gf.gf_path,
			    (unsigned long long)gf.gf_size);
		else if (json_array_append_new(gl->a, json_pack("{s:s, s:I}",
		    "path", gf.gf_path, "size", (json_int_t)gf.gf_size)) == -1)
			failed("internal_error", "json");
	} else {
		if (!gl->json)
			printf("%s\trepository, stays\n", gf.gf_path);
		else if (json_array_append_new(gl->b, json_pack("{s:s, s:s}",
		    "path", gf.gf_path, "kind", "repository")) == -1)
			failed("internal_error", "json");
	}
}

static void
limits_record(struct imsg *imsg, void *arg)
{
	struct git_listing	*gl = arg;
	struct git_limit	 lm;

	if (imsg_get_data(imsg, &lm, sizeof(lm)) == -1)
		failed("bad_answer", "unknown record");
	lm.gl_path[sizeof(lm.gl_path) - 1] = '\0';
	if (!gl->json)
		printf("%s\t%s\n", lm.gl_kind == GIT_LIMIT_SUBMODULE ?
		    "submodule" : "lfs", lm.gl_path);
	else if (json_array_append_new(lm.gl_kind == GIT_LIMIT_SUBMODULE ?
	    gl->a : gl->b, json_string(lm.gl_path)) == -1)
		failed("internal_error", "json");
}

int
files_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct git_listing	 gl = { json, NULL, NULL, 0, 0 };
	struct ctl_git		 cg;

	if (argc != 2)
		usage_git("files");
	git_dir_request(argv[1], &cg);
	if ((gl.a = json_array()) == NULL || (gl.b = json_array()) == NULL)
		failed("internal_error", "json");
	ctl_call(connect_socket(sockpath), IMSG_CTL_FILES, &cg, sizeof(cg),
	    json, files_record, &gl);
	if (json)
		json_out(json_pack("{s:o, s:o, s:I}", "files", gl.a,
		    "notTravelling", gl.b, "totalBytes", (json_int_t)gl.total));
	else {
		json_decref(gl.a);
		json_decref(gl.b);
		fprintf(stderr, "%llu untracked files travel, %llu bytes\n",
		    (unsigned long long)gl.count,
		    (unsigned long long)gl.total);
	}
	return 0;
}

int
limits_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct git_listing	 gl = { json, NULL, NULL, 0, 0 };
	struct ctl_git		 cg;

	if (argc != 2)
		usage_git("limits");
	git_dir_request(argv[1], &cg);
	if ((gl.a = json_array()) == NULL || (gl.b = json_array()) == NULL)
		failed("internal_error", "json");
	ctl_call(connect_socket(sockpath), IMSG_CTL_LIMITS, &cg, sizeof(cg),
	    json, limits_record, &gl);
	if (json)
		json_out(json_pack("{s:o, s:b, s:o}", "submodules", gl.a,
		    "lfs", json_array_size(gl.b) > 0, "lfsAttributes", gl.b));
	else {
		json_decref(gl.a);
		json_decref(gl.b);
	}
	return 0;
}

/*
 * spacectl code-in ID DIR [--clean]
 *
 * The repository DIR is in into the space ID: prints the space path,
 * the project path and the branch, and what to warn about (an identity
 * that did not travel: the agent cannot commit).  With -j one object:
 * spacePath, projectPath, base, staged, start, branch (null when
 * detached), objectFormat, identityCopied {name, email}.  What the
 * scripts inside print is kept, its last CODEIN_TAIL bytes, and shown
 * only when the transfer failed; it is the space's text, never read.
 * On a terminal, stderr shows the bytes sent so far.
 */
#define CODEIN_TAIL	2000

struct codein_call {
	struct imsgbuf		 ibuf;
	struct stream_rx	 out;
	int			 have_out, out_ended, json;
	char			 tail[CODEIN_TAIL];
	size_t			 tail_len;
	struct ctl_codein_result cr;
	struct ctl_history_result ch;
	int			 have_result;
	struct space_done	 sd;
	int			 have_done;
};

static void
tail_add(struct codein_call *cc, const uint8_t *p, size_t len)
{
	/* Each chunk starts with its channel byte (1 stdout, 2 stderr). */
	if (len == 0)
		return;
	p++;
	len--;
	if (len >= CODEIN_TAIL) {
		p += len - CODEIN_TAIL;
		len = CODEIN_TAIL;
	}
	if (cc->tail_len + len > CODEIN_TAIL) {
		memmove(cc->tail, cc->tail + (cc->tail_len + len - CODEIN_TAIL),
		    CODEIN_TAIL - len);
		cc->tail_len = CODEIN_TAIL - len;
	}
	memcpy(cc->tail + cc->tail_len, p, len);
	cc->tail_len += len;
}

static __dead void
codein_failed(struct codein_call *cc, const char *code)
{
	if (!cc->json && cc->tail_len > 0) {
		fprintf(stderr, "spacectl: what the space printed:\n");
		fwrite(cc->tail, 1, cc->tail_len, stderr);
		if (cc->tail[cc->tail_len - 1] != '\n')
			fputc('\n', stderr);
	}
	request_failed(cc->json, code, cc->have_done ? cc->sd.sd_message :
	    NULL);
}

/* 1 when the answer is complete. */
static int
codein_message(struct codein_call *cc, struct imsg *imsg, int progress)
{
	struct ctl_exec_streams	 xs;
	struct ctl_progress	 pg;
	struct ctl_fail		 cf;
	const uint8_t		*data;
	size_t			 len = imsg_get_len(imsg);

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
	case IMSG_STREAM_END:
		if (!cc->have_out || imsg_get_peerid(imsg) != cc->out.sr_id)
			failed("bad_answer", "a stream we were not told of");
		if (imsg_get_type(imsg) == IMSG_STREAM_END) {
			if (stream_rx_end(&cc->out, imsg) == -1)
				failed("bad_answer", "stream end");
			cc->out_ended = 1;
			return 0;
		}
		if (stream_rx_data(&cc->out, imsg, &data, &len) == -1)
			failed("bad_answer", "stream data");
		tail_add(cc, data, len);
		if (stream_rx_consumed(&cc->out, &cc->ibuf, len) == -1)
			failed("send", strerror(errno));
		return 0;
	}
	if (imsg_get_peerid(imsg) != CTL_PEERID(0))
		failed("bad_answer", "another request's");
	switch (imsg_get_type(imsg)) {
	case IMSG_CTL_PROGRESS:
		if (progress && imsg_get_data(imsg, &pg, sizeof(pg)) == 0)
			fprintf(stderr, "\rcode in: %llu bytes sent",
			    (unsigned long long)pg.pg_done);
		return 0;
	case IMSG_CTL_DATA:
		if (len == sizeof(xs) && !cc->have_out) {
			(void)imsg_get_data(imsg, &xs, sizeof(xs));
			stream_rx_init(&cc->out, xs.xs_out);
			cc->have_out = 1;
		} else if (len == sizeof(cc->cr)) {
			(void)imsg_get_data(imsg, &cc->cr, sizeof(cc->cr));
			cc->have_result = 1;
		} else if (len == sizeof(cc->ch)) {
			(void)imsg_get_data(imsg, &cc->ch, sizeof(cc->ch));
			cc->ch.ch_status[sizeof(cc->ch.ch_status) - 1] = '\0';
			cc->have_result = 1;
		} else if (len == sizeof(cc->sd)) {
			(void)imsg_get_data(imsg, &cc->sd, sizeof(cc->sd));
			cc->sd.sd_message[sizeof(cc->sd.sd_message) - 1] = '\0';
			cc->have_done = 1;
		} else
			failed("bad_answer", "unknown record");
		return 0;
	case IMSG_CTL_END:
		if (!cc->have_result)
			failed("bad_answer", "no result");
		return 1;
	case IMSG_CTL_FAIL:
		if (imsg_get_data(imsg, &cf, sizeof(cf)) == -1)
			failed("bad_answer", NULL);
		cf.cf_code[sizeof(cf.cf_code) - 1] = '\0';
		if (progress)
			fputc('\n', stderr);
		codein_failed(cc, cf.cf_code);
	}
	failed("bad_answer", "unknown message");
}

static void
codein_print(const struct ctl_codein_result *cr, int json)
{
	json_t	*o;

	if (json) {
		o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s, "
		    "s:{s:b, s:b}}", "spacePath", cr->cr_space_path,
		    "projectPath", cr->cr_project_path, "base", cr->cr_base,
		    "staged", cr->cr_staged, "start", cr->cr_start, "branch",
		    cr->cr_branch[0] != '\0' ? json_string(cr->cr_branch) :
		    json_null(), "objectFormat", cr->cr_format,
		    "identityCopied", "name", cr->cr_name_copied, "email",
		    cr->cr_email_copied);
		json_out(o);
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

/* One code-in or history request and its answer, into cc. */
static void
codein_call(struct codein_call *cc, uint32_t type,
    const struct ctl_codein *ci, const char *sockpath, int json)
{
	struct imsg		 imsg;
	struct pollfd		 pfd;
	ssize_t			 n;
	int			 s, done = 0, progress = isatty(STDERR_FILENO);

	memset(cc, 0, sizeof(*cc));
	cc->json = json;
	s = connect_socket(sockpath);
	imsgbuf_init(&cc->ibuf, s);
	if (imsg_compose(&cc->ibuf, type, CTL_PEERID(0), getpid(), -1, ci,
	    sizeof(*ci)) == -1 || imsgbuf_flush(&cc->ibuf) == -1)
		failed("send", strerror(errno));
	pfd.fd = s;
	pfd.events = POLLIN;
	while (!done) {
		if ((n = poll(&pfd, 1, 4 * CTL_PROGRESS_SECONDS * 1000)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0)
			request_failed(json, "command_timeout",
			    "spaced did not answer");
		if ((n = imsgbuf_read(&cc->ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (n == 0)
			request_failed(json, "connection_closed", "spaced "
			    "closed the connection");
		while (!done && (n = imsgbuf_get(&cc->ibuf, &imsg)) > 0) {
			done = codein_message(cc, &imsg, progress);
			imsg_free(&imsg);
		}
		if (n == -1)
			failed("bad_answer", strerror(errno));
		if (imsgbuf_flush(&cc->ibuf) == -1)
			failed("send", strerror(errno));
	}
	if (progress)
		fputc('\n', stderr);
	imsgbuf_clear(&cc->ibuf);
}

static void
codein_request(struct ctl_codein *ci, const char *id, const char *dir)
{
	struct ctl_git	 cg;

	if (strlcpy(ci->ci_id, id, sizeof(ci->ci_id)) >= sizeof(ci->ci_id))
		failed("bad_request", "not a space id");
	git_dir_request(dir, &cg);
	memcpy(ci->ci_dir, cg.cg_dir, sizeof(ci->ci_dir));
}

int
codein_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct codein_call	 cc;
	struct ctl_codein	 ci;

	memset(&ci, 0, sizeof(ci));
	if (argc == 4 && strcmp(argv[3], "--clean") == 0)
		ci.ci_flags |= CODEIN_CLEAN;
	else if (argc != 3)
		usage_codein();
	codein_request(&ci, argv[1], argv[2]);
	codein_call(&cc, IMSG_CTL_CODE_IN, &ci, sockpath, json);
	codein_print(&cc.cr, json);
	return 0;
}

/*
 * spacectl history ID [DIR]: the rest of the history, from the
 * repository DIR (the current folder by default) that code in brought.
 * Prints complete, already_complete or host_shallow; -j {"status",
 * "bytes"}.
 */
int
history_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct codein_call	 cc;
	struct ctl_codein	 ci;

	memset(&ci, 0, sizeof(ci));
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: spacectl [-j] history ID [DIR]\n");
		exit(2);
	}
	codein_request(&ci, argv[1], argc == 3 ? argv[2] : ".");
	ci.ci_timeout_s = 1800;		/* the spec's half hour */
	codein_call(&cc, IMSG_CTL_HISTORY, &ci, sockpath, json);
	if (json)
		json_out(json_pack("{s:s, s:I}", "status", cc.ch.ch_status,
		    "bytes", (json_int_t)cc.ch.ch_bytes));
	else
		printf("%s\n", cc.ch.ch_status);
	return 0;
}
