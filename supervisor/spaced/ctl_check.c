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
 * Each control op's own payload check (ctl_check.h), out of its start so
 * that it is one pure function the fuzzer reaches: the router has taken
 * the payload at exactly the op's length; here every string must end in
 * its field, every id, directory and name pass its validator, pads be
 * zero and every count, flag and length stay in its range.  What needs
 * spaced's state (a profile, a worker, a space's owner) stays in the
 * start.
 */

#include <sys/types.h>

#include <string.h>

#include "agent.h"
#include "ctl_check.h"
#include "git_parse.h"
#include "git_proto.h"
#include "labels.h"
#include "place_proto.h"
#include "proto.h"

#define STREAM_TEST_MAX		(64ULL << 30)	/* 64 GiB */

static int
ended(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int
id_ok(const char *id, size_t size)
{
	return ended(id, size) && space_id_valid(id);
}

static int
pad_zero(const uint8_t pad[3])
{
	return pad[0] == 0 && pad[1] == 0 && pad[2] == 0;
}

/* Printable ASCII (and UTF-8's high bytes), ended, empty when allowed. */
static int
printable(const char *s, size_t size, int empty_ok)
{
	size_t	 i;

	for (i = 0; i < size && s[i] != '\0'; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return i < size && (empty_ok || i > 0);
}

/* A secret: as printable, but a tab is taken, as the gatekeeper takes it. */
static int
secret_printable(const char *s, size_t size)
{
	size_t	 i;

	for (i = 0; i < size && s[i] != '\0'; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') ||
		    s[i] == 0x7f)
			return 0;
	return i < size && i > 0;
}

/* 1 if argv is argc NUL-terminated entries filling exactly len bytes. */
static int
argv_valid(const char *argv, size_t len, uint32_t argc)
{
	size_t	 i, n = 0, start = 0;

	if (argc == 0 || argc > SPACE_EXEC_ARGC_MAX || len == 0 ||
	    len > SPACE_EXEC_ARGV_MAX || argv[len - 1] != '\0' ||
	    argv[0] == '\0')
		return 0;
	for (i = 0; i < len; i++) {
		if (argv[i] != '\0')
			continue;
		if (i - start > 4096)	/* one argument */
			return 0;
		start = i + 1;
		n++;
	}
	return n == argc;
}

/* The fixed part of an exec or attach (argv aside). */
static int
exec_req_valid(const struct ctl_exec *cx)
{
	return id_ok(cx->cx_id, sizeof(cx->cx_id)) && pad_zero(cx->cx_pad) &&
	    cx->cx_stdin <= 1 && cx->cx_tty <= 1 &&
	    cx->cx_rows <= EXEC_TTY_DIM_MAX && cx->cx_cols <= EXEC_TTY_DIM_MAX;
}

/* Its target is checked by exec_start, with an answer of its own. */
int
ctl_exec_valid(const struct ctl_exec *cx)
{
	return exec_req_valid(cx) &&
	    argv_valid(cx->cx_argv, cx->cx_argv_len, cx->cx_argc);
}

/* The client names only the space and its terminal. */
int
ctl_attach_valid(const struct ctl_exec *cx)
{
	return exec_req_valid(cx) && cx->cx_argc == 0 &&
	    cx->cx_argv_len == 0 && cx->cx_target == EXEC_TARGET_SPACE &&
	    cx->cx_timeout_ms == 0;
}

/* cn_ndomains printable names, each ended, filling cn_len exactly. */
int
ctl_network_valid(const struct ctl_network *cn)
{
	const char	*d, *end;
	uint32_t	 n = 0;

	if (!id_ok(cn->cn_id, sizeof(cn->cn_id)) || !pad_zero(cn->cn_pad) ||
	    cn->cn_mode > CTL_NETWORK_OPEN ||
	    cn->cn_len > sizeof(cn->cn_domains) ||
	    (cn->cn_len > 0 && cn->cn_domains[cn->cn_len - 1] != '\0') ||
	    (cn->cn_mode == CTL_NETWORK_OPEN && cn->cn_ndomains != 0))
		return 0;
	for (d = cn->cn_domains, end = d + cn->cn_len; d < end;
	    d += strlen(d) + 1, n++)
		if (!printable(d, end - d, 0))
			return 0;
	return n == cn->cn_ndomains;
}

int
ctl_grant_valid(const struct ctl_grant *cg)
{
	return id_ok(cg->cg_id, sizeof(cg->cg_id)) &&
	    printable(cg->cg_grant, sizeof(cg->cg_grant), 0) &&
	    printable(cg->cg_upstream, sizeof(cg->cg_upstream), 0) &&
	    printable(cg->cg_header, sizeof(cg->cg_header), 0) &&
	    secret_printable(cg->cg_secret, sizeof(cg->cg_secret));
}

int
ctl_journal_valid(const struct ctl_journal *cj)
{
	return id_ok(cj->cj_id, sizeof(cj->cj_id)) && pad_zero(cj->cj_pad) &&
	    (cj->cj_flags & ~JOURNAL_VERIFY) == 0 &&
	    cj->cj_max <= JOURNAL_READ_MAX;
}

int
ctl_git_valid(const struct ctl_git *cg)
{
	return git_dir_valid(cg->cg_dir, sizeof(cg->cg_dir)) &&
	    cg->cg_flags == 0 && pad_zero(cg->cg_pad) &&
	    ended(cg->cg_id, sizeof(cg->cg_id)) &&
	    (cg->cg_id[0] == '\0' || space_id_valid(cg->cg_id));
}

/* A history alone may leave DIR out (the origin's), and has no flags. */
int
ctl_codein_valid(const struct ctl_codein *ci, int history)
{
	return id_ok(ci->ci_id, sizeof(ci->ci_id)) && pad_zero(ci->ci_pad) &&
	    (ci->ci_flags & ~CODEIN_CLEAN) == 0 &&
	    ci->ci_timeout_s <= CODEIN_TIMEOUT_MAX &&
	    (!history || ci->ci_flags == 0) &&
	    ((history && ci->ci_dir[0] == '\0') ||
	    git_dir_valid(ci->ci_dir, sizeof(ci->ci_dir)));
}

/* An HTTP method: capitals only. */
static int
method_ok(const char *m)
{
	size_t	 i;

	for (i = 0; m[i] != '\0'; i++)
		if (m[i] < 'A' || m[i] > 'Z')
			return 0;
	return i > 0;
}

int
ctl_server_valid(const struct ctl_server *cv)
{
	return id_ok(cv->cv_id, sizeof(cv->cv_id)) && pad_zero(cv->cv_pad) &&
	    ended(cv->cv_method, sizeof(cv->cv_method)) &&
	    method_ok(cv->cv_method) &&
	    ended(cv->cv_path, sizeof(cv->cv_path)) && cv->cv_path[0] == '/' &&
	    ended(cv->cv_content_type, sizeof(cv->cv_content_type)) &&
	    cv->cv_bodylen <= sizeof(cv->cv_body);
}

int
ctl_token_valid(const struct ctl_space *cs)
{
	return id_ok(cs->cs_id, sizeof(cs->cs_id));
}

int
ctl_review_valid(const struct ctl_review *rv)
{
	return id_ok(rv->rv_id, sizeof(rv->rv_id)) && pad_zero(rv->rv_pad) &&
	    (rv->rv_flags & ~REVIEW_F_PATCH) == 0 &&
	    ended(rv->rv_dir, sizeof(rv->rv_dir)) &&
	    (rv->rv_dir[0] == '\0' || git_dir_valid(rv->rv_dir,
	    sizeof(rv->rv_dir)));
}

/* The allowed: names and commas; spaced-git judges each name. */
int
ctl_apply_valid(const struct ctl_apply *ca)
{
	size_t	 i;

	if (!id_ok(ca->ca_id, sizeof(ca->ca_id)) || !pad_zero(ca->ca_pad) ||
	    (ca->ca_mode != APPLY_BRANCH && ca->ca_mode != APPLY_WORKTREE) ||
	    !ended(ca->ca_branch, sizeof(ca->ca_branch)) ||
	    (ca->ca_mode == APPLY_BRANCH && ca->ca_branch[0] == '\0') ||
	    !ended(ca->ca_allow, sizeof(ca->ca_allow)) ||
	    !ended(ca->ca_dir, sizeof(ca->ca_dir)) ||
	    (ca->ca_dir[0] != '\0' && !git_dir_valid(ca->ca_dir,
	    sizeof(ca->ca_dir))))
		return 0;
	for (i = 0; ca->ca_allow[i] != '\0'; i++)
		if (!((ca->ca_allow[i] >= 'a' && ca->ca_allow[i] <= 'z') ||
		    ca->ca_allow[i] == '_' || ca->ca_allow[i] == ','))
			return 0;
	return 1;
}

int
ctl_events_valid(const struct ctl_events_req *ce)
{
	return (ce->ce_flags & ~CTL_EVENTS_FOLLOW) == 0 && ce->ce_pad == 0;
}

/* "": the default agent. */
int
ctl_tools_valid(const struct ctl_tools *ct)
{
	return ended(ct->ct_agent, sizeof(ct->ct_agent)) &&
	    (ct->ct_agent[0] == '\0' || agent_name_valid(ct->ct_agent));
}

int
ctl_stream_test_valid(const struct ctl_stream_test *ct)
{
	return ct->ct_bytes <= STREAM_TEST_MAX && ct->ct_reserved == 0 &&
	    (ct->ct_sink == CTL_SINK_JOURNAL || ct->ct_sink == CTL_SINK_CLIENT);
}
