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
 * fuzz-link: supervisor/spaced/ctl_check.c supervisor/spaced/git_parse.c common/proto/space_parse.c common/proto/labels.c common/proto/agent.c common/lib/log.c
 *
 * Each control op's own payload check in spaced (ctl_check.c), on any
 * bytes a local user sends: the first byte picks the op, the rest is
 * its payload (cut or zero-padded to exactly its op_len, as the router
 * takes it).  Invariants, each stated here apart from the check: a
 * payload taken has every string ended in its field, every id valid
 * (labels.c), every directory absolute with no empty, "." or ".."
 * component, every pad zero and every count, flag, mode and length in
 * its range; an exec's argv is exactly argc non-empty-first strings
 * filling its length, a network's domains exactly ndomains printable
 * names, an apply's allow only names and commas; and the same bytes get
 * the same verdict.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "git_proto.h"
#include "labels.h"
#include "place_proto.h"
#include "proto.h"
#include "supervisor/spaced/ctl_check.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
ended(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static void
id(const char *s, size_t size, int may_be_empty)
{
	if (!ended(s, size) || (!(may_be_empty && s[0] == '\0') &&
	    !space_id_valid(s)))
		abort();
}

static void
pad(const uint8_t p[3])
{
	if (p[0] != 0 || p[1] != 0 || p[2] != 0)
		abort();
}

/* No byte below ' ' (tab when tab_ok) nor DEL, and at least one. */
static void
text(const char *s, size_t size, int tab_ok)
{
	size_t	 i;

	if (!ended(s, size) || s[0] == '\0')
		abort();
	for (i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] < 0x20 && !(tab_ok && s[i] == '\t')) ||
		    s[i] == 0x7f)
			abort();
}

/* Absolute, each component neither empty, "." nor "..". */
static void
dir(const char *s, size_t size, int may_be_empty)
{
	const char	*c, *e;

	if (!ended(s, size))
		abort();
	if (may_be_empty && s[0] == '\0')
		return;
	if (s[0] != '/')
		abort();
	if (s[1] == '\0')
		return;
	for (c = s + 1;; c = e + 1) {
		e = strchr(c, '/');
		if (e == NULL)
			e = c + strlen(c);
		if (e == c || (e - c == 1 && c[0] == '.') ||
		    (e - c == 2 && c[0] == '.' && c[1] == '.'))
			abort();
		if (*e == '\0')
			break;
	}
}

static void
exec_common(const struct ctl_exec *cx)
{
	id(cx->cx_id, sizeof(cx->cx_id), 0);
	pad(cx->cx_pad);
	if (cx->cx_stdin > 1 || cx->cx_tty > 1 ||
	    cx->cx_rows > EXEC_TTY_DIM_MAX || cx->cx_cols > EXEC_TTY_DIM_MAX)
		abort();
}

static void
exec_taken(const void *p)
{
	const struct ctl_exec	*cx = p;
	const char		*a = cx->cx_argv, *end;
	uint32_t		 n = 0;

	exec_common(cx);
	if (cx->cx_argv_len == 0 || cx->cx_argv_len > sizeof(cx->cx_argv) ||
	    cx->cx_argc == 0 || cx->cx_argc > SPACE_EXEC_ARGC_MAX ||
	    a[0] == '\0')
		abort();
	for (end = a + cx->cx_argv_len; a < end; a += strlen(a) + 1, n++)
		if (memchr(a, '\0', end - a) == NULL || strlen(a) > 4096)
			abort();
	if (n != cx->cx_argc)
		abort();
}

static void
attach_taken(const void *p)
{
	const struct ctl_exec	*cx = p;

	exec_common(cx);
	if (cx->cx_argc != 0 || cx->cx_argv_len != 0 ||
	    cx->cx_target != EXEC_TARGET_SPACE || cx->cx_timeout_ms != 0)
		abort();
}

static void
network_taken(const void *p)
{
	const struct ctl_network	*cn = p;
	const char			*d, *end;
	uint32_t			 n = 0;

	id(cn->cn_id, sizeof(cn->cn_id), 0);
	pad(cn->cn_pad);
	if (cn->cn_mode > CTL_NETWORK_OPEN ||
	    cn->cn_len > sizeof(cn->cn_domains) ||
	    (cn->cn_mode == CTL_NETWORK_OPEN && cn->cn_ndomains != 0))
		abort();
	for (d = cn->cn_domains, end = d + cn->cn_len; d < end;
	    d += strlen(d) + 1, n++)
		text(d, end - d, 0);
	if (n != cn->cn_ndomains)
		abort();
}

static void
grant_taken(const void *p)
{
	const struct ctl_grant	*cg = p;

	id(cg->cg_id, sizeof(cg->cg_id), 0);
	text(cg->cg_grant, sizeof(cg->cg_grant), 0);
	text(cg->cg_upstream, sizeof(cg->cg_upstream), 0);
	text(cg->cg_header, sizeof(cg->cg_header), 0);
	text(cg->cg_secret, sizeof(cg->cg_secret), 1);
}

static void
journal_taken(const void *p)
{
	const struct ctl_journal	*cj = p;

	id(cj->cj_id, sizeof(cj->cj_id), 0);
	pad(cj->cj_pad);
	if ((cj->cj_flags & ~JOURNAL_VERIFY) || cj->cj_max > JOURNAL_READ_MAX)
		abort();
}

static void
git_taken(const void *p)
{
	const struct ctl_git	*cg = p;

	dir(cg->cg_dir, sizeof(cg->cg_dir), 0);
	id(cg->cg_id, sizeof(cg->cg_id), 1);
	pad(cg->cg_pad);
	if (cg->cg_flags != 0)
		abort();
}

static void
codein_common(const struct ctl_codein *ci, int history)
{
	id(ci->ci_id, sizeof(ci->ci_id), 0);
	pad(ci->ci_pad);
	dir(ci->ci_dir, sizeof(ci->ci_dir), history);
	if ((ci->ci_flags & ~CODEIN_CLEAN) || (history && ci->ci_flags) ||
	    ci->ci_timeout_s > CODEIN_TIMEOUT_MAX)
		abort();
}

static void
codein_taken(const void *p)
{
	codein_common(p, 0);
}

static void
history_taken(const void *p)
{
	codein_common(p, 1);
}

static void
server_taken(const void *p)
{
	const struct ctl_server	*cv = p;
	size_t			 i;

	id(cv->cv_id, sizeof(cv->cv_id), 0);
	pad(cv->cv_pad);
	if (!ended(cv->cv_method, sizeof(cv->cv_method)) ||
	    cv->cv_method[0] == '\0' || !ended(cv->cv_path,
	    sizeof(cv->cv_path)) || cv->cv_path[0] != '/' ||
	    !ended(cv->cv_content_type, sizeof(cv->cv_content_type)) ||
	    cv->cv_bodylen > sizeof(cv->cv_body))
		abort();
	for (i = 0; cv->cv_method[i] != '\0'; i++)
		if (cv->cv_method[i] < 'A' || cv->cv_method[i] > 'Z')
			abort();
}

static void
token_taken(const void *p)
{
	const struct ctl_space	*cs = p;

	id(cs->cs_id, sizeof(cs->cs_id), 0);
}

static void
review_taken(const void *p)
{
	const struct ctl_review	*rv = p;

	id(rv->rv_id, sizeof(rv->rv_id), 0);
	pad(rv->rv_pad);
	dir(rv->rv_dir, sizeof(rv->rv_dir), 1);
	if (rv->rv_flags & ~REVIEW_F_PATCH)
		abort();
}

static void
apply_taken(const void *p)
{
	const struct ctl_apply	*ca = p;

	id(ca->ca_id, sizeof(ca->ca_id), 0);
	pad(ca->ca_pad);
	dir(ca->ca_dir, sizeof(ca->ca_dir), 1);
	if ((ca->ca_mode != APPLY_BRANCH && ca->ca_mode != APPLY_WORKTREE) ||
	    !ended(ca->ca_branch, sizeof(ca->ca_branch)) ||
	    (ca->ca_mode == APPLY_BRANCH && ca->ca_branch[0] == '\0') ||
	    !ended(ca->ca_allow, sizeof(ca->ca_allow)) ||
	    strspn(ca->ca_allow, "abcdefghijklmnopqrstuvwxyz_,") !=
	    strlen(ca->ca_allow))
		abort();
}

static void
events_taken(const void *p)
{
	const struct ctl_events_req	*ce = p;

	if ((ce->ce_flags & ~CTL_EVENTS_FOLLOW) || ce->ce_pad != 0)
		abort();
}

static void
tools_taken(const void *p)
{
	const struct ctl_tools	*ct = p;

	if (!ended(ct->ct_agent, sizeof(ct->ct_agent)) ||
	    (ct->ct_agent[0] != '\0' && !agent_name_valid(ct->ct_agent)))
		abort();
}

static void
stream_test_taken(const void *p)
{
	const struct ctl_stream_test	*ct = p;

	if (ct->ct_bytes > (64ULL << 30) || ct->ct_reserved != 0 ||
	    (ct->ct_sink != CTL_SINK_JOURNAL && ct->ct_sink != CTL_SINK_CLIENT))
		abort();
}

#define CHECK(fn, type)	static int fn##_c(const void *p) { \
				return fn((const type *)p); }
CHECK(ctl_exec_valid, struct ctl_exec)
CHECK(ctl_attach_valid, struct ctl_exec)
CHECK(ctl_network_valid, struct ctl_network)
CHECK(ctl_grant_valid, struct ctl_grant)
CHECK(ctl_journal_valid, struct ctl_journal)
CHECK(ctl_git_valid, struct ctl_git)
CHECK(ctl_server_valid, struct ctl_server)
CHECK(ctl_token_valid, struct ctl_space)
CHECK(ctl_review_valid, struct ctl_review)
CHECK(ctl_apply_valid, struct ctl_apply)
CHECK(ctl_events_valid, struct ctl_events_req)
CHECK(ctl_tools_valid, struct ctl_tools)
CHECK(ctl_stream_test_valid, struct ctl_stream_test)

static int
codein_c(const void *p)
{
	return ctl_codein_valid(p, 0);
}

static int
history_c(const void *p)
{
	return ctl_codein_valid(p, 1);
}

static const struct op {
	size_t	  len;
	int	(*check)(const void *);
	void	(*taken)(const void *);
} ops[] = {
	{ sizeof(struct ctl_exec), ctl_exec_valid_c, exec_taken },
	{ sizeof(struct ctl_exec), ctl_attach_valid_c, attach_taken },
	{ sizeof(struct ctl_network), ctl_network_valid_c, network_taken },
	{ sizeof(struct ctl_grant), ctl_grant_valid_c, grant_taken },
	{ sizeof(struct ctl_journal), ctl_journal_valid_c, journal_taken },
	{ sizeof(struct ctl_git), ctl_git_valid_c, git_taken },
	{ sizeof(struct ctl_codein), codein_c, codein_taken },
	{ sizeof(struct ctl_codein), history_c, history_taken },
	{ sizeof(struct ctl_server), ctl_server_valid_c, server_taken },
	{ sizeof(struct ctl_space), ctl_token_valid_c, token_taken },
	{ sizeof(struct ctl_review), ctl_review_valid_c, review_taken },
	{ sizeof(struct ctl_apply), ctl_apply_valid_c, apply_taken },
	{ sizeof(struct ctl_events_req), ctl_events_valid_c, events_taken },
	{ sizeof(struct ctl_tools), ctl_tools_valid_c, tools_taken },
	{ sizeof(struct ctl_stream_test), ctl_stream_test_valid_c,
	    stream_test_taken },
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct op	*op;
	uint8_t		*p;
	size_t		 n;
	int		 v;

	if (size < 1)
		return 0;
	op = &ops[data[0] % (sizeof(ops) / sizeof(ops[0]))];
	/* Exactly op_len, as the router takes it: ASan sees past it. */
	if ((p = calloc(1, op->len)) == NULL)
		abort();
	n = size - 1 < op->len ? size - 1 : op->len;
	memcpy(p, data + 1, n);
	v = op->check(p);
	if (v != 0 && v != 1)
		abort();
	if (v)
		op->taken(p);
	if (op->check(p) != v)
		abort();
	free(p);
	return 0;
}
