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
 * create: after a name check that touches nothing, the space's volumes
 * and container here and, in a branch on a connection of its own, its
 * network and gatekeeper; each container verified before it starts.  A
 * token goes into the running space through an exec, a second child.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "log.h"
#include "space_agent.h"
#include "docker_ops.h"
#include "space.h"

#define SP_TOKEN_WRITE_MS	10000	/* the token's exec */

enum docker_next
create_begin(struct docker_req *rq, struct sp *sp)
{
	struct space_meta	*m = &sp->meta;
	const char		*key, *why;
	time_t			 now = time(NULL);
	struct tm		 tm;

	if ((key = docker_runtime_key()) == NULL) {
		done(rq, ERR_RUNTIME_MISSING, "spaced sent no relay", 0);
		return DOCKER_DONE;
	}
	if (strcmp(key, sp->sq.sq_runtime_key) != 0) {
		done(rq, ERR_INTERNAL, "two relays", 0);
		return DOCKER_DONE;
	}
	strlcpy(sp->rt_key, key, sizeof(sp->rt_key));
	sp->rt_ca = docker_runtime_has_ca();
	space_id_new(m->sm_id);
	strlcpy(m->sm_owner, sp->sq.sq_owner, sizeof(m->sm_owner));
	strlcpy(m->sm_name, sp->sq.sq_name[0] != '\0' ? sp->sq.sq_name :
	    m->sm_id, sizeof(m->sm_name));
	strlcpy(m->sm_project, sp->sq.sq_project[0] != '\0' ?
	    sp->sq.sq_project : "0000000000000000", sizeof(m->sm_project));
	gmtime_r(&now, &tm);
	strftime(m->sm_created, sizeof(m->sm_created), "%Y-%m-%dT%H:%M:%SZ",
	    &tm);
	m->sm_memory = sp->sq.sq_memory > 0 ? sp->sq.sq_memory :
	    HARDEN_SPACE_MEMORY;
	sp_params(sp);
	if ((why = harden_params_check(&sp->hp)) != NULL) {
		done(rq, ERR_BAD_REQUEST, why, 0);
		return DOCKER_DONE;
	}
	sp->step = C_UIDS;
	sp->i = 0;
	return SP_SEND;
}

/* --- its uid: no other space of the installation's, else a new id ---- */

#define UID_DRAWS_MAX	64

static enum docker_next
uids_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[512];

	engine_label_filter(f, sizeof(f), 2, LABEL_MARKER "=true",
	    LABEL_ROLE "=space");
	sp_call(sp, next, "GET", SP_LIST_CAP, "/containers/json?all=1&"
	    "filters=%s", f);
	return DOCKER_CALL;
}

/* Whether a space of the installation in the listing runs as uid. */
static int
uid_listed(const uint32_t *uids, ssize_t n, uint32_t uid)
{
	ssize_t	 i;

	for (i = 0; i < n; i++)
		if (uids[i] == uid)
			return 1;
	return 0;
}

/*
 * The id drew a uid another space of the installation has (the
 * listing, or a create in flight): per-uid limits of the kernel would
 * be shared.  Another id, until one is free; the names follow.
 */
static enum docker_next
uids_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	struct space_meta	*m = &sp->meta;
	uint32_t		*uids;
	ssize_t			 n;
	int			 draws;

	if ((n = create_uids_take(p, sp->sq.sq_owner, sp->sq.sq_uid_first,
	    sp->sq.sq_uid_count, &uids)) == -1) {
		done(rq, ERR_DOCKER_FAILED, "the engine's spaces unlisted", 0);
		return DOCKER_DONE;
	}
	for (draws = 1; uid_listed(uids, n, sp->hp.hp_uid) ||
	    inflight_uid_taken(sp, sp->hp.hp_uid); draws++) {
		if (draws == UID_DRAWS_MAX) {
			free(uids);
			done(rq, ERR_TOO_MANY_SPACES, "no free uid found in "
			    "spaced.conf's space uid range", 0);
			return DOCKER_DONE;
		}
		space_id_new(m->sm_id);
		if (sp->sq.sq_name[0] == '\0')
			strlcpy(m->sm_name, m->sm_id, sizeof(m->sm_name));
		sp_params(sp);
	}
	free(uids);
	inflight_uid_hold(sp);
	return SP_ADVANCE;
}

/* --- the names: any that exists refuses the create, nothing touched -- */

static enum docker_next
names_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, space_name_roles[sp->i], name, sizeof(name));
	switch (space_name_roles[sp->i]) {
	case ROLE_SPACE:
	case ROLE_GATEKEEPER:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    name);
		break;
	case ROLE_NETWORK:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/networks/%s", name);
		break;
	default:
		sp_call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
		break;
	}
	return DOCKER_CALL;
}

static enum docker_next
names_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status == 200) {
		done(rq, ERR_SPACE_NAME_TAKEN, "a name of the new space exists",
		    0);
		return DOCKER_DONE;
	}
	if (p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	if (++sp->i < NNAME_ROLES)
		return SP_SEND;
	return SP_ADVANCE;
}

/* --- the owner's spaces: at most spaced.conf's "spaces per owner" ---- */

static enum docker_next
count_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 f[768];

	label_filter(sp, NULL, f, sizeof(f));
	sp_call(sp, next, "GET", SP_LIST_CAP, "/containers/json?all=1&"
	    "filters=%s", f);
	inflight_count_begin(sp);
	return DOCKER_CALL;
}

static enum docker_next
count_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char			(*ids)[SPACE_ID_SIZE];
	const char		*id;
	const void		*cursor = NULL;
	ssize_t			 listed;
	size_t			 n;
	char			 msg[SPACE_DONE_MESSAGE_MAX];

	inflight_count_end(sp);
	/* Ids, not containers: a move keeps two of one space a while. */
	if ((listed = create_ids_take(p, sp->sq.sq_owner, &ids)) == -1) {
		done(rq, ERR_DOCKER_FAILED, "the owner's spaces unlisted", 0);
		return DOCKER_DONE;
	}
	/* And the owner's creates past this count, not listed yet. */
	n = (size_t)listed;
	while ((id = inflight_next(sp->sq.sq_owner, &cursor)) != NULL)
		if (!create_id_listed(ids, listed, id))
			n++;
	free(ids);
	if (sp->sq.sq_spaces_max > 0 && n >= sp->sq.sq_spaces_max) {
		snprintf(msg, sizeof(msg), "%zu spaces already, %u at most "
		    "(spaces per owner in spaced.conf)", n,
		    sp->sq.sq_spaces_max);
		done(rq, ERR_TOO_MANY_SPACES, msg, 0);
		return DOCKER_DONE;
	}
	/* From here on a failure rolls back; the slot is held till the end. */
	sp->names_free = 1;
	inflight_hold(sp);
	if (rtfill_begin(&sp->rt, sp->api, sp->sq.sq_runtime_owner,
	    sp->sq.sq_space_image, sp->rt_key) == -1)
		return sp_fail(rq, sp, ERR_INTERNAL, "the runtime's fill", 0,
		    next);
	sp->i = 0;	/* after the runtime's, the space's own volumes */
	return SP_ADVANCE;	/* C_RT */
}

/* --- the runtime volume: its own steps (space_runtime.c) ------------- */

RTFILL_STEP_GENERATE(struct sp, SP_ADVANCE, sp_fail)

/* --- the outer network's subnet: a free slot of the pool ------------- */

static enum docker_next
net_list_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	sp_call(sp, next, "GET", SP_LIST_CAP, "/networks");
	return DOCKER_CALL;
}

/* The next free slot from where this space's id points; 0, or -1. */
static int
net_pick(struct sp *sp)
{
	const struct net_pool	*np = &sp->hp.hp_pool;
	long			 slot;

	slot = net_pool_pick(sp->net_used, net_pool_slots(np),
	    strtoull(sp->meta.sm_id, NULL, 16) % net_pool_slots(np));
	if (slot == -1 || net_pool_cidr(np, slot, sp->net_subnet,
	    sizeof(sp->net_subnet)) == -1)
		return -1;
	net_pool_set(sp->net_used, slot);
	strlcpy(sp->hp.hp_subnet, sp->net_subnet, sizeof(sp->hp.hp_subnet));
	return 0;
}

static enum docker_next
net_list_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (net_pool_mark_body(p->dp_status == 200 ? p->dp_body : NULL,
	    p->dp_body_len, &sp->hp.hp_pool, sp->net_used) == -1)
		return sp_fail(rq, sp, ERR_DOCKER_FAILED,
		    "the engine's networks unlisted", 0, next);
	if (net_pick(sp) == -1)
		return sp_fail(rq, sp, ERR_NETWORK_POOL_FULL, "no free subnet "
		    "in the space network pool of spaced.conf", 0, next);
	return SP_ADVANCE;
}

/*
 * Another create took the slot between the listing and ours (the
 * engine refuses an overlapping pool): the next one, a few times.
 */
static int
net_retry(struct sp *sp, const char *msg)
{
	if (sp->step != C_NET || sp->hp.hp_subnet[0] == '\0' ||
	    strstr(msg, "overlap") == NULL || ++sp->net_tries > 8)
		return 0;
	return net_pick(sp) == 0;
}

/* --- what the space is made of: network, volumes, two containers ----- */

static enum docker_next
made_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	switch (sp->step) {
	case C_NET:
		sp_call(sp, next, "POST", SP_SMALL_CAP, "/networks/create");
		next->cl_body = harden_network_create(&sp->hp, &why);
		break;
	case C_VOL:
		sp_call(sp, next, "POST", SP_SMALL_CAP, "/volumes/create");
		next->cl_body = harden_volume_create(&sp->hp,
		    space_volume_roles[sp->i], &why);
		break;
	default:
		role_name(sp, sp->step == C_GK ? ROLE_GATEKEEPER : ROLE_SPACE,
		    name, sizeof(name));
		sp_call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/create?name=%s", name);
		next->cl_body = sp->step == C_GK ?
		    harden_gatekeeper_create(&sp->hp, &why) :
		    harden_space_create(&sp->hp, &why);
		break;
	}
	if (next->cl_body == NULL)
		return sp_fail(rq, sp, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

static enum docker_next
made_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[SPACE_DONE_MESSAGE_MAX];
	const char	*code;

	if (p->dp_status != 201) {
		code = created_code(p, msg, sizeof(msg));
		if (net_retry(sp, msg))
			return SP_SEND;
		return sp_fail(rq, sp, code, msg, 0, next);
	}
	if (sp->step != C_VOL &&
	    engine_created(p, &sp->report, NULL, 0) == -1) {
		if (!sp->branch)
			send_violations(rq, &sp->report);
		return sp_fail(rq, sp, ERR_SPACE_VERIFY_FAILED,
		    "the engine dropped a setting", 0, next);
	}
	if (sp->step == C_VOL && ++sp->i < NVOLUME_ROLES)
		return SP_SEND;
	sp->i = 0;
	if (sp->step == C_VOL) {
		/* The gatekeeper's branch needs the socket volume. */
		sp->child_running = 1;
		if (docker_req_spawn(rq, sp->branch_op, sp, sizeof(*sp)) == -1)
			return sp_fail(rq, sp, ERR_INTERNAL,
			    "no gatekeeper branch", 0, next);
	}
	return SP_ADVANCE;
}

/* --- the gatekeeper's branch: a copy of its parent's state ----------- */

int
gk_branch_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct sp	*sp = docker_req_state(rq);
	const char	*why;

	memcpy(sp, data, sizeof(*sp));
	explicit_bzero(sp->token, sizeof(sp->token));
	sp->res = NULL;
	sp->nres = 0;
	sp->child = NULL;
	sp->child_running = sp->child_done = sp->rt.rt_holder = 0;
	sp->tools_peer = 0;	/* the parent unkeeps its tools */
	sp->counting = sp->held = sp->uid_held = 0;	/* the parent's */
	sp->branch = 1;
	/* hp points into the state it belongs to: this one now */
	sp_params(sp);
	harden_report_init(&sp->report);
	/* With a pool, the engine's networks first: a free slot. */
	if (sp->hp.hp_pool.np_pool_prefix != 0) {
		if (!net_pool_valid(&sp->hp.hp_pool)) {
			log_warnx("%s: a bad network pool", __func__);
			return -1;
		}
		sp->step = C_NET_LIST;
		sp_call(sp, cl, "GET", SP_LIST_CAP, "/networks");
		return 0;
	}
	sp->step = C_NET;
	sp_call(sp, cl, "POST", SP_SMALL_CAP, "/networks/create");
	if ((cl->cl_body = harden_network_create(&sp->hp, &why)) == NULL) {
		log_warnx("%s: %s", __func__, why);
		return -1;
	}
	return 0;
}

/*
 * --- the space's folders: its uid's, before it starts ----------------
 * A folder in each of its volumes, made by the engine from a tar whose
 * headers name the space's uid: the work volume's /spaces/ID and the
 * home volume's /home/space (copied from the image as the image user's).
 * The relay and everything after it run as that uid, and no process of
 * the space ever had the right to change an owner.
 */
static enum docker_next
own_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	struct tar_file	 f = { sp->meta.sm_id, 0700, NULL, 0, sp->hp.hp_uid, 1 };
	uint8_t		*tar;
	size_t		 len;

	if (sp->i == 1)
		f.tf_name = HARDEN_HOME_NAME;
	if ((tar = tar_files(&f, 1, &len)) == NULL)
		return sp_fail(rq, sp, ERR_INTERNAL, "no tar", 0, next);
	role_name(sp, ROLE_SPACE, name, sizeof(name));
	sp_call(sp, next, "PUT", SP_SMALL_CAP, "/containers/%s/archive?path=%s",
	    name, sp->i == 0 ? HARDEN_WORK_PARENT : HARDEN_HOME_PARENT);
	next->cl_raw = tar;
	next->cl_raw_len = len;
	next->cl_type = "application/x-tar";
	return DOCKER_CALL;
}

static enum docker_next
own_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status != 200) {
		engine_message(p, msg, sizeof(msg));
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
	}
	if (++sp->i < 2)
		return SP_SEND;
	sp->i = 0;
	return SP_ADVANCE;
}

/* --- start: the gatekeeper, its corridor, the space ------------------ */

static enum docker_next
start_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	start_call(sp, sp->step == C_GK_START ? ROLE_GATEKEEPER : ROLE_SPACE, next);
	return DOCKER_CALL;
}

static enum docker_next
start_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status != 204 && p->dp_status != 304) {
		engine_message(p, msg, sizeof(msg));
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
	}
	if (sp->step == C_GK_START && sp->branch)
		return branch_answer(rq, sp, "", NULL, 0);
	if (sp->step == C_GK_START) {
		sp->step = C_CORRIDOR;
		return SP_SEND;
	}
	sp->step = C_WAIT_GK;
	if (!sp->child_done)
		return DOCKER_WAIT;
	return SP_SEND;
}

/*
 * The token's exec, the create's second child: the token goes as its
 * stdin and leaves this state.  A refused start answers at once, into
 * sp_child like any other answer.
 */
static void
token_spawn(struct docker_req *rq, struct sp *sp)
{
	static const char *const	 argv[] = SPACE_TOKEN_WRITE_ARGV;
	static struct space_exec_req	 se;

	memset(&se, 0, sizeof(se));
	se.se_space = sp->sq;
	strlcpy(se.se_space.sq_id, sp->meta.sm_id, sizeof(se.se_space.sq_id));
	se.se_target = EXEC_TARGET_SPACE;
	se.se_timeout_ms = SP_TOKEN_WRITE_MS;
	if (space_exec_argv(&se, argv) == -1)
		fatalx("%s: argv", __func__);
	se.se_stdin_len = strlen(sp->token);
	memcpy(se.se_stdin, sp->token, se.se_stdin_len);
	explicit_bzero(sp->token, sizeof(sp->token));
	sp->token_child = sp->child_running = 1;
	(void)docker_req_spawn(rq, &docker_exec_op, &se, sizeof(se));
	explicit_bzero(&se, sizeof(se));
}

static int
token_failed(const struct sp *sp)
{
	return sp->writes_token && sp->token_done &&
	    (sp->token_sd.sd_code[0] != '\0' || sp->token_sd.sd_exit != 0);
}

/* Both containers run (or the branch failed): the corridor, or undo. */
enum docker_next
gk_joined(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	struct branch_result	*br = sp->child;

	if (!sp->child_done)
		return DOCKER_WAIT;
	if (br->br_code[0] != '\0') {
		send_violations(rq, &br->br_report);
		return sp_fail(rq, sp, br->br_code, br->br_message,
		    br->br_interrupted, next);
	}
	if (sp->writes_token) {
		/* Both verified, the space runs: its token, our gatekeeper. */
		token_spawn(rq, sp);
		if (token_failed(sp))	/* refused at once */
			return token_joined(rq, sp, next);
		sp->step = C_GK_START;
		return SP_SEND;
	}
	sp->step = C_CORRIDOR;
	return SP_SEND;
}

static enum docker_next
wait_gk_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	return gk_joined(rq, sp, next);
}

static enum docker_next
corridor_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	corridor_call(sp, next);
	return DOCKER_CALL;
}

static enum docker_next
corridor_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	if (p->dp_status == 200)
		return SP_ADVANCE;
	corridor_call(sp, next);
	next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
	return DOCKER_CALL;
}

/* --- the space runs and its relay made its folder: ready ------------- */

static enum docker_next
running_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, ROLE_SPACE, name, sizeof(name));
	sp_call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json", name);
	return DOCKER_CALL;
}

static enum docker_next
running_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	/* A space whose command could not start is no space. */
	if (!create_running(p))
		return sp_fail(rq, sp, ERR_SPACE_NOT_RUNNING,
		    "the space stopped as it started", 0, next);
	return SP_ADVANCE;
}

/* Its relay makes the space's folder, then listens. */
static enum docker_next
folder_send(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX], folder[HARDEN_FOLDER_MAX];

	role_name(sp, ROLE_SPACE, name, sizeof(name));
	if (harden_space_folder(folder, sizeof(folder), &sp->meta) == -1)
		fatalx("%s: space id", __func__);
	sp_call(sp, next, "HEAD", SP_SMALL_CAP,
	    "/containers/%s/archive?path=%s", name, folder);
	if (sp->folder_polls++ > 0)
		next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
	return DOCKER_CALL;
}

static enum docker_next
folder_take(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	if (p->dp_status != 200 && p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
	}
	if (p->dp_status == 404) {
		/* Not yet: is the space still running? */
		sp->step = C_SP_RUNNING;
		return SP_SEND;
	}
	sp->step = C_WAIT_TOKEN;
	return token_joined(rq, sp, next);
}

/*
 * The end of a create: the space is ready (C_WAIT_TOKEN) and its token
 * in, when it writes one; a failed write fails it.
 */
enum docker_next
token_joined(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (token_failed(sp)) {
		snprintf(msg, sizeof(msg), "the token could not be written "
		    "into the space (%s, exit %d)", sp->token_sd.sd_code[0] !=
		    '\0' ? sp->token_sd.sd_code : "ran", sp->token_sd.sd_exit);
		return sp_fail(rq, sp, sp->token_sd.sd_code[0] != '\0' ?
		    sp->token_sd.sd_code : ERR_TOKEN_UNREADABLE, msg, 0, next);
	}
	if (sp->step != C_WAIT_TOKEN || (sp->writes_token && !sp->token_done))
		return DOCKER_WAIT;
	send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
	done(rq, "", NULL, 0);
	sp->made = 1;
	return DOCKER_DONE;
}

static enum docker_next
wait_token_send(struct docker_req *rq, struct sp *sp,
    struct docker_call *next)
{
	return token_joined(rq, sp, next);
}

const struct sp_step_row space_create_steps[] = {
	{ C_UIDS,	uids_send,	uids_take,	C_NAMES },
	{ C_NAMES,	names_send,	names_take,	C_COUNT },
	{ C_COUNT,	count_send,	count_take,	C_RT },
	{ C_RT,		runtime_send,	runtime_take,	C_VOL },
	{ C_NET_LIST,	net_list_send,	net_list_take,	C_NET },
	{ C_NET,	made_send,	made_take,	C_GK },
	{ C_VOL,	made_send,	made_take,	C_SP },
	{ C_GK,		made_send,	made_take,	V_GK },
	{ C_SP,		made_send,	made_take,	V_SP },
	{ C_GK_START,	start_send,	start_take,	C_CORRIDOR },
	{ C_SP_START,	start_send,	start_take,	C_WAIT_GK },
	{ C_WAIT_GK,	wait_gk_send,	NULL,		C_WAIT_GK },
	{ C_CORRIDOR,	corridor_send,	corridor_take,	C_SP_RUNNING },
	{ C_SP_RUNNING,	running_send,	running_take,	C_SP_FOLDER },
	{ C_SP_FOLDER,	folder_send,	folder_take,	C_WAIT_TOKEN },
	{ C_WAIT_TOKEN,	wait_token_send, NULL,		C_WAIT_TOKEN },
	{ C_SP_OWN,	own_send,	own_take,	C_SP_START },
};
const size_t space_create_steps_n = sizeof(space_create_steps) /
    sizeof(space_create_steps[0]);
