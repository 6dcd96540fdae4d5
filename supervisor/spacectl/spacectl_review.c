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
 * review: the work of a space as its quarantine saw it (commits, paths,
 * flags, the patch with -p).  Every text was escaped in the quarantine
 * and checked by spaced; it is printed as it came, never interpreted.
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "review_pack.h"
#include "spacectl.h"
#include "spacectl_output.h"

struct review_call {
	struct ctl_req	 rc_req;
	json_t		*rc_out;	/* the whole review */
	json_t		*rc_commits, *rc_paths, *rc_flags;
	char		*rc_patch;
	size_t		 rc_patch_len;
	int		 rc_have_tip;
};

static void
set_str(json_t *o, const char *k, const char *v)
{
	if (json_object_set_new(o, k, json_string(v)) == -1)
		failed("internal_error", "json");
}

static void
review_patch(struct review_call *rc, const char *text)
{
	size_t	 n = strlen(text);
	char	*p;

	if ((p = realloc(rc->rc_patch, rc->rc_patch_len + n + 1)) == NULL)
		failed("internal_error", strerror(errno));
	memcpy(p + rc->rc_patch_len, text, n + 1);
	rc->rc_patch = p;
	rc->rc_patch_len += n;
}

/* A packed record: its head, then two strings, maybe one NUL more. */
static void
review_unpack(struct imsg *imsg, struct git_review_rec *rr)
{
	static uint8_t	 buf[sizeof(*rr) + 1];
	size_t		 len = imsg_get_len(imsg), n;

	memset(rr, 0, sizeof(*rr));
	if (len > sizeof(buf) || imsg_get_data(imsg, buf, len) == -1 ||
	    (n = review_rec_unpack(buf, len, rr)) == 0 || len - n > 1)
		failed("bad_answer", "a review record");
	rr->rr_commit[sizeof(rr->rr_commit) - 1] = '\0';
}

static void
review_take(struct review_call *rc, struct ctl_req *cr, struct imsg *imsg)
{
	struct git_review_rec	 rr;
	json_t			*o;
	char			 st[2];

	if (ctl_take_done(cr, imsg))
		return;
	review_unpack(imsg, &rr);
	if (rr.rr_kind == REVIEW_PATCH) {
		review_patch(rc, rr.rr_a);
		return;
	}
	if ((o = json_object()) == NULL)
		failed("internal_error", "json");
	switch (rr.rr_kind) {
	case REVIEW_BASE:
		set_str(rc->rc_out, "base", rr.rr_commit);
		set_str(rc->rc_out, "start", rr.rr_b);
		json_decref(o);
		return;
	case REVIEW_TIP:
		set_str(rc->rc_out, "tip", rr.rr_commit);
		rc->rc_have_tip = 1;
		json_decref(o);
		return;
	case REVIEW_COMMIT:
		set_str(o, "id", rr.rr_commit);
		set_str(o, "author", rr.rr_a);
		set_str(o, "subject", rr.rr_b);
		json_object_set_new(o, "time", json_integer(rr.rr_size));
		out_json_add(rc->rc_commits, o);
		return;
	case REVIEW_PATH:
		st[0] = (char)rr.rr_status;
		st[1] = '\0';
		set_str(o, "status", st);
		set_str(o, "path", rr.rr_a);
		json_object_set_new(o, "size", json_integer(rr.rr_size));
		if (rr.rr_b[0] != '\0')
			set_str(o, "from", rr.rr_b);
		out_json_add(rc->rc_paths, o);
		return;
	case REVIEW_FLAG:
		set_str(o, "reason", rr.rr_b);
		set_str(o, "commit", rr.rr_commit);
		set_str(o, "path", rr.rr_a);
		out_json_add(rc->rc_flags, o);
		return;
	}
	failed("bad_answer", "unknown record");
}

static void
review_data(struct ctl_req *cr, struct imsg *imsg)
{
	review_take(cr->cr_arg, cr, imsg);
}

/* A section's heading: its count, what it counts, then more words. */
static void
review_heading(const json_t *a, const char *what, const char *more)
{
	printf("\n%zu %s%s%s\n", json_array_size(a), what,
	    json_array_size(a) == 1 ? "" : "s", more);
}

static void
review_text(struct review_call *rc)
{
	json_t		*o;
	size_t		 i;

	printf("base %s\nstart %s\ntip %s\n",
	    json_string_value(json_object_get(rc->rc_out, "base")),
	    json_string_value(json_object_get(rc->rc_out, "start")),
	    json_string_value(json_object_get(rc->rc_out, "tip")));
	review_heading(rc->rc_commits, "commit", "");
	json_array_foreach(rc->rc_commits, i, o)
		printf("commit %s %s\n    %s\n",
		    json_string_value(json_object_get(o, "id")),
		    json_string_value(json_object_get(o, "author")),
		    json_string_value(json_object_get(o, "subject")));
	review_heading(rc->rc_paths, "path", " changed");
	json_array_foreach(rc->rc_paths, i, o) {
		printf("%s %10lld %s",
		    json_string_value(json_object_get(o, "status")),
		    (long long)json_integer_value(json_object_get(o, "size")),
		    json_string_value(json_object_get(o, "path")));
		if (json_object_get(o, "from") != NULL)
			printf(" (from %s)",
			    json_string_value(json_object_get(o, "from")));
		putchar('\n');
	}
	review_heading(rc->rc_flags, "flag", "");
	json_array_foreach(rc->rc_flags, i, o)
		printf("flag %s %s %s\n",
		    json_string_value(json_object_get(o, "reason")),
		    json_string_value(json_object_get(o, "commit")),
		    json_string_value(json_object_get(o, "path")));
	if (rc->rc_patch != NULL)
		printf("\n%s", rc->rc_patch);
}

/* ID and DIR into a request: DIR resolved, as code in names it. */
static void
target_fill(const char *id, const char *dir, char *idbuf, size_t idlen,
    char *dirbuf, size_t dirlen)
{
	char	 path[PATH_MAX];

	take_space_id(idbuf, idlen, id);
	if (dir == NULL)
		return;
	if (realpath(dir, path) == NULL)
		folder_failed(dir);
	if (strlcpy(dirbuf, path, dirlen) >= dirlen)
		failed("bad_request", "path too long");
}

/* The review's records gather here, for review and for apply. */
static void
review_call_init(struct review_call *rc)
{
	memset(rc, 0, sizeof(*rc));
	if ((rc->rc_out = json_object()) == NULL ||
	    (rc->rc_commits = json_array()) == NULL ||
	    (rc->rc_paths = json_array()) == NULL ||
	    (rc->rc_flags = json_array()) == NULL)
		failed("internal_error", "json");
}

static void
review_call_free(struct review_call *rc)
{
	json_decref(rc->rc_commits);
	json_decref(rc->rc_paths);
	json_decref(rc->rc_flags);
	json_decref(rc->rc_out);
	free(rc->rc_patch);
}

/* review ID [DIR] [-p]: -j is spacectl's own. */
int
review_main(int argc, char *argv[])
{
	struct review_call	 rc;
	struct ctl_review	 rv;
	const char		*id = NULL, *dir = NULL;
	int			 i;

	memset(&rv, 0, sizeof(rv));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-p") == 0)
			rv.rv_flags |= REVIEW_F_PATCH;
		else if (argv[i][0] == '-')
			usage();	/* as apply: no folder "-x" */
		else if (id == NULL)
			id = argv[i];
		else if (dir == NULL)
			dir = argv[i];
		else
			usage();
	}
	if (id == NULL)
		usage();
	target_fill(id, dir, rv.rv_id, sizeof(rv.rv_id), rv.rv_dir,
	    sizeof(rv.rv_dir));
	review_call_init(&rc);
	ctl_req_set(&rc.rc_req, IMSG_CTL_REVIEW, &rv, sizeof(rv), &rc,
	    review_data);
	ctl_call(&rc.rc_req);
	if (!rc.rc_have_tip)
		failed("bad_answer", "no review");
	set_str(rc.rc_out, "space", id);
	json_object_set(rc.rc_out, "commits", rc.rc_commits);
	json_object_set(rc.rc_out, "paths", rc.rc_paths);
	json_object_set(rc.rc_out, "flags", rc.rc_flags);
	if (rc.rc_patch != NULL)
		set_str(rc.rc_out, "patch", rc.rc_patch);
	if (env->sc_json)
		out_json_checked(json_incref(rc.rc_out));
	else
		review_text(&rc);
	review_call_free(&rc);
	return 0;
}

/* --- apply --------------------------------------------------------- */

struct apply_call {
	struct ctl_req		 ac_req;
	struct review_call	 ac_review;	/* its flags, on a refusal */
	struct git_apply_result	 ac_result;
	int			 ac_have_result;
	char			 ac_name[SPACE_NAME_MAX + 1];
};

static void
apply_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct apply_call	*ac = cr->cr_arg;

	if (imsg_get_len(imsg) == sizeof(ac->ac_result) &&
	    !ac->ac_have_result) {
		ctl_read(imsg, &ac->ac_result, sizeof(ac->ac_result));
		ac->ac_result.ar_branch[sizeof(ac->ac_result.ar_branch) - 1] =
		    '\0';
		ac->ac_result.ar_old[sizeof(ac->ac_result.ar_old) - 1] = '\0';
		ac->ac_result.ar_new[sizeof(ac->ac_result.ar_new) - 1] = '\0';
		ac->ac_have_result = 1;
		return;
	}
	review_take(&ac->ac_review, cr, imsg);
}

/* The space's name, for the default branch spaced/<name>. */
static void
name_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct apply_call	*ac = cr->cr_arg;
	struct space_info	 si;

	if (ctl_take_done(cr, imsg) || imsg_get_len(imsg) != sizeof(si) ||
	    ac->ac_name[0] != '\0')
		return;
	ctl_read(imsg, &si, sizeof(si));
	if (si.si_kind != SPACE_REC_INFO)
		return;
	si.si_name[sizeof(si.si_name) - 1] = '\0';
	strlcpy(ac->ac_name, si.si_name, sizeof(ac->ac_name));
}

static void
apply_name(struct apply_call *ac, const char *id)
{
	struct ctl_req		 cr;
	struct ctl_space	 cs;

	memset(&cs, 0, sizeof(cs));
	take_space_id(cs.cs_id, sizeof(cs.cs_id), id);
	memset(&cr, 0, sizeof(cr));
	ctl_req_set(&cr, IMSG_CTL_SHOW, &cs, sizeof(cs), ac, name_data);
	ctl_call(&cr);
}

/*
 * The default branch, spaced/<name>: a name is free text ("make run"),
 * so each byte but an ASCII letter, digit, '-' or '_' becomes '-', and
 * a space without a name gives its id.
 */
static void
apply_default_branch(char *out, size_t len, const char *name, const char *id)
{
	const char	*from = name[0] != '\0' ? name : id;
	size_t		 i, n;

	n = strlcpy(out, "spaced/", len);
	for (i = 0; from[i] != '\0' && n + 1 < len; i++, n++) {
		unsigned char	 c = from[i];

		out[n] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '_' ? c : '-';
	}
	if (from[i] != '\0')
		failed("bad_request", "branch name too long");
	out[n] = '\0';
}

static void
allow_add(char *list, size_t len, const char *name)
{
	if (name[0] == '\0' || name[strspn(name,
	    "abcdefghijklmnopqrstuvwxyz_,")] != '\0')
		failed("bad_request", "--allow: a reason's name");
	if ((list[0] != '\0' && strlcat(list, ",", len) >= len) ||
	    strlcat(list, name, len) >= len)
		failed("bad_request", "--allow: too many reasons");
}

/* "1 commit", "2 commits" */
static const char *
commits(unsigned n)
{
	static char	 s[32];

	snprintf(s, sizeof(s), "%u commit%s", n, n == 1 ? "" : "s");
	return s;
}

static void
apply_print(const struct apply_call *ac, const char *id)
{
	const struct git_apply_result	*ar = &ac->ac_result;
	json_t				*o;

	if (env->sc_json) {
		o = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:b, s:b, s:b, s:i, "
		    "s:i, s:i, s:i, s:i, s:O, s:s}", "space", id, "mode",
		    ar->ar_mode == APPLY_WORKTREE ? "worktree" : "branch",
		    "branch", ar->ar_branch, "old", ar->ar_old[0] != '\0' ?
		    ar->ar_old : NULL, "new", ar->ar_new, "created",
		    ar->ar_created != 0, "unchanged", ar->ar_unchanged != 0,
		    "replaced", ar->ar_replaced != 0, "commits", (int)ar->ar_commits, "objects",
		    (int)ar->ar_objects, "added", (int)ar->ar_added,
		    "modified", (int)ar->ar_modified, "deleted",
		    (int)ar->ar_deleted, "flags", ac->ac_review.rc_flags,
		    "from", ar->ar_from == APPLY_FROM_REVIEW ? "review" :
		    "space");
		out_json_checked(o);
		return;
	}
	if (ar->ar_mode == APPLY_WORKTREE)
		printf("work tree and index: %u added, %u modified, %u deleted "
		    "(staged, not committed; HEAD unchanged)\n", ar->ar_added,
		    ar->ar_modified, ar->ar_deleted);
	else if (ar->ar_unchanged)
		printf("%s already at %s\n", ar->ar_branch, ar->ar_new);
	else if (ar->ar_created)
		printf("%s created at %s (%s, %u objects)\n", ar->ar_branch,
		    ar->ar_new, commits(ar->ar_commits), ar->ar_objects);
	else if (ar->ar_replaced)
		printf("%s moved from %s, an earlier apply's uncommitted "
		    "work, to %s (%s, %u objects)\n", ar->ar_branch,
		    ar->ar_old, ar->ar_new, commits(ar->ar_commits),
		    ar->ar_objects);
	else
		printf("%s fast-forwarded %s..%s (%s, %u objects)\n",
		    ar->ar_branch, ar->ar_old, ar->ar_new,
		    commits(ar->ar_commits), ar->ar_objects);
	if (ar->ar_from == APPLY_FROM_REVIEW)
		printf("tip %s: the one the review showed (later work in the "
		    "space was not taken)\n", ar->ar_new);
	else
		printf("tip %s: the space's work as it is now (no review was "
		    "kept)\n", ar->ar_new);
}

/* apply ID [DIR] [-b BRANCH | -w] [--allow REASON ...] */
int
apply_main(int argc, char *argv[])
{
	struct apply_call	 ac;
	struct ctl_apply	 ca;
	const char		*id = NULL, *dir = NULL, *branch = NULL;
	int			 i, worktree = 0;

	memset(&ca, 0, sizeof(ca));
	memset(&ac, 0, sizeof(ac));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-w") == 0)
			worktree = 1;
		else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
			branch = argv[++i];
		else if (strcmp(argv[i], "--allow") == 0 && i + 1 < argc)
			allow_add(ca.ca_allow, sizeof(ca.ca_allow), argv[++i]);
		else if (argv[i][0] == '-')
			usage();
		else if (id == NULL)
			id = argv[i];
		else if (dir == NULL)
			dir = argv[i];
		else
			usage();
	}
	if (id == NULL || (worktree && branch != NULL))
		usage();
	target_fill(id, dir, ca.ca_id, sizeof(ca.ca_id), ca.ca_dir,
	    sizeof(ca.ca_dir));
	ca.ca_mode = worktree ? APPLY_WORKTREE : APPLY_BRANCH;
	if (!worktree && branch == NULL) {
		apply_name(&ac, id);
		apply_default_branch(ca.ca_branch, sizeof(ca.ca_branch),
		    ac.ac_name, id);
	} else if (branch != NULL && branch[0] == '\0')
		failed("invalid_branch", "-b names no branch (an empty name)");
	else if (branch != NULL && strlcpy(ca.ca_branch, branch,
	    sizeof(ca.ca_branch)) >= sizeof(ca.ca_branch))
		failed("bad_request", "branch name too long");
	review_call_init(&ac.ac_review);
	ctl_req_set(&ac.ac_req, IMSG_CTL_APPLY, &ca, sizeof(ca), &ac,
	    apply_data);
	ctl_call(&ac.ac_req);
	if (!ac.ac_have_result)
		failed("bad_answer", "no result");
	apply_print(&ac, id);
	review_call_free(&ac.ac_review);
	return 0;
}
