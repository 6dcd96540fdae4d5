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
 * Code in: files and limits (what would travel from the repository
 * DIR, and what arrives incomplete), code-in and history.  DIR is
 * resolved here, as the caller; spaced-git, as its owner, reads it.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "stream.h"
#include "spacectl.h"
#include "spacectl_output.h"

/* What the scripts inside print: its end is shown if code in fails. */
#define CODEIN_TAIL	2000

struct git_listing {
	struct ctl_req		 gl_req;
	json_t			*gl_a, *gl_b;	/* as out_files, out_limits */
	uint64_t		 gl_total;
	uint64_t		 gl_count;
};

struct codein_call {
	struct ctl_req		 cc_req;
	struct stream_rx	 cc_out;
	int			 cc_have_out;
	char			 cc_tail[CODEIN_TAIL];
	size_t			 cc_tail_len;
	struct ctl_codein_result cc_cr;
	struct ctl_history_result cc_ch;
	int			 cc_have_result;
	int			 cc_progress;	/* stderr is a terminal */
};

static void
git_dir_request(const char *dir, struct ctl_git *cg)
{
	char	 path[PATH_MAX];

	if (realpath(dir, path) == NULL)
		folder_failed(dir);
	memset(cg, 0, sizeof(*cg));
	if (strlcpy(cg->cg_dir, path, sizeof(cg->cg_dir)) >=
	    sizeof(cg->cg_dir))
		failed("bad_request", "path too long");
}

static void
files_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct git_listing	*gl = cr->cr_arg;
	struct git_file		 gf;

	if (ctl_take_done(cr, imsg))
		return;
	ctl_read(imsg, &gf, sizeof(gf));
	gf.gf_path[sizeof(gf.gf_path) - 1] = '\0';
	if (gf.gf_kind == GIT_FILE_TRAVELS) {
		gl->gl_total += gf.gf_size;
		gl->gl_count++;
	}
	out_file(&gf, gl->gl_a, gl->gl_b);
}

static void
limits_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct git_listing	*gl = cr->cr_arg;
	struct git_limit	 lm;

	if (ctl_take_done(cr, imsg))
		return;
	ctl_read(imsg, &lm, sizeof(lm));
	lm.gl_path[sizeof(lm.gl_path) - 1] = '\0';
	out_limit(&lm, gl->gl_a, gl->gl_b);
}

/* files and limits: one listing of DIR. */
static void
git_listing(struct git_listing *gl, int argc, char *argv[], uint32_t type,
    struct ctl_git *cg)
{
	if (argc != 2)
		usage();
	git_dir_request(argv[1], cg);
	if ((gl->gl_a = json_array()) == NULL ||
	    (gl->gl_b = json_array()) == NULL)
		failed("internal_error", "json");
	ctl_req_set(&gl->gl_req, type, cg, sizeof(*cg), gl,
	    type == IMSG_CTL_FILES ? files_data : limits_data);
	ctl_call(&gl->gl_req);
}

int
files_main(int argc, char *argv[])
{
	struct git_listing	 gl;
	struct ctl_git		 cg;

	memset(&gl, 0, sizeof(gl));
	git_listing(&gl, argc, argv, IMSG_CTL_FILES, &cg);
	out_files(gl.gl_a, gl.gl_b, gl.gl_count, gl.gl_total);
	return 0;
}

int
limits_main(int argc, char *argv[])
{
	struct git_listing	 gl;
	struct ctl_git		 cg;

	memset(&gl, 0, sizeof(gl));
	git_listing(&gl, argc, argv, IMSG_CTL_LIMITS, &cg);
	out_limits(gl.gl_a, gl.gl_b);
	return 0;
}

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
	if (cc->cc_tail_len + len > CODEIN_TAIL) {
		memmove(cc->cc_tail, cc->cc_tail + (cc->cc_tail_len + len -
		    CODEIN_TAIL), CODEIN_TAIL - len);
		cc->cc_tail_len = CODEIN_TAIL - len;
	}
	memcpy(cc->cc_tail + cc->cc_tail_len, p, len);
	cc->cc_tail_len += len;
}

/* The space's text, kept and never read. */
static void
codein_stream(struct ctl_req *cr, struct imsg *imsg)
{
	struct codein_call	*cc = cr->cr_arg;
	const uint8_t		*data;
	size_t			 len;

	if (imsg_get_type(imsg) == IMSG_STREAM_CREDIT)
		failed("bad_answer", "unknown message");
	if (!cc->cc_have_out || imsg_get_peerid(imsg) != cc->cc_out.sr_id)
		failed("bad_answer", "a stream we were not told of");
	if (imsg_get_type(imsg) == IMSG_STREAM_END) {
		if (stream_rx_end(&cc->cc_out, imsg) == -1)
			failed("bad_answer", "stream end");
		return;
	}
	if (stream_rx_data(&cc->cc_out, imsg, &data, &len) == -1)
		failed("bad_answer", "stream data");
	tail_add(cc, data, len);
	if (stream_rx_consumed(&cc->cc_out, &cr->cr_ibuf, len) == -1)
		failed("send", strerror(errno));
}

static void
codein_progress(struct ctl_req *cr, struct imsg *imsg)
{
	struct codein_call	*cc = cr->cr_arg;
	struct ctl_progress	 pg;

	if (cc->cc_progress && imsg_get_data(imsg, &pg, sizeof(pg)) == 0)
		out_codein_progress(pg.pg_done);
}

static void
codein_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct codein_call	*cc = cr->cr_arg;
	struct ctl_exec_streams	 xs;
	size_t			 len = imsg_get_len(imsg);

	if (len == sizeof(xs) && !cc->cc_have_out) {
		ctl_read(imsg, &xs, sizeof(xs));
		stream_rx_init(&cc->cc_out, xs.xs_out);
		cc->cc_have_out = 1;
	} else if (len == sizeof(cc->cc_cr)) {
		ctl_read(imsg, &cc->cc_cr, sizeof(cc->cc_cr));
		cc->cc_have_result = 1;
	} else if (len == sizeof(cc->cc_ch)) {
		ctl_read(imsg, &cc->cc_ch, sizeof(cc->cc_ch));
		cc->cc_ch.ch_status[sizeof(cc->cc_ch.ch_status) - 1] = '\0';
		cc->cc_have_result = 1;
	} else if (!ctl_take_done(cr, imsg))
		failed("bad_answer", "unknown record");
}

static __dead void
codein_fail(struct ctl_req *cr, const char *code)
{
	struct codein_call	*cc = cr->cr_arg;

	if (cc->cc_progress)
		out_codein_progress_end();
	out_codein_tail(cc->cc_tail, cc->cc_tail_len);
	request_failed(code, cr->cr_have_done ? cr->cr_done.sd_message :
	    NULL);
}

/* One code-in or history request and its answer, into cc. */
static void
codein_call(struct codein_call *cc, uint32_t type,
    const struct ctl_codein *ci)
{
	struct ctl_req	*cr = &cc->cc_req;

	memset(cc, 0, sizeof(*cc));
	cc->cc_progress = isatty(STDERR_FILENO);
	ctl_req_set(cr, type, ci, sizeof(*ci), cc, codein_data);
	cr->cr_progress = codein_progress;
	cr->cr_stream = codein_stream;
	cr->cr_fail = codein_fail;
	ctl_call(cr);
	if (!cc->cc_have_result)
		failed("bad_answer", "no result");
	if (cc->cc_progress)
		out_codein_progress_end();
}

static void
codein_request(struct ctl_codein *ci, const char *id, const char *dir)
{
	struct ctl_git	 cg;

	take_space_id(ci->ci_id, sizeof(ci->ci_id), id);
	git_dir_request(dir, &cg);
	memcpy(ci->ci_dir, cg.cg_dir, sizeof(ci->ci_dir));
}

int
codein_main(int argc, char *argv[])
{
	struct codein_call	 cc;
	struct ctl_codein	 ci;

	memset(&ci, 0, sizeof(ci));
	if (argc == 4 && strcmp(argv[3], "--clean") == 0)
		ci.ci_flags |= CODEIN_CLEAN;
	else if (argc != 3)
		usage();
	codein_request(&ci, argv[1], argv[2]);
	codein_call(&cc, IMSG_CTL_CODE_IN, &ci);
	out_codein(&cc.cc_cr);
	return 0;
}

/*
 * create --code DIR: the folder is found (and refused) before the space
 * is made, its code goes in once the space is ready.
 */
void
codein_create_prepare(struct ctl_codein *ci, const char *dir)
{
	struct git_listing	 gl;
	struct ctl_git		 cg;
	char			*argv[] = { "limits", (char *)(uintptr_t)dir,
				    NULL };

	/* spaced-git opens the repository: limits is the cheapest ask. */
	memset(&gl, 0, sizeof(gl));
	git_listing(&gl, 2, argv, IMSG_CTL_LIMITS, &cg);
	json_decref(gl.gl_a);
	json_decref(gl.gl_b);
	memset(ci, 0, sizeof(*ci));
	memcpy(ci->ci_dir, cg.cg_dir, sizeof(ci->ci_dir));
}

/* The child that brings create --code's code in; -1 when none runs. */
static pid_t	codein_child = -1;

/*
 * The code goes in from a child on a connection of its own, so that
 * the create's answer (the server's start) is waited for meanwhile.
 * create_fd, the create's connection, is not the child's to hold.
 */
void
codein_create_begin(struct ctl_codein *ci, const char *id, int create_fd)
{
	struct codein_call	 cc;

	if (strlcpy(ci->ci_id, id, sizeof(ci->ci_id)) >= sizeof(ci->ci_id))
		failed("bad_answer", "not a space id");
	fflush(stdout);
	fflush(stderr);
	if ((codein_child = fork()) == -1)
		failed("fork", strerror(errno));
	if (codein_child != 0)
		return;
	if (create_fd != -1)
		close(create_fd);
	codein_call(&cc, IMSG_CTL_CODE_IN, ci);
	exit(0);
}

/* 0 when the code went in, -1 when not (the child said why). */
int
codein_create_wait(void)
{
	int	 status;

	if (codein_child == -1)
		return -1;
	while (waitpid(codein_child, &status, 0) == -1)
		if (errno != EINTR) {
			codein_child = -1;
			return -1;
		}
	codein_child = -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The create failed: its code in stops (spaced takes the ref back). */
void
codein_create_abandon(void)
{
	if (codein_child != -1)
		(void)kill(codein_child, SIGTERM);
	(void)codein_create_wait();
}

/*
 * The rest of the history, from DIR, or with none from the repository
 * code in brought into the space (spaced keeps it): never the current
 * folder, which may be another repository altogether.
 */
int
history_main(int argc, char *argv[])
{
	struct codein_call	 cc;
	struct ctl_codein	 ci;

	memset(&ci, 0, sizeof(ci));
	if (argc != 2 && argc != 3)
		usage();
	if (argc == 3)
		codein_request(&ci, argv[1], argv[2]);
	else
		take_space_id(ci.ci_id, sizeof(ci.ci_id), argv[1]);
	ci.ci_timeout_s = 1800;		/* the spec's half hour */
	codein_call(&cc, IMSG_CTL_HISTORY, &ci);
	out_history(&cc.cc_ch);
	return 0;
}
