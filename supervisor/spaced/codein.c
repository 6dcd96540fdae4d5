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
 * code-in and history (spec "Code in"): spaced-git's pack goes through
 * the stream table, unread, into a fixed script in the space.  A failure
 * after the snapshot removes the host ref again
 * (docs/notes/spaced-operations.md).
 */

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_check.h"
#include "ctl_proto.h"
#include "errors.h"
#include "git_parse.h"
#include "git_proto.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_parse.h"
#include "spaced.h"

enum codein_step {
	STEP_SNAPSHOT = 0,
	STEP_TRANSFER,
	STEP_ROLLBACK,
	STEP_ORIGIN,		/* history without a folder: where from */
	STEP_LOOKUP,		/* the place: the caller's space? */
};

struct codein_state {
	enum codein_step	 step;
	int			 history;	/* not code in */
	int			 clean;		/* code-in --clean */
	char			 id[SPACE_ID_SIZE];
	char			 dir[GIT_DIR_MAX];
	int			 relaunched;
	int			 abandoned;	/* its client left */
	struct git_snap		 snap;
	int			 have_snap;
	int			 exec_failed;	/* the place's code */
	int			 stopped;	/* as the lookup saw it */
	int			 pack_due, exec_due;
	int			 cut;		/* the pack, at an exit 0 */
	int			 exit;		/* the script's */
	uint32_t		 timeout_s;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
};
const size_t codein_state_size = sizeof(struct codein_state);

/* The inner limit outlives the host's by this much (spec: 5 s). */
#define CODEIN_INNER_MARGIN	5
#define CODEIN_OUTPUT_MAX	(1024 * 1024)
/* The script's own refusals, by exit code; a kill is 137. */
#define UNFOLD_PATH_IN_USE	64
#define UNFOLD_INIT_FAILED	65
#define UNFOLD_PACK_FAILED	66
#define UNFOLD_FAILED		67

/*
 * Run as the space user in the space: $1 the project folder, $2 the
 * object format, $3 the branch ("" detached), $4 base, $5 staged, $6
 * start, $7 the inner limit in seconds, $8 user.name, $9 user.email
 * (each "" for none).  The pack is on stdin.  Only programs of the
 * image's own directories, no config of the space user's (a planted
 * hooksPath), a limit on the one step that waits for the host.
 */
static const char codein_script[] =
	"PATH=/usr/local/bin:/usr/bin:/bin\n"
	"GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null\n"
	"GIT_TERMINAL_PROMPT=0\n"
	"export PATH GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_TERMINAL_PROMPT\n"
	"[ -e \"$1\" ] && { echo \"spaced: $1 exists\" >&2; exit 64; }\n"
	"if [ -n \"$3\" ]; then\n"
	"  git init -q --object-format=\"$2\" --initial-branch=\"$3\" \"$1\"\n"
	"else git init -q --object-format=\"$2\" \"$1\"; fi || exit 65\n"
	"cd \"$1\" || exit 65\n"
	"timeout -s KILL \"$7\" git index-pack --stdin >/dev/null || exit 66\n"
	"echo \"$4\" >.git/shallow || exit 67\n"
	"git update-ref refs/spaced/base \"$4\" &&\n"
	"git update-ref refs/spaced/start-index \"$5\" &&\n"
	"git update-ref refs/spaced/start \"$6\" || exit 67\n"
	"if [ -n \"$8\" ]; then git config user.name \"$8\" || exit 67; fi\n"
	"if [ -n \"$9\" ]; then git config user.email \"$9\" || exit 67; fi\n"
	"if [ -n \"$3\" ]; then git checkout -q -B \"$3\" refs/spaced/start\n"
	"else git checkout -q --detach refs/spaced/start; fi || exit 67\n"
	"git reset -q --soft refs/spaced/base &&\n"
	"git read-tree refs/spaced/start-index || exit 67\n";

static void	codein_rollback(struct request *, const char *, const char *);
static const char *codein_lookup(struct request *);

/* Messages are cut to their field: text from a repository may be long. */
static void __attribute__((format(printf, 3, 4)))
fmt_cut(char *buf, size_t len, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}
static void	codein_record(struct request *, const char *, const char *);

/*
 * The history: $1 the project folder, $2 the base, $3 the inner limit.
 * A repository that is no longer shallow says so (70) before it reads
 * anything; the shallow mark goes only once everything behind the base
 * is there, so a pack that lied leaves the space as it was.
 */
static const char history_script[] =
	"PATH=/usr/local/bin:/usr/bin:/bin\n"
	"GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null\n"
	"GIT_TERMINAL_PROMPT=0\n"
	"export PATH GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_TERMINAL_PROMPT\n"
	"cd \"$1\" || exit 72\n"
	"[ -f .git/shallow ] || exit 70\n"
	"timeout -s KILL \"$3\" git index-pack --stdin >/dev/null || exit 66\n"
	"mv .git/shallow .git/shallow.spaced || exit 71\n"
	"if timeout -s KILL \"$3\" git rev-list --quiet --objects \"$2\"; then\n"
	"  rm -f .git/shallow.spaced\n"
	"else mv .git/shallow.spaced .git/shallow; exit 71; fi\n";
#define HISTORY_ALREADY_COMPLETE	70
#define HISTORY_INCOMPLETE		71
#define HISTORY_NO_PROJECT		72

/* The host's timeout of code in: spaced.conf(5), else the spec's. */
static uint32_t
codein_timeout(void)
{
	const char	*v = spaced_config()->sc_codein_timeout;
	const char	*errstr;
	long long	 n;

	if (v[0] == '\0')
		return CODEIN_TIMEOUT_DEFAULT;
	n = strtonum(v, 1, CODEIN_TIMEOUT_MAX, &errstr);
	return errstr == NULL ? (uint32_t)n : CODEIN_TIMEOUT_DEFAULT;
}

const char *
codein_start(struct request *r, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;
	struct ctl_codein	 ci;

	cs->history = r->r_op->op_type == IMSG_CTL_HISTORY;
	if (imsg_get_data(imsg, &ci, sizeof(ci)) == -1 ||
	    !ctl_codein_valid(&ci, cs->history))
		return ERR_BAD_REQUEST;
	strlcpy(cs->id, ci.ci_id, sizeof(cs->id));
	strlcpy(cs->dir, ci.ci_dir, sizeof(cs->dir));
	cs->clean = (ci.ci_flags & CODEIN_CLEAN) != 0;
	cs->timeout_s = ci.ci_timeout_s != 0 ? ci.ci_timeout_s :
	    codein_timeout();
	return codein_lookup(r);
}

/*
 * The space is looked up as the caller first, as review does: nothing
 * is written in the caller's repository for another owner's id.
 */
static const char *
codein_lookup(struct request *r)
{
	struct codein_state	*cs = r->r_state;
	struct space_req	 sq;

	space_req_fill(r, &sq, cs->id);
	cs->step = STEP_LOOKUP;
	return place_lookup_caller(r, &sq);
}

/* The caller's space: on to the snapshot (or the origin). */
static void
codein_looked(struct request *r)
{
	struct codein_state	*cs = r->r_state;
	struct git_req		 gq;
	const char		*code;

	/*
	 * A stopped space takes no code and no history: refused before
	 * spaced-git is asked (a snapshot writes objects and a ref into
	 * the caller's repository; a history reads it all for nothing).
	 */
	if (cs->stopped) {
		request_refuse(r, ERR_SPACE_NOT_RUNNING, "");
		return;
	}
	/* A history with no folder: the one code in came from. */
	if (cs->history && cs->dir[0] == '\0') {
		cs->step = STEP_ORIGIN;
		if (space_origin_send(r, IMSG_JOURNAL_ORIGIN_GET, cs->id,
		    r->r_uid, "") == -1)
			request_fail(r, ERR_INTERNAL);
		return;
	}
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, cs->id, sizeof(gq.gq_space));
	gq.gq_flags = cs->clean ? GIT_REQ_CLEAN : 0;
	cs->step = STEP_SNAPSHOT;
	if ((code = gitinst_attach(r, cs->dir, cs->history ?
	    IMSG_GIT_HISTORY_REQ : IMSG_GIT_SNAPSHOT_REQ, &gq)) != NULL)
		request_fail(r, code);
}

static void
codein_lookup_record(struct request *r, enum procid from, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;
	struct space_info	 si;

	if (place_lookup_info(r, from, imsg, cs->step == STEP_LOOKUP, &si))
		cs->stopped = strcmp(si.si_state, "running") != 0;
}

/*
 * The client of a code in left.  From the snapshot on, the host ref
 * may be made: the request goes on alone, so that it either ends as a
 * code in (its origin kept for remove) or takes the ref away again; a
 * snapshot not yet sent on goes no further.  Before it, and for a
 * history (nothing on the host), cancelling is enough.
 */
int
codein_abandon(struct request *r)
{
	struct codein_state	*cs = r->r_state;

	if (cs->history || cs->step == STEP_LOOKUP ||
	    cs->step == STEP_ORIGIN)
		return 0;
	cs->abandoned = 1;
	return 1;
}

static void
codein_fail(struct request *r, const char *code, const char *message)
{
	if (r->r_git != NULL)
		gitinst_retire(r->r_git);
	request_refuse(r, code, message);
}

/* argv for the script, NUL-separated, into the exec request. */
static int
codein_argv(struct request *r, struct space_exec_req *se, const char *path)
{
	struct codein_state	*cs = r->r_state;
	const struct git_snap	*gs = &cs->snap;
	char			 limit[16];
	/*
	 * The whole script under the inner limit, not its one step that
	 * reads the pack: timeout kills its process group, so a hang at
	 * any step leaves nothing running inside once the limit passed.
	 */
	const char		*argv[] = { "/usr/bin/timeout", "-s", "KILL",
	    limit, "/bin/sh", "-c", codein_script,
	    "spaced-code-in", path, gs->gs_format, gs->gs_branch,
	    gs->gs_base, gs->gs_staged, gs->gs_start, limit,
	    gs->gs_user_name, gs->gs_user_email };
	size_t			 i, n, len = 0;

	const char		*hargv[] = { "/usr/bin/timeout", "-s", "KILL",
	    limit, "/bin/sh", "-c", history_script,
	    "spaced-history", path, gs->gs_base, limit };
	const char		**v = cs->history ? hargv : argv;
	size_t			 nv = cs->history ?
	    sizeof(hargv) / sizeof(hargv[0]) : sizeof(argv) / sizeof(argv[0]);

	snprintf(limit, sizeof(limit), "%u",
	    cs->timeout_s + CODEIN_INNER_MARGIN);
	for (i = 0; i < nv; i++) {
		n = strlen(v[i]) + 1;
		if (len + n > sizeof(se->se_argv))
			return -1;
		memcpy(se->se_argv + len, v[i], n);
		len += n;
	}
	se->se_argc = i;
	se->se_argv_len = len;
	return 0;
}

static void
space_path(struct request *r, char *buf, size_t len)
{
	struct codein_state	*cs = r->r_state;

	snprintf(buf, len, "/spaces/%s/%s", cs->id,
	    cs->snap.gs_name);
}

/* The snapshot is taken: the pack and the script, side by side. */
static void
codein_transfer(struct request *r)
{
	struct codein_state	*cs = r->r_state;
	static struct space_exec_req	 se;
	struct git_pack_req		 gp;
	struct ctl_exec_streams		 xs;
	struct stream_route		*pack, *out;
	const char			*code;
	char				 path[GIT_DIR_MAX];

	space_path(r, path, sizeof(path));
	memset(&se, 0, sizeof(se));
	space_req_fill(r, &se.se_space, cs->id);
	se.se_target = EXEC_TARGET_SPACE;
	se.se_timeout_ms = cs->timeout_s * 1000;
	se.se_output_max = CODEIN_OUTPUT_MAX;
	if (codein_argv(r, &se, path) == -1) {
		codein_rollback(r, ERR_CODE_TRANSFER_FAILED, "the script's "
		    "arguments are too long");
		return;
	}
	/* The streams end at the place the space lives on. */
	if ((pack = stream_open(r, EP_GIT(r->r_git),
	    EP_WORKER(place_of(cs->id)))) == NULL ||
	    (out = stream_open(r, EP_WORKER(place_of(cs->id)),
	    EP_CLIENT(r->r_cc))) == NULL) {
		codein_rollback(r, ERR_BUSY, "no stream free");
		return;
	}
	se.se_in_stream = pack->s_id;
	se.se_out_stream = out->s_id;
	/* The sink first: it must know the stream before data comes. */
	if ((code = place_send(r, IMSG_SPACE_EXEC_REQ, &se, sizeof(se))) !=
	    NULL) {
		codein_rollback(r, code, place_why(code));
		return;
	}
	cs->exec_due = 1;
	memset(&gp, 0, sizeof(gp));
	strlcpy(gp.gp_space, cs->id, sizeof(gp.gp_space));
	gp.gp_kind = cs->history ? GIT_PACK_HISTORY : GIT_PACK_START;
	gp.gp_stream = pack->s_id;
	strlcpy(gp.gp_base, cs->snap.gs_base, sizeof(gp.gp_base));
	strlcpy(gp.gp_staged, cs->snap.gs_staged,
	    sizeof(gp.gp_staged));
	strlcpy(gp.gp_start, cs->snap.gs_start, sizeof(gp.gp_start));
	if (request_send(r, PROC_GIT, IMSG_GIT_PACK_REQ, -1, &gp,
	    sizeof(gp)) == -1) {
		stream_abort(pack);
		codein_record(r, ERR_GIT_WORKER_FAILED, "spaced-git took no "
		    "pack request");
	} else
		cs->pack_due = 1;
	cs->step = STEP_TRANSFER;
	xs.xs_in = 0;
	xs.xs_out = out->s_id;
	request_data(r, &xs, sizeof(xs));
}

/* The first failure is the one the client hears of. */
static void
codein_record(struct request *r, const char *code, const char *message)
{
	struct codein_state	*cs = r->r_state;

	if (cs->code[0] != '\0')
		return;
	strlcpy(cs->code, code, sizeof(cs->code));
	strlcpy(cs->message, message, sizeof(cs->message));
}

/*
 * After the snapshot, a failure takes the host ref away again, by a
 * request to the same spaced-git; the failure is answered after that.
 */
static void
codein_rollback(struct request *r, const char *code, const char *message)
{
	struct codein_state	*cs = r->r_state;
	struct git_req	 gq;

	codein_record(r, code, message);
	cs->step = STEP_ROLLBACK;
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, cs->id, sizeof(gq.gq_space));
	if (r->r_git == NULL || request_send(r, PROC_GIT,
	    IMSG_GIT_REFS_REMOVE_REQ, -1, &gq, sizeof(gq)) == -1)
		codein_fail(r, cs->code, "the host ref "
		    "refs/spaced/spaces/<id>/start could not be removed");
}

/* The store keeps where the space's code came from, for its remove. */
static void
origin_send(struct request *r, uint32_t type)
{
	struct codein_state	*cs = r->r_state;

	(void)space_origin_send(r, type, cs->id, r->r_uid, cs->dir);
}

static void
codein_succeed(struct request *r)
{
	struct codein_state	*cs = r->r_state;
	struct ctl_codein_result	 cr;
	const struct git_snap		*gs = &cs->snap;

	memset(&cr, 0, sizeof(cr));
	space_path(r, cr.cr_space_path, sizeof(cr.cr_space_path));
	if (gs->gs_project[0] != '\0')
		fmt_cut(cr.cr_project_path, sizeof(cr.cr_project_path),
		    "%s/%s", cr.cr_space_path, gs->gs_project);
	else
		strlcpy(cr.cr_project_path, cr.cr_space_path,
		    sizeof(cr.cr_project_path));
	strlcpy(cr.cr_base, gs->gs_base, sizeof(cr.cr_base));
	strlcpy(cr.cr_staged, gs->gs_staged, sizeof(cr.cr_staged));
	strlcpy(cr.cr_start, gs->gs_start, sizeof(cr.cr_start));
	strlcpy(cr.cr_format, gs->gs_format, sizeof(cr.cr_format));
	strlcpy(cr.cr_branch, gs->gs_branch, sizeof(cr.cr_branch));
	cr.cr_name_copied = gs->gs_user_name[0] != '\0';
	cr.cr_email_copied = gs->gs_user_email[0] != '\0';
	origin_send(r, IMSG_JOURNAL_ORIGIN_SET);
	request_data(r, &cr, sizeof(cr));
	request_end(r);
}

static void
history_answer(struct request *r, const char *status)
{
	struct ctl_history_result	 ch;

	memset(&ch, 0, sizeof(ch));
	strlcpy(ch.ch_status, status, sizeof(ch.ch_status));
	if (r->r_streams[0] != NULL)
		ch.ch_bytes = r->r_streams[0]->s_gauge.sg_forwarded;
	request_data(r, &ch, sizeof(ch));
	request_end(r);
}

/* The history changes nothing on the host: nothing to roll back. */
static void
history_settle(struct request *r)
{
	struct codein_state	*cs = r->r_state;

	char	 why[SPACE_DONE_MESSAGE_MAX];
	int	 x = cs->exit;

	if (cs->exec_failed) {
		codein_fail(r, ERR_HISTORY_FAILED, cs->message);
		return;
	}
	if (x == 0 && cs->code[0] == '\0') {
		history_answer(r, "complete");
		return;
	}
	if (x == HISTORY_ALREADY_COMPLETE) {
		history_answer(r, "already_complete");
		return;
	}
	if (x == 0)
		strlcpy(why, cs->message, sizeof(why));
	else
		fmt_cut(why, sizeof(why), "step %s: inside_command_failed "
		    "(exit %d)", x == HISTORY_NO_PROJECT ? "cd" :
		    x == HISTORY_INCOMPLETE ? "unshallow" : "index-pack", x);
	codein_fail(r, ERR_HISTORY_FAILED, why);
}

/* Both the pack and the script have said their last word. */
static void
codein_settle(struct request *r)
{
	struct codein_state	*cs = r->r_state;

	char	 why[SPACE_DONE_MESSAGE_MAX];
	int	 x = cs->exit;

	if (cs->pack_due || cs->exec_due)
		return;
	if (cs->history) {
		history_settle(r);
		return;
	}
	if (cs->code[0] == '\0' && x == 0) {
		codein_succeed(r);
		return;
	}
	if (cs->code[0] == '\0') {
		if (x == UNFOLD_PATH_IN_USE)
			codein_record(r, ERR_SPACE_PATH_IN_USE, "the project "
			    "folder exists in the space already: remove the "
			    "space and create a new one");
		else if (x == UNFOLD_INIT_FAILED || x == UNFOLD_FAILED) {
			snprintf(why, sizeof(why), "the unfold inside the "
			    "space failed (exit %d)", x);
			codein_record(r, ERR_CODE_UNFOLD_FAILED, why);
		} else {
			snprintf(why, sizeof(why), "the receiver inside the "
			    "space exited with %d%s", x, x == 137 ?
			    " (killed at the inner limit)" : "");
			codein_record(r, ERR_CODE_TRANSFER_FAILED, why);
		}
	}
	codein_rollback(r, cs->code, cs->message);
}

static void
codein_snap(struct request *r, enum procid from, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;

	if (imsg_get_data(imsg, &cs->snap, sizeof(cs->snap)) == -1 ||
	    cs->step != STEP_SNAPSHOT || cs->have_snap ||
	    !git_snap_valid(&cs->snap)) {
		gitinst_distrust(r->r_git);
		return;
	}
	cs->have_snap = 1;
}

static void
codein_git_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;
	struct space_done	 sd;
	char			 why[SPACE_DONE_MESSAGE_MAX];

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    !git_done_valid(&sd)) {
		gitinst_distrust(r->r_git);
		return;
	}
	switch (cs->step) {
	case STEP_SNAPSHOT:
		if (cs->history &&
		    strcmp(sd.sd_code, ERR_HOST_SHALLOW) == 0) {
			history_answer(r, ERR_HOST_SHALLOW);
			return;
		}
		if (sd.sd_code[0] != '\0') {
			if (gitinst_relaunch(r, sd.sd_code, cs->dir,
			    &cs->relaunched))
				return;
			if (cs->history) {
				fmt_cut(why, sizeof(why), "step host: %s: %s",
				    sd.sd_code, sd.sd_message);
				codein_fail(r, ERR_HISTORY_FAILED, why);
			} else
				codein_fail(r, sd.sd_code, sd.sd_message);
		} else if (!cs->have_snap)
			gitinst_distrust(r->r_git);
		else if (cs->abandoned)
			codein_rollback(r, ERR_CANCELLED, "the client left");
		else
			codein_transfer(r);
		break;
	case STEP_TRANSFER:
		cs->pack_due = 0;
		/* Cut at the script's exit 0: the pack was not all read. */
		if (sd.sd_code[0] != '\0' && cs->cut)
			codein_record(r, ERR_CODE_TRANSFER_FAILED, "the "
			    "receiver inside the space exited 0 before the "
			    "pack ended");
		else if (sd.sd_code[0] != '\0') {
			fmt_cut(why, sizeof(why), "the pack: %s: %s",
			    sd.sd_code, sd.sd_message);
			codein_record(r, ERR_CODE_TRANSFER_FAILED, why);
		}
		codein_settle(r);
		break;
	case STEP_ROLLBACK:
		if (sd.sd_code[0] != '\0')
			fmt_cut(why, sizeof(why), "%s; and the host ref "
			    "refs/spaced/spaces/%s/start could not be removed: "
			    "%s", cs->message, cs->id,
			    sd.sd_message);
		else
			strlcpy(why, cs->message, sizeof(why));
		codein_fail(r, cs->code, why);
		break;
	case STEP_ORIGIN:	/* no spaced-git yet: none can answer */
	case STEP_LOOKUP:
		break;
	}
}

/* The script is done, or the place could not run it. */
static void
codein_exec_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;
	struct stream_route	*pack = r->r_streams[0];
	struct space_done	 sd;
	char			 why[SPACE_DONE_MESSAGE_MAX];

	if (cs->step == STEP_LOOKUP) {
		if (place_lookup_done(r, from, imsg) == 0)
			codein_looked(r);
		return;
	}
	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    memchr(sd.sd_code, '\0', sizeof(sd.sd_code)) == NULL ||
	    memchr(sd.sd_message, '\0', sizeof(sd.sd_message)) == NULL ||
	    (sd.sd_code[0] == '\0' && (sd.sd_exit < 0 || sd.sd_exit > 255)) ||
	    cs->step != STEP_TRANSFER)
		fatalx("%s: bad done from %s", __func__, proc_title(from));
	cs->exec_due = 0;
	cs->exit = sd.sd_exit;
	/* No space of the caller's: an unknown ID's words, as elsewhere. */
	if (strcmp(sd.sd_code, ERR_SPACE_NOT_FOUND) == 0) {
		codein_record(r, ERR_SPACE_NOT_FOUND, "");
		cs->exec_failed = 1;
	} else if (sd.sd_code[0] != '\0') {
		/* A stopped space's code came alone: it ended in ": ". */
		fmt_cut(why, sizeof(why), "%s: %s", sd.sd_code,
		    sd.sd_message[0] != '\0' ? sd.sd_message :
		    strcmp(sd.sd_code, ERR_SPACE_NOT_RUNNING) == 0 ?
		    "the space is stopped (spacectl start starts it)" :
		    "the place said no more");
		codein_record(r, ERR_CODE_TRANSFER_FAILED, why);
		cs->exec_failed = 1;
	}
	/*
	 * A pack nobody takes any more waits for credit: end it now.  A
	 * script that exited 0 before the pack's end (a space that does
	 * not cooperate) takes no more of it either.
	 */
	if (cs->pack_due && r->r_git != NULL && (sd.sd_code[0] != '\0' ||
	    sd.sd_exit != 0 || (pack != NULL && !pack->s_gauge.sg_ended))) {
		cs->cut = sd.sd_code[0] == '\0' && sd.sd_exit == 0;
		if (pack != NULL)
			stream_abort(pack);
		(void)gitinst_compose(r->r_git, IMSG_WORKER_CANCEL, r->r_id,
		    NULL, 0);
	}
	codein_settle(r);
}

/*
 * The store's answer: kept (code in's, nothing to do), or the folder a
 * history without one goes from.  Several folders brought into one
 * space leave the choice to the person: DIR.
 */
static void
codein_origin(struct request *r, enum procid from, struct imsg *imsg)
{
	struct codein_state	*cs = r->r_state;
	struct journal_origin	 jo;
	struct git_req		 gq;
	const char		*code;

	if (cs->step != STEP_ORIGIN)
		return;
	if (imsg_get_data(imsg, &jo, sizeof(jo)) == -1 ||
	    memchr(jo.jo_dir, '\0', sizeof(jo.jo_dir)) == NULL)
		fatalx("%s: bad origin from %s", __func__, proc_title(from));
	if (jo.jo_found == 0 || !git_dir_valid(jo.jo_dir, sizeof(jo.jo_dir))) {
		codein_fail(r, ERR_HISTORY_FAILED, "step host: not_a_commit: "
		    "no code in of this space is known: name its DIR");
		return;
	}
	if (jo.jo_found > 1) {
		codein_fail(r, ERR_HISTORY_FAILED, "step host: code came "
		    "into this space from several repositories: name the "
		    "DIR of one");
		return;
	}
	strlcpy(cs->dir, jo.jo_dir, sizeof(cs->dir));
	memset(&gq, 0, sizeof(gq));
	strlcpy(gq.gq_space, cs->id, sizeof(gq.gq_space));
	cs->step = STEP_SNAPSHOT;
	if ((code = gitinst_attach(r, cs->dir, IMSG_GIT_HISTORY_REQ,
	    &gq)) != NULL)
		codein_fail(r, ERR_HISTORY_FAILED, code);
}

const struct answer_row codein_answers[] = {
	{ IMSG_JOURNAL_ORIGIN, PROC_BIT(PROC_JOURNAL),
	    sizeof(struct journal_origin), AR_FINAL, codein_origin },
	{ IMSG_GIT_SNAP, PROC_BIT(PROC_GIT), sizeof(struct git_snap), 0,
	    codein_snap },
	{ IMSG_GIT_DONE, PROC_BIT(PROC_GIT), sizeof(struct space_done),
	    AR_FINAL, codein_git_done },
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, codein_exec_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ IMSG_SPACE_INFO, PLACE_BITS, sizeof(struct space_info), 0,
	    codein_lookup_record },
	{ IMSG_SPACE_VIOLATION, PLACE_BITS, sizeof(struct space_violation), 0,
	    codein_lookup_record },
	{ IMSG_SPACE_RESOURCE, PLACE_BITS, sizeof(struct space_resource), 0,
	    codein_lookup_record },
	{ 0 }
};
