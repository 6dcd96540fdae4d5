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
 * The space operations of the Docker place: create, list, show, verify,
 * stop, start, remove.  Each is a sequence of Engine API calls on one
 * connection, written as steps: an answer arrives in sp_answer with the
 * step it answers, and the step's code says what comes next.  Every act
 * on a container, network or volume comes after its labels were read
 * from the engine and found to be this owner's; a name proves nothing.
 *
 * The spec's rules kept here: create refuses when any of its names
 * exists (space_name_taken, nothing touched); a failed create removes
 * everything with its id and owner, and after an interrupted call
 * sweeps, waits two seconds, and sweeps again, by name too; remove
 * counts a missing resource as removed; stop is space first, then the
 * gatekeeper; start verifies, repairs a stopped gatekeeper under a
 * running space, and waits for the corridor before it answers.
 */

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "docker_check.h"
#include "docker_harden.h"
#include "docker_parse.h"
#include "docker_runtime.h"
#include "docker_space.h"
#include "docker_toolsvol.h"
#include "tools_key.h"

#define SP_LIST_CAP		(8 * 1024 * 1024)	/* a listing's body */
#define SP_SMALL_CAP		(256 * 1024)
#define SP_RES_MAX		4096	/* resources one listing takes */
#define SP_STOP_SECONDS		5	/* SIGTERM, then SIGKILL */
#define SP_CORRIDOR_POLL_MS	20
#define SP_TOKEN_WRITE_MS	10000	/* the token's exec */
#define SP_SWEEP_PAUSE_MS	2000	/* the spec's wait between sweeps */
#define SP_RUNTIME_POLL_MS	100

enum sp_res_type { RES_CONTAINER, RES_VOLUME, RES_NETWORK };
static const char *const res_type_names[] = {
	"container", "volume", "network"
};

struct sp_res {
	uint8_t		 r_type;		/* enum sp_res_type */
	int8_t		 r_role;		/* enum space_role, or -1 */
	uint8_t		 r_done;
	char		 r_id[SPACE_ID_SIZE];	/* the space's */
	char		 r_name[SPACE_RESOURCE_MAX];
	char		 r_ref[SPACE_RESOURCE_MAX];	/* Id, or volume name */
	char		 r_state[SPACE_STATE_MAX];
	struct space_meta r_meta;		/* role space only */
};

enum sp_step {
	S_VERSION,
	/* create */
	C_NAMES, C_RT_GET, C_RT_CREATE, C_RT_CTR, C_RT_MARKER, C_RT_PUT,
	C_RT_PUT_MARKER, C_RT_RELAY, C_RT_CA, C_RT_CTR_DEL, C_RT_SWEEP,
	C_RT_SWEEP_DEL, C_RT_PRUNE, C_RT_PRUNE_DEL, C_RT_WAIT, C_NET, C_VOL,
	C_GK, C_SP,
	C_GK_START, C_SP_START, C_WAIT_GK, C_CORRIDOR, C_SP_RUNNING,
	C_SP_FOLDER, C_WAIT_TOKEN,
	/* start, after its verify */
	T_GK_START, T_CORRIDOR, T_SP_START,
	/* verify, and the verify inside create and start */
	V_SP, V_GK, V_NET, V_VOL, V_RT,
	/* stop */
	ST_SP, ST_SP_STOP, ST_GK, ST_GK_STOP,
	/* remove, and the rollback of create */
	R_LIST_C, R_DEL_C, R_LIST_V, R_DEL_V, R_LIST_N, R_DEL_N, R_PAUSE,
	R_NAME_DEL,
	/* list and show */
	L_C, L_N, L_V,
	/*
	 * New tools at the next start: start's repair of a half-done move
	 * first, then the move itself after the gatekeeper's corridor, its
	 * undo; the end of a move (spaced's MOVE_DONE); verify and stop
	 * asking whether only the aside container is left.
	 */
	P_ASIDE, P_PLAIN, P_DEL, P_BACK,
	M_RENAME, M_CREATE, M_VERIFY, M_START, M_RUNNING,
	U_NEW, U_DEL, U_OLD, U_BACK,
	D_OLD, D_DEL, D_PRUNE, D_PRUNE_DEL,
	A_ASIDE,
};

struct sp {
	uint32_t		 op;		/* IMSG_SPACE_*_REQ */
	struct space_req	 sq;
	char			 api[24];	/* "/v1.41" */
	enum sp_step		 step;
	size_t			 i;
	struct space_meta	 meta;
	char			 rt_key[RUNTIME_KEY_LEN + 1];
	char			 rt_cid[SPACE_RESOURCE_MAX];
	int			 rt_holder;	/* this request fills */
	int			 rt_created;	/* made the volume: undo it */
	int			 rt_filled;	/* filled it: prune the old */
	int			 rt_ca;		/* its runtime has a CA bundle */
	/* fill containers of this key a killed worker left; old volumes */
#define RT_STALE_MAX	16
	char			 rt_stale[RT_STALE_MAX][SPACE_RESOURCE_MAX];
	size_t			 rt_nstale, rt_istale;
	struct harden_params	 hp;
	/* the agent's command and variables, as hp points to them */
	const char		*agent_argv[4];
	const char		*agent_env[SPACE_AGENT_ENVS_MAX + 1];
	struct harden_report	 report;
	char			 sp_state[SPACE_STATE_MAX];
	char			 gk_state[SPACE_STATE_MAX];
	int			 gk_present;
	int			 folder_polls;
	/* a failed create: what it answers once the rollback is done */
	int			 names_free;	/* checked: a failure rolls back */
	int			 rolling_back;
	int			 sweeps;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
	int			 uncertain;
	struct sp_res		*res;
	size_t			 nres;
	/*
	 * create runs in two branches: this request makes the volumes and
	 * the space, a child (branch 1, its own connection) the outer
	 * network and the gatekeeper, each verified before it starts.
	 */
	int			 branch;
	int			 child_running;
	int			 child_done;
	int			 rollback_pending;
	struct branch_result	*child;
	/*
	 * A create with a token writes it as soon as both containers are
	 * verified and the space runs (an exec, the second child), while
	 * this request starts the gatekeeper: the server inside starts
	 * meanwhile, not after the gatekeeper.
	 */
	int			 writes_token;
	char			 token[SPACE_TOKEN_LEN + 1];	/* till then */
	int			 token_child;	/* the child is that exec */
	int			 token_done;
	struct space_done	 token_sd;	/* its answer */
	/* a move (start) and its undo; the ids are the engine's */
	struct space_move	 mv;
	char			 aside_cid[SPACE_CID_SIZE];	/* repair */
	char			 tools_cur[SPACE_RESOURCE_MAX];
	uint64_t		 move_memory;	/* the old one's, inspected */
	int			 move;		/* start: move it */
	int			 moving;	/* the old may be aside: undo */
	int			 undoing;
	int			 repairs;	/* looks again, bounded */
	int			 new_failed;	/* the new one stays */
	int			 old_back;	/* the old one has its name */
	int			 old_gone;
};

/* What the gatekeeper's branch answers its parent. */
struct branch_result {
	char			 br_code[CTL_CODE_MAX];	/* "" when it runs */
	char			 br_message[SPACE_DONE_MESSAGE_MAX];
	int			 br_interrupted;
	struct harden_report	 br_report;
};

/* The commands of our two containers; the checkers demand exactly these. */
static const char *const space_argv[] = { "/bin/sleep", "infinity", NULL };
/*
 * The relay listens: port 3128 (0C38) in state LISTEN (0A) in the
 * space's own /proc/net/tcp.  No connection: one through the corridor
 * would be journalled every ten seconds and push the agent's own
 * attempts out of the gatekeeper's ring.
 */
static const char *const space_health[] = {
	"CMD", "/bin/grep", "-q", ":0C38 00000000:0000 0A", "/proc/net/tcp",
	NULL
};
static const char *const gk_argv[] = {
	"/usr/libexec/spaced/spaced-gatekeeper", "-u", HARDEN_SOCKET_DIR,
	"127.0.0.1", "3128", "8080", "9099", NULL
};
static const char *const gk_health[] = {
	"CMD", "/usr/libexec/spaced/spaced-gatekeeper", "-C", "GET",
	"/health", NULL
};

/* Space roles in the order create makes them and the name check reads. */
static const enum space_role name_roles[] = {
	ROLE_SPACE, ROLE_GATEKEEPER, ROLE_NETWORK, ROLE_SOCKET, ROLE_WORK,
	ROLE_HOME
};
#define NNAME_ROLES	(sizeof(name_roles) / sizeof(name_roles[0]))
static const enum space_role volume_roles[] = {
	ROLE_SOCKET, ROLE_WORK, ROLE_HOME
};
#define NVOLUME_ROLES	(sizeof(volume_roles) / sizeof(volume_roles[0]))

static enum docker_next	sp_next(struct docker_req *, struct sp *,
			    struct docker_call *);
static enum docker_next	sp_verified(struct docker_req *, struct sp *,
			    struct docker_call *);
static enum docker_next	sp_fail(struct docker_req *, struct sp *,
			    const char *, const char *, int,
			    struct docker_call *);
static enum docker_next	sp_rollback(struct docker_req *, struct sp *,
			    struct docker_call *);
static enum docker_next	branch_answer(struct docker_req *, struct sp *,
			    const char *, const char *, int);
static void		token_spawn(struct docker_req *, struct sp *);
static int		token_failed(const struct sp *);
static enum docker_next	token_joined(struct docker_req *, struct sp *,
			    struct docker_call *);
static const struct docker_op	gk_branch_op;
static enum docker_next	move_call(struct sp *, struct docker_call *);
static void		move_decide(struct sp *, const json_t *);
static int		removal_in_progress(const struct docker_parser *);
static enum docker_next	move_answer(struct docker_req *, struct sp *,
			    const struct docker_parser *, struct docker_call *);
static enum docker_next	move_undo(struct docker_req *, struct sp *,
			    const char *, const char *, int,
			    struct docker_call *);

/* --- small things ----------------------------------------------------- */

void
docker_call_fmt(struct docker_call *cl, const char *api, const char *method,
    size_t cap, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 n;

	cl->cl_method = method;
	cl->cl_cap = cap;
	n = strlcpy(cl->cl_path, api, sizeof(cl->cl_path));
	va_start(ap, fmt);
	if (n >= sizeof(cl->cl_path) ||
	    vsnprintf(cl->cl_path + n, sizeof(cl->cl_path) - n, fmt, ap) >=
	    (int)(sizeof(cl->cl_path) - n))
		fatalx("%s: path too long", __func__);
	va_end(ap);
}

#define call(sp, cl, method, cap, ...) \
	docker_call_fmt((cl), (sp)->api, (method), (cap), __VA_ARGS__)

static void
role_name(struct sp *sp, enum space_role r, char *buf, size_t len)
{
	if (space_resource_name(buf, len, sp->meta.sm_id, r) == -1)
		fatalx("%s: bad id", __func__);
}

int
docker_urlencode(const char *s, char *buf, size_t len)
{
	static const char	 hex[] = "0123456789ABCDEF";
	size_t			 o = 0;

	for (; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
		    *s == '.') {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *s;
		} else {
			if (o + 3 >= len)
				return -1;
			buf[o++] = '%';
			buf[o++] = hex[(unsigned char)*s >> 4];
			buf[o++] = hex[(unsigned char)*s & 15];
		}
	}
	buf[o] = '\0';
	return 0;
}

/* filters={"label":[marker, owner(, id)]}, encoded. */
static void
label_filter(struct sp *sp, const char *id, char *buf, size_t len)
{
	char	 raw[512];
	int	 n;

	if (id != NULL)
		n = snprintf(raw, sizeof(raw), "{\"label\":[\"%s=true\","
		    "\"%s=%s\",\"%s=%s\"]}", LABEL_MARKER, LABEL_OWNER,
		    sp->sq.sq_owner, LABEL_ID, id);
	else
		n = snprintf(raw, sizeof(raw), "{\"label\":[\"%s=true\","
		    "\"%s=%s\"]}", LABEL_MARKER, LABEL_OWNER, sp->sq.sq_owner);
	if (n < 0 || (size_t)n >= sizeof(raw) ||
	    docker_urlencode(raw, buf, len) == -1)
		fatalx("%s: filter too long", __func__);
}

/* filters={"label":[<one>,<two>]}, encoded: any two labels. */
static void
two_label_filter(const char *a, const char *b, char *buf, size_t len)
{
	char	 raw[512];
	int	 n;

	n = snprintf(raw, sizeof(raw), "{\"label\":[\"%s\",\"%s\"]}", a, b);
	if (n < 0 || (size_t)n >= sizeof(raw) ||
	    docker_urlencode(raw, buf, len) == -1)
		fatalx("%s: filter too long", __func__);
}

/* The refs in a listing whose runtime labels say key (or not key). */
static void
take_runtime(struct sp *sp, const struct docker_parser *p, int volumes,
    int same_key)
{
	json_t		*o, *arr, *e, *labels;
	const char	*ref, *key;
	size_t		 i;

	sp->rt_nstale = sp->rt_istale = 0;
	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;	/* a sweep or a prune never fails a create */
	arr = volumes ? json_object_get(o, "Volumes") : o;
	json_array_foreach(arr, i, e) {
		labels = json_object_get(e, "Labels");
		key = json_string_value(json_object_get(labels,
		    LABEL_RUNTIME_KEY));
		ref = json_string_value(json_object_get(e, volumes ? "Name" :
		    "Id"));
		if (key == NULL || !docker_plain_ref(ref) ||
		    runtime_labels_check(labels, volumes ?
		    sp->sq.sq_runtime_owner : NULL, key) != NULL ||
		    (strcmp(key, sp->rt_key) == 0) != same_key ||
		    sp->rt_nstale >= RT_STALE_MAX)
			continue;
		strlcpy(sp->rt_stale[sp->rt_nstale++], ref,
		    sizeof(sp->rt_stale[0]));
	}
	json_decref(o);
}

static json_t *
answer_json(const struct docker_parser *p)
{
	return harden_json_parse(p->dp_body, p->dp_body_len);
}

/* The engine's own words, for a log line: its "message", cut. */
void
engine_message(const struct docker_parser *p, char *buf, size_t len)
{
	json_t		*o = answer_json(p);
	const char	*m;

	m = json_string_value(json_object_get(o, "message"));
	snprintf(buf, len, "%s", m != NULL ? m : "no message");
	json_decref(o);
}

static void
done(struct docker_req *rq, const char *code, const char *message,
    int uncertain)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	if (message != NULL)
		strlcpy(sd.sd_message, message, sizeof(sd.sd_message));
	sd.sd_uncertain = uncertain;
	sd.sd_exit = -1;
	docker_req_reply(rq, &sd, sizeof(sd));
}

static void
send_info(struct docker_req *rq, const struct space_meta *m,
    const char *state, const char *gk_state, const char *const *missing,
    size_t nmissing, uint32_t norphans)
{
	struct space_info	 si;
	size_t			 i;

	memset(&si, 0, sizeof(si));
	si.si_kind = SPACE_REC_INFO;
	strlcpy(si.si_id, m->sm_id, sizeof(si.si_id));
	strlcpy(si.si_name, m->sm_name, sizeof(si.si_name));
	strlcpy(si.si_project, m->sm_project, sizeof(si.si_project));
	strlcpy(si.si_created, m->sm_created, sizeof(si.si_created));
	si.si_memory = m->sm_memory;
	strlcpy(si.si_state, state, sizeof(si.si_state));
	strlcpy(si.si_gk_state, gk_state, sizeof(si.si_gk_state));
	for (i = 0; i < nmissing && i < SPACE_MISSING_MAX; i++)
		strlcpy(si.si_missing[i], missing[i], sizeof(si.si_missing[i]));
	si.si_nmissing = i;
	si.si_damaged = i > 0;
	si.si_norphans = norphans;
	docker_req_record(rq, IMSG_SPACE_INFO, &si, sizeof(si));
}

static void
send_resource(struct docker_req *rq, const struct sp_res *r,
    enum space_resource_state state)
{
	struct space_resource	 sr;

	memset(&sr, 0, sizeof(sr));
	sr.sr_kind = SPACE_REC_RESOURCE;
	sr.sr_state = state;
	strlcpy(sr.sr_id, r->r_id, sizeof(sr.sr_id));
	strlcpy(sr.sr_type, res_type_names[r->r_type], sizeof(sr.sr_type));
	strlcpy(sr.sr_name, r->r_name, sizeof(sr.sr_name));
	docker_req_record(rq, IMSG_SPACE_RESOURCE, &sr, sizeof(sr));
}

static void
send_violations(struct docker_req *rq, const struct harden_report *hr)
{
	struct space_violation	 sv;
	size_t			 i;

	for (i = 0; i < hr->hr_n; i++) {
		memset(&sv, 0, sizeof(sv));
		sv.sv_kind = SPACE_REC_VIOLATION;
		strlcpy(sv.sv_check, hr->hr_v[i].hv_check,
		    sizeof(sv.sv_check));
		strlcpy(sv.sv_message, hr->hr_v[i].hv_message,
		    sizeof(sv.sv_message));
		docker_req_record(rq, IMSG_SPACE_VIOLATION, &sv, sizeof(sv));
	}
	if (hr->hr_truncated) {
		memset(&sv, 0, sizeof(sv));
		sv.sv_kind = SPACE_REC_VIOLATION;
		strlcpy(sv.sv_check, "truncated", sizeof(sv.sv_check));
		strlcpy(sv.sv_message, "more violations than one report holds",
		    sizeof(sv.sv_message));
		docker_req_record(rq, IMSG_SPACE_VIOLATION, &sv, sizeof(sv));
	}
}

static struct sp_res *
res_add(struct sp *sp)
{
	struct sp_res	*n;

	if (sp->nres >= SP_RES_MAX)
		return NULL;
	if ((n = reallocarray(sp->res, sp->nres + 1, sizeof(*n))) == NULL)
		fatal("%s", __func__);
	sp->res = n;
	memset(&n[sp->nres], 0, sizeof(n[0]));
	n[sp->nres].r_role = -1;
	return &n[sp->nres++];
}

/* What verify, create and start check a space against. */
static void
sp_params(struct sp *sp)
{
	struct harden_params	*hp = &sp->hp;
	uint32_t		 i;

	harden_params_init(hp);
	hp->hp_meta = sp->meta;
	hp->hp_space_image = sp->sq.sq_space_image;
	hp->hp_gk_image = sp->sq.sq_gk_image;
	hp->hp_hosts = sp->sq.sq_hosts;
	if (sp->sq.sq_cpus > 0)
		hp->hp_cpus = sp->sq.sq_cpus;
	strlcpy(hp->hp_runtime_key, sp->rt_key, sizeof(hp->hp_runtime_key));
	strlcpy(hp->hp_runtime_owner, sp->sq.sq_runtime_owner,
	    sizeof(hp->hp_runtime_owner));
	hp->hp_runtime_ca = sp->rt_ca;
	hp->hp_argv = space_argv;
	if (sp->sq.sq_agent.sa_name[0] != '\0') {
		sp->agent_argv[0] = "/bin/sh";
		sp->agent_argv[1] = "-c";
		sp->agent_argv[2] = sp->sq.sq_agent.sa_command;
		sp->agent_argv[3] = NULL;
		hp->hp_argv = sp->agent_argv;
		for (i = 0; i < sp->sq.sq_agent.sa_nenv; i++)
			sp->agent_env[i] = space_agent_env(&sp->sq.sq_agent, i);
		sp->agent_env[i] = NULL;
		hp->hp_env = sp->agent_env;
		strlcpy(hp->hp_tools, sp->sq.sq_agent.sa_tools,
		    sizeof(hp->hp_tools));
	}
	hp->hp_health = space_health;
	hp->hp_gk_argv = gk_argv;
	hp->hp_gk_health = gk_health;
}

/* The runtime key a space was made with: its mount's volume name. */
static void
mounted_runtime_key(const json_t *c, char *key, size_t len)
{
	const json_t	*m;
	const char	*dst, *name;
	size_t		 i, plen = strlen(RUNTIME_VOLUME_PREFIX);

	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		dst = json_string_value(json_object_get(m, "Destination"));
		name = json_string_value(json_object_get(m, "Name"));
		if (dst == NULL || name == NULL ||
		    strcmp(dst, HARDEN_RUNTIME_DIR) != 0 ||
		    strncmp(name, RUNTIME_VOLUME_PREFIX, plen) != 0 ||
		    !runtime_key_valid(name + plen))
			continue;
		strlcpy(key, name + plen, len);
		return;
	}
}

/*
 * Whether a space was made with the space CA bundle: its variables say
 * so (the runtime it mounts is fixed with them), and a move keeps them.
 */
static int
made_with_ca(const json_t *c)
{
	const json_t	*v;
	size_t		 i;

	json_array_foreach(json_object_get(json_object_get(c, "Config"),
	    "Env"), i, v)
		if (json_is_string(v) && strcmp(json_string_value(v),
		    harden_space_ca_env[0]) == 0)
			return 1;
	return 0;
}

/*
 * The tools a space was made with may be older than the current ones:
 * a mount at SPACE_TOOLS_DIR of this owner's tools (the current name
 * but for its key) is what it is checked against.
 */
static void
mounted_tools(const json_t *c, char *cur, size_t len)
{
	const json_t	*m;
	const char	*dst, *name;
	size_t		 i, n = strlen(cur);

	if (n <= TOOLS_KEY_LEN)
		return;
	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		dst = json_string_value(json_object_get(m, "Destination"));
		name = json_string_value(json_object_get(m, "Name"));
		if (dst == NULL || name == NULL ||
		    strcmp(dst, SPACE_TOOLS_DIR) != 0 || strlen(name) != n ||
		    strncmp(name, cur, n - TOOLS_KEY_LEN) != 0 ||
		    !tools_key_valid(name + n - TOOLS_KEY_LEN))
			continue;
		strlcpy(cur, name, len);
		return;
	}
}

/* State.Status of an inspect: running, exited, created, ... */
static void
container_state(const json_t *c, char *buf, size_t len)
{
	const char	*s;

	s = json_string_value(json_object_get(json_object_get(c, "State"),
	    "Status"));
	snprintf(buf, len, "%s", s != NULL && strlen(s) < len ? s : "unknown");
}

static int
status_ok(const struct docker_parser *p)
{
	return p->dp_status >= 200 && p->dp_status < 300;
}

/* --- the start of every op: the API version --------------------------- */

static int
sp_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct sp	*sp = docker_req_state(rq);

	memcpy(&sp->sq, data, sizeof(sp->sq));
	sp->op = docker_req_op(rq)->op_req;
	/* spaced checked these; a worker trusts its parent, but not blindly */
	if (!space_owner_valid(sp->sq.sq_owner) ||
	    memchr(sp->sq.sq_space_image, '\0', SPACE_IMAGE_MAX) == NULL ||
	    memchr(sp->sq.sq_gk_image, '\0', SPACE_IMAGE_MAX) == NULL ||
	    memchr(sp->sq.sq_hosts, '\0', SPACE_HOSTS_MAX) == NULL ||
	    memchr(sp->sq.sq_name, '\0', sizeof(sp->sq.sq_name)) == NULL ||
	    memchr(sp->sq.sq_project, '\0', sizeof(sp->sq.sq_project)) ==
	    NULL ||
	    (sp->op != IMSG_SPACE_CREATE_REQ && sp->op != IMSG_SPACE_LIST_REQ &&
	    !space_id_valid(sp->sq.sq_id)) ||
	    space_agent_check(&sp->sq.sq_agent) != NULL)
		return -1;
	if (sp->op == IMSG_SPACE_CREATE_REQ) {
		memcpy(sp->token, ((const struct space_create_req *)data)->
		    cq_token, sizeof(sp->token));
		if (sp->token[0] != '\0' &&
		    !space_token_valid(sp->token, sizeof(sp->token)))
			return -1;
		sp->writes_token = sp->token[0] != '\0';
	}
	if (sp->op != IMSG_SPACE_CREATE_REQ && sp->op != IMSG_SPACE_LIST_REQ)
		strlcpy(sp->meta.sm_id, sp->sq.sq_id, sizeof(sp->meta.sm_id));
	sp->step = S_VERSION;
	cl->cl_method = "GET";
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	if (docker_api_cached() != NULL) {
		/* still one call first: is the engine there at all? */
		strlcpy(sp->api, docker_api_cached(), sizeof(sp->api));
		strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	} else
		strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
	return 0;
}

static enum docker_next
sp_version(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	struct docker_check_msg	 dc;
	const char		*code;
	char			 use[16];

	if (p->dp_status != 200) {
		done(rq, ERR_DOCKER_UNREADABLE, "GET /version failed", 0);
		return DOCKER_DONE;
	}
	if (sp->api[0] != '\0')	/* the cached one, after /_ping */
		return sp_next(rq, sp, next);
	if ((code = docker_version_parse(p->dp_body, p->dp_body_len, &dc)) !=
	    NULL || (code = docker_api_negotiate(dc.dc_api_version,
	    dc.dc_min_api_version, use, sizeof(use))) != NULL) {
		done(rq, code, "the engine cannot be driven", 0);
		return DOCKER_DONE;
	}
	snprintf(sp->api, sizeof(sp->api), "/v%s", use);
	docker_api_remember(sp->api);
	return sp_next(rq, sp, next);
}

/* --- create ----------------------------------------------------------- */

static enum docker_next
create_begin(struct docker_req *rq, struct sp *sp, struct docker_call *next)
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
	sp->step = C_NAMES;
	sp->i = 0;
	return sp_next(rq, sp, next);
}

static enum docker_next
create_name_call(struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, name_roles[sp->i], name, sizeof(name));
	switch (name_roles[sp->i]) {
	case ROLE_SPACE:
	case ROLE_GATEKEEPER:
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json", name);
		break;
	case ROLE_NETWORK:
		call(sp, next, "GET", SP_SMALL_CAP, "/networks/%s", name);
		break;
	default:
		call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
		break;
	}
	return DOCKER_CALL;
}

static json_t *
fill_container_body(struct sp *sp)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (runtime_volume_name(name, sizeof(name), sp->rt_key) == -1)
		return NULL;
	/* Never started: it only holds the volume while we write into it. */
	return json_pack("{s:s, s:[s], s:o, s:{s:s, s:[{s:s, s:s, s:s, s:b}]}}",
	    "Image", sp->sq.sq_space_image,
	    "Entrypoint", "/bin/true",
	    "Labels", runtime_labels_build(sp->sq.sq_runtime_owner,
	    sp->rt_key),
	    "HostConfig", "NetworkMode", "none", "Mounts",
	    "Type", "volume", "Source", name, "Target", HARDEN_RUNTIME_DIR,
	    "ReadOnly", 0);
}

int
docker_plain_ref(const char *s)
{
	size_t	 n;

	if (s == NULL || *s == '\0')
		return 0;
	for (n = 0; s[n] != '\0'; n++)
		if (n >= SPACE_RESOURCE_MAX - 1 ||
		    !((s[n] >= 'a' && s[n] <= 'z') ||
		    (s[n] >= 'A' && s[n] <= 'Z') ||
		    (s[n] >= '0' && s[n] <= '9') || s[n] == '-' ||
		    s[n] == '_' || s[n] == '.'))
			return 0;
	return 1;
}

/* A create answer: its Id and no warning.  0 fine, else the report. */
static int
created_ok(struct sp *sp, const struct docker_parser *p, char *id, size_t len)
{
	json_t		*o = answer_json(p);
	const char	*v;

	harden_verify_created(o, &sp->report);
	v = json_string_value(json_object_get(o, "Id"));
	if (id != NULL && docker_plain_ref(v))
		strlcpy(id, v, len);
	json_decref(o);
	return sp->report.hr_n == 0 ? 0 : -1;
}

static enum docker_next
create_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX], msg[128], raw[256], f[768];
	char		 folder[HARDEN_FOLDER_MAX];
	json_t		*o, *body;
	const char	*why;
	uint8_t		*tar;
	size_t		 len;
	int		 running;

	switch (sp->step) {
	case C_NAMES:
		if (p->dp_status == 200) {
			done(rq, ERR_SPACE_NAME_TAKEN, "a name of the new space "
			    "exists", 0);
			return DOCKER_DONE;
		}
		if (p->dp_status != 404) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		if (++sp->i < NNAME_ROLES)
			return create_name_call(sp, next);
		/* From here on a failure rolls back. */
		sp->names_free = 1;
		sp->step = C_RT_WAIT;
		return sp_next(rq, sp, next);
	case C_RT_WAIT:
		return sp_next(rq, sp, next);
	case C_RT_GET:
		if (p->dp_status == 404) {
			sp->step = C_RT_CREATE;
			break;
		}
		if (p->dp_status != 200)
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "GET the runtime volume", 0, next);
		o = answer_json(p);
		why = runtime_labels_check(json_object_get(o, "Labels"), NULL,
		    sp->rt_key);
		json_decref(o);
		if (why != NULL)
			return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN, why, 0,
			    next);
		sp->step = C_RT_CTR;
		break;
	case C_RT_CREATE:
		if (p->dp_status != 201)
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "runtime volume create", 0, next);
		sp->rt_created = 1;
		sp->step = C_RT_CTR;
		break;
	case C_RT_CTR:
		if (p->dp_status != 201 ||
		    created_ok(sp, p, sp->rt_cid, sizeof(sp->rt_cid)) == -1 ||
		    sp->rt_cid[0] == '\0')
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "runtime fill container", 0, next);
		sp->step = C_RT_MARKER;
		break;
	case C_RT_MARKER:
		if (p->dp_status == 200) {
			/* Filled, maybe by another installation: compare. */
			sp->step = C_RT_RELAY;
			break;
		}
		if (p->dp_status != 404)
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "runtime marker", 0, next);
		sp->step = C_RT_PUT;
		break;
	case C_RT_PUT:
	case C_RT_PUT_MARKER:
		if (p->dp_status != 200)
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "runtime fill", 0, next);
		sp->step = sp->step == C_RT_PUT ? C_RT_PUT_MARKER :
		    C_RT_CTR_DEL;
		sp->rt_filled = 1;
		break;
	case C_RT_RELAY:
		if (p->dp_status != 200 ||
		    !docker_runtime_relay_matches(p->dp_body, p->dp_body_len))
			return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN,
			    "the runtime volume holds another relay", 0, next);
		sp->step = docker_runtime_has_ca() ? C_RT_CA : C_RT_CTR_DEL;
		break;
	case C_RT_CA:
		if (p->dp_status != 200 ||
		    !docker_runtime_ca_matches(p->dp_body, p->dp_body_len))
			return sp_fail(rq, sp, ERR_RUNTIME_FOREIGN,
			    "the runtime volume holds another CA bundle", 0,
			    next);
		sp->step = C_RT_CTR_DEL;
		break;
	case C_RT_CTR_DEL:
		if (p->dp_status != 204 && p->dp_status != 404)
			return sp_fail(rq, sp, ERR_DOCKER_FAILED,
			    "runtime fill container remove", 0, next);
		sp->rt_cid[0] = '\0';
		docker_runtime_set_ready(sp->rt_key, 1);
		docker_runtime_release(docker_req_peerid(rq));
		sp->rt_holder = 0;
		sp->rt_created = 0;	/* filled: it stays */
		if (sp->rt_filled) {
			/* A new relay: the installation's old ones may go. */
			sp->step = C_RT_PRUNE;
			break;
		}
		sp->step = C_VOL;
		sp->i = 0;
		break;
	case C_RT_SWEEP:
		take_runtime(sp, p, 0, 1);
		sp->step = C_RT_SWEEP_DEL;
		break;
	case C_RT_PRUNE:
		take_runtime(sp, p, 1, 0);
		sp->step = C_RT_PRUNE_DEL;
		break;
	case C_RT_SWEEP_DEL:
	case C_RT_PRUNE_DEL:
		/* Refused (a space still mounts it): it stays, no failure. */
		sp->rt_istale++;
		break;
	case C_NET:
	case C_VOL:
	case C_GK:
	case C_SP:
		if (p->dp_status != 201) {
			engine_message(p, msg, sizeof(msg));
			return sp_fail(rq, sp, p->dp_status == 409 ?
			    ERR_SPACE_NAME_TAKEN : ERR_DOCKER_FAILED, msg,
			    0, next);
		}
		if (sp->step != C_VOL && created_ok(sp, p, NULL, 0) == -1) {
			if (!sp->branch)
				send_violations(rq, &sp->report);
			return sp_fail(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the engine dropped a setting", 0, next);
		}
		if (sp->step == C_VOL && ++sp->i < NVOLUME_ROLES)
			break;
		sp->i = 0;
		switch (sp->step) {
		case C_NET:
			sp->step = C_GK;
			break;
		case C_VOL:
			/* The gatekeeper's branch needs the socket volume. */
			sp->child_running = 1;
			if (docker_req_spawn(rq, &gk_branch_op, sp,
			    sizeof(*sp)) == -1)
				return sp_fail(rq, sp, ERR_INTERNAL,
				    "no gatekeeper branch", 0, next);
			sp->step = C_SP;
			break;
		case C_GK:
			sp->step = V_GK;
			break;
		default:
			sp->step = V_SP;
			break;
		}
		break;
	case C_GK_START:
	case C_SP_START:
		if (p->dp_status != 204 && p->dp_status != 304) {
			engine_message(p, msg, sizeof(msg));
			return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
		}
		if (sp->step == C_GK_START && sp->branch)
			return branch_answer(rq, sp, "", NULL, 0);
		if (sp->step == C_GK_START) {
			sp->step = C_CORRIDOR;
			break;
		}
		sp->step = C_WAIT_GK;
		if (!sp->child_done)
			return DOCKER_WAIT;
		break;
	case C_CORRIDOR:
		if (p->dp_status == 200) {
			sp->step = C_SP_RUNNING;
			break;
		}
		role_name(sp, ROLE_GATEKEEPER, name, sizeof(name));
		call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
		    "?path=%s/corridor.sock", name, HARDEN_SOCKET_DIR);
		next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
		return DOCKER_CALL;
	case C_SP_RUNNING:
		/* A space whose command could not start is no space. */
		o = p->dp_status == 200 ? answer_json(p) : NULL;
		running = json_is_true(json_object_get(json_object_get(o,
		    "State"), "Running"));
		json_decref(o);
		if (!running)
			return sp_fail(rq, sp, ERR_SPACE_NOT_RUNNING,
			    "the space stopped as it started", 0, next);
		/* Its relay makes the space's folder, then listens. */
		sp->step = C_SP_FOLDER;
		role_name(sp, ROLE_SPACE, name, sizeof(name));
		if (harden_space_folder(folder, sizeof(folder), &sp->meta) ==
		    -1)
			fatalx("%s: space id", __func__);
		call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
		    "?path=%s", name, folder);
		if (sp->folder_polls++ > 0)
			next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
		return DOCKER_CALL;
	case C_SP_FOLDER:
		if (p->dp_status != 200 && p->dp_status != 404) {
			engine_message(p, msg, sizeof(msg));
			return sp_fail(rq, sp, ERR_DOCKER_FAILED, msg, 0, next);
		}
		if (p->dp_status == 404) {
			/* Not yet: is the space still running? */
			sp->step = C_SP_RUNNING;
			break;
		}
		sp->step = C_WAIT_TOKEN;
		return token_joined(rq, sp, next);
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}

	/* The call of the step we moved to. */
	switch (sp->step) {
	case C_RT_SWEEP:
		snprintf(raw, sizeof(raw), "%s=%s", LABEL_RUNTIME_KEY,
		    sp->rt_key);
		two_label_filter(LABEL_ROLE "=runtime", raw, f, sizeof(f));
		call(sp, next, "GET", SP_LIST_CAP,
		    "/containers/json?all=1&filters=%s", f);
		break;
	case C_RT_PRUNE:
		snprintf(raw, sizeof(raw), "%s=%s", LABEL_OWNER,
		    sp->sq.sq_runtime_owner);
		two_label_filter(LABEL_ROLE "=runtime", raw, f, sizeof(f));
		call(sp, next, "GET", SP_LIST_CAP, "/volumes?filters=%s", f);
		break;
	case C_RT_SWEEP_DEL:
	case C_RT_PRUNE_DEL:
		if (sp->rt_istale < sp->rt_nstale) {
			call(sp, next, "DELETE", SP_SMALL_CAP,
			    sp->step == C_RT_SWEEP_DEL ?
			    "/containers/%s?force=1" : "/volumes/%s",
			    sp->rt_stale[sp->rt_istale]);
			break;
		}
		if (sp->step == C_RT_SWEEP_DEL) {
			if (runtime_volume_name(name, sizeof(name),
			    sp->rt_key) == -1)
				fatalx("%s: runtime key", __func__);
			sp->step = C_RT_GET;
			call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s",
			    name);
			break;
		}
		sp->step = C_VOL;
		sp->i = 0;
		return sp_next(rq, sp, next);
	case C_RT_CREATE:
		if ((body = harden_runtime_volume_create(&sp->hp, &why)) ==
		    NULL)
			return sp_fail(rq, sp, ERR_INTERNAL, why, 0, next);
		call(sp, next, "POST", SP_SMALL_CAP, "/volumes/create");
		next->cl_body = body;
		break;
	case C_RT_CTR:
		if ((body = fill_container_body(sp)) == NULL)
			return sp_fail(rq, sp, ERR_INTERNAL, "fill container",
			    0, next);
		call(sp, next, "POST", SP_SMALL_CAP, "/containers/create");
		next->cl_body = body;
		break;
	case C_RT_MARKER:
		call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
		    "?path=%s/%s", sp->rt_cid, HARDEN_RUNTIME_DIR,
		    RUNTIME_MARKER_NAME);
		break;
	case C_RT_PUT:
	case C_RT_PUT_MARKER:
		tar = sp->step == C_RT_PUT ? docker_runtime_fill_tar(&len) :
		    docker_runtime_marker_tar(&len);
		if (tar == NULL)
			return sp_fail(rq, sp, ERR_RUNTIME_MISSING,
			    "the relay cannot be read", 0, next);
		call(sp, next, "PUT", SP_SMALL_CAP, "/containers/%s/archive"
		    "?path=%s", sp->rt_cid, HARDEN_RUNTIME_DIR);
		next->cl_raw = tar;
		next->cl_raw_len = len;
		next->cl_type = "application/x-tar";
		break;
	case C_RT_RELAY:
		call(sp, next, "GET", RUNTIME_RELAY_MAX + 64 * 1024,
		    "/containers/%s/archive?path=%s/%s", sp->rt_cid,
		    HARDEN_RUNTIME_DIR, RUNTIME_RELAY_NAME);
		break;
	case C_RT_CA:
		call(sp, next, "GET", RUNTIME_CA_MAX + 64 * 1024,
		    "/containers/%s/archive?path=%s/%s", sp->rt_cid,
		    HARDEN_RUNTIME_DIR, RUNTIME_CA_NAME);
		break;
	case C_RT_CTR_DEL:
		call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?force=1",
		    sp->rt_cid);
		break;
	case C_SP_RUNNING:
		role_name(sp, ROLE_SPACE, name, sizeof(name));
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    name);
		break;
	default:
		return sp_next(rq, sp, next);
	}
	return DOCKER_CALL;
}

/* --- verify (alone, and inside create and start) ---------------------- */

static enum docker_next
verify_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	json_t		*o;
	const char	*why;

	if (p->dp_status != 200 && p->dp_status != 404) {
		engine_message(p, name, sizeof(name));
		return sp_fail(rq, sp, ERR_DOCKER_FAILED, name, 0, next);
	}
	o = p->dp_status == 200 ? answer_json(p) : NULL;
	switch (sp->step) {
	case V_SP:
		if (o == NULL && p->dp_status == 404 &&
		    sp->op == IMSG_SPACE_VERIFY_REQ) {
			/* Only the aside container of a move?  Say so. */
			sp->step = A_ASIDE;
			return move_call(sp, next);
		}
		if (o == NULL && p->dp_status == 404 &&
		    sp->op != IMSG_SPACE_CREATE_REQ) {
			done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
			return DOCKER_DONE;
		}
		if (sp->op != IMSG_SPACE_CREATE_REQ) {
			if ((why = space_labels_parse(json_object_get(
			    json_object_get(o, "Config"), "Labels"),
			    sp->sq.sq_owner, sp->sq.sq_id, ROLE_SPACE,
			    &sp->meta)) != NULL) {
				json_decref(o);
				done(rq, ERR_SPACE_NOT_OURS, why, 0);
				return DOCKER_DONE;
			}
			strlcpy(sp->rt_key, sp->sq.sq_runtime_key,
			    sizeof(sp->rt_key));
			mounted_runtime_key(o, sp->rt_key, sizeof(sp->rt_key));
			sp->rt_ca = made_with_ca(o);
			strlcpy(sp->tools_cur, sp->sq.sq_agent.sa_tools,
			    sizeof(sp->tools_cur));
			mounted_tools(o, sp->sq.sq_agent.sa_tools,
			    sizeof(sp->sq.sq_agent.sa_tools));
			sp_params(sp);
		}
		container_state(o, sp->sp_state, sizeof(sp->sp_state));
		if (sp->op == IMSG_SPACE_START_REQ)
			move_decide(sp, o);
		harden_verify_space(o, &sp->hp, &sp->report);
		/* In create, the gatekeeper's branch verifies its own. */
		sp->step = sp->op == IMSG_SPACE_CREATE_REQ ? V_VOL : V_GK;
		sp->i = 0;
		break;
	case V_GK:
		if (o == NULL) {
			if (sp->op == IMSG_SPACE_START_REQ) {
				done(rq, ERR_GATEKEEPER_MISSING, NULL, 0);
				return DOCKER_DONE;
			}
			harden_report_add(&sp->report, "gatekeeper_missing",
			    "no gatekeeper container");
		} else {
			sp->gk_present = 1;
			container_state(o, sp->gk_state, sizeof(sp->gk_state));
			harden_verify_gatekeeper(o, &sp->hp, &sp->report);
		}
		sp->step = V_NET;
		break;
	case V_NET:
		if (o == NULL)
			harden_report_add(&sp->report, "network",
			    "the outer network is missing");
		else
			harden_verify_network(o, &sp->hp, &sp->report);
		if (sp->branch) {
			json_decref(o);
			return sp_verified(rq, sp, next);
		}
		sp->step = V_VOL;
		sp->i = 0;
		break;
	case V_VOL:
		if (o == NULL)
			harden_report_add(&sp->report, "mounts",
			    "a volume of the space is missing");
		else
			harden_verify_volume(o, &sp->hp, volume_roles[sp->i],
			    &sp->report);
		if (++sp->i >= NVOLUME_ROLES)
			sp->step = V_RT;
		break;
	case V_RT:
		if (o == NULL)
			harden_report_add(&sp->report, "runtime_mount",
			    "the runtime volume is missing");
		else
			harden_verify_runtime_volume(o, &sp->hp, &sp->report);
		json_decref(o);
		return sp_verified(rq, sp, next);
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	json_decref(o);
	return sp_next(rq, sp, next);
}

/* --- stop ------------------------------------------------------------- */

static enum docker_next
stop_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[128];
	json_t		*o;
	const char	*why;
	enum space_role	 r = sp->step == ST_SP ? ROLE_SPACE : ROLE_GATEKEEPER;

	switch (sp->step) {
	case ST_SP:
	case ST_GK:
		if (p->dp_status == 404) {
			if (sp->step == ST_SP) {
				/* Only the aside container of a move? */
				sp->step = A_ASIDE;
				return move_call(sp, next);
			}
			done(rq, "", NULL, 0);	/* nothing left to stop */
			return DOCKER_DONE;
		}
		if (p->dp_status != 200) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		o = answer_json(p);
		why = space_labels_check(json_object_get(json_object_get(o,
		    "Config"), "Labels"), sp->sq.sq_owner, sp->sq.sq_id, r);
		json_decref(o);
		if (why != NULL) {
			done(rq, ERR_SPACE_NOT_OURS, why, 0);
			return DOCKER_DONE;
		}
		sp->step++;
		return sp_next(rq, sp, next);
	case ST_SP_STOP:
	case ST_GK_STOP:
		if (p->dp_status != 204 && p->dp_status != 304 &&
		    p->dp_status != 404) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		if (sp->step == ST_GK_STOP) {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = ST_GK;
		return sp_next(rq, sp, next);
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
}

/* --- remove, and the rollback of create ------------------------------- */

/* A listing of containers, volumes or networks, by our labels. */
static int
take_listing(struct sp *sp, const struct docker_parser *p,
    enum sp_res_type type, const char *id)
{
	json_t		*o, *arr, *e, *labels;
	const char	*ref, *name, *state, *role;
	struct sp_res	*r;
	struct space_meta m;
	size_t		 i;

	/* An array for containers and networks; the parser capped it. */
	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return -1;
	arr = type == RES_VOLUME ? json_object_get(o, "Volumes") : o;
	if (arr != NULL && !json_is_array(arr) && !json_is_null(arr)) {
		json_decref(o);
		return -1;
	}
	json_array_foreach(arr, i, e) {
		labels = json_object_get(e, "Labels");
		/* The filter asked for these; the answer must say so. */
		if (space_labels_check(labels, sp->sq.sq_owner, id, -1) !=
		    NULL)
			continue;
		if (type == RES_CONTAINER) {
			ref = json_string_value(json_object_get(e, "Id"));
			name = json_string_value(json_array_get(
			    json_object_get(e, "Names"), 0));
			if (name != NULL && name[0] == '/')
				name++;
			state = json_string_value(json_object_get(e,
			    "State"));
		} else {
			ref = json_string_value(json_object_get(e,
			    type == RES_VOLUME ? "Name" : "Id"));
			name = json_string_value(json_object_get(e, "Name"));
			state = NULL;
		}
		if (!docker_plain_ref(ref) || name == NULL || (r = res_add(sp)) ==
		    NULL)
			continue;
		r->r_type = type;
		strlcpy(r->r_ref, ref, sizeof(r->r_ref));
		strlcpy(r->r_name, name, sizeof(r->r_name));
		strlcpy(r->r_id, json_string_value(json_object_get(labels,
		    LABEL_ID)), sizeof(r->r_id));
		role = json_string_value(json_object_get(labels, LABEL_ROLE));
		r->r_role = space_role_parse(role);
		if (state != NULL)
			strlcpy(r->r_state, state, sizeof(r->r_state));
		if (r->r_role == ROLE_SPACE && type == RES_CONTAINER &&
		    space_labels_parse(labels, sp->sq.sq_owner, r->r_id,
		    ROLE_SPACE, &m) == NULL)
			r->r_meta = m;
	}
	json_decref(o);
	return 0;
}

/* The next resource of this type to delete, or NULL. */
static struct sp_res *
next_to_delete(struct sp *sp, enum sp_res_type type)
{
	size_t	 i;

	for (i = 0; i < sp->nres; i++)
		if (sp->res[i].r_type == type && !sp->res[i].r_done)
			return &sp->res[i];
	return NULL;
}

static enum docker_next
delete_call(struct sp *sp, struct sp_res *r, struct docker_call *next)
{
	switch (r->r_type) {
	case RES_CONTAINER:
		call(sp, next, "DELETE", SP_SMALL_CAP,
		    "/containers/%s?force=1&v=0", r->r_ref);
		break;
	case RES_VOLUME:
		call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s", r->r_ref);
		break;
	case RES_NETWORK:
		call(sp, next, "DELETE", SP_SMALL_CAP, "/networks/%s",
		    r->r_ref);
		break;
	}
	return DOCKER_CALL;
}

static int
removal_in_progress(const struct docker_parser *p)
{
	char	 msg[160];

	engine_message(p, msg, sizeof(msg));
	return p->dp_status == 409 && strstr(msg, "already in progress") !=
	    NULL;
}

static void
remove_finish(struct docker_req *rq, struct sp *sp)
{
	size_t	 i;

	for (i = 0; i < sp->nres; i++)
		if (sp->res[i].r_done == 2)
			send_resource(rq, &sp->res[i], SPACE_RES_FAILED);
		else if (!sp->rolling_back)
			send_resource(rq, &sp->res[i], SPACE_RES_REMOVED);
	if (sp->rolling_back)
		done(rq, sp->code, sp->message, sp->uncertain);
	else
		done(rq, "", NULL, 0);
}

static enum docker_next
remove_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	static const enum sp_res_type order[] = {
		RES_CONTAINER, RES_VOLUME, RES_NETWORK
	};
	struct sp_res	*r;
	char		 name[SPACE_RESOURCE_MAX], f[768];
	enum sp_res_type type;

	switch (sp->step) {
	case R_LIST_C:
	case R_LIST_V:
	case R_LIST_N:
		type = order[(sp->step - R_LIST_C) / 2];
		if (take_listing(sp, p, type, sp->meta.sm_id) == -1) {
			engine_message(p, name, sizeof(name));
			if (!sp->rolling_back) {
				done(rq, ERR_DOCKER_FAILED, name, 0);
				return DOCKER_DONE;
			}
			sp->uncertain = 1;
		}
		sp->step++;
		break;
	case R_DEL_C:
	case R_DEL_V:
	case R_DEL_N:
		type = order[(sp->step - R_DEL_C) / 2];
		r = next_to_delete(sp, type);
		r->r_done = status_ok(p) || p->dp_status == 404 ||
		    removal_in_progress(p) ? 1 : 2;
		break;
	case R_PAUSE:
		sp->step = R_NAME_DEL;
		sp->i = 0;
		break;
	case R_NAME_DEL:
		/* The second sweep: by name, labelled or not (spec). */
		if (!status_ok(p) && p->dp_status != 404 &&
		    !removal_in_progress(p)) {
			if ((r = res_add(sp)) != NULL) {
				r->r_type = name_roles[sp->i] <= ROLE_GATEKEEPER ?
				    RES_CONTAINER : name_roles[sp->i] ==
				    ROLE_NETWORK ? RES_NETWORK : RES_VOLUME;
				strlcpy(r->r_id, sp->meta.sm_id,
				    sizeof(r->r_id));
				role_name(sp, name_roles[sp->i], r->r_name,
				    sizeof(r->r_name));
				r->r_done = 2;
			}
		}
		sp->i++;
		break;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}

	for (;;) {
		switch (sp->step) {
		case R_LIST_V:
		case R_LIST_N:
			label_filter(sp, sp->meta.sm_id, f, sizeof(f));
			call(sp, next, "GET", SP_LIST_CAP, "%s?filters=%s",
			    sp->step == R_LIST_V ? "/volumes" : "/networks", f);
			return DOCKER_CALL;
		case R_DEL_C:
		case R_DEL_V:
		case R_DEL_N:
			type = order[(sp->step - R_DEL_C) / 2];
			if ((r = next_to_delete(sp, type)) != NULL)
				return delete_call(sp, r, next);
			if (sp->step != R_DEL_N) {
				sp->step++;
				continue;
			}
			if (sp->rolling_back && sp->uncertain &&
			    sp->sweeps++ == 0) {
				sp->step = R_PAUSE;
				call(sp, next, "GET", SP_SMALL_CAP, "/_ping");
				next->cl_delay_ms = SP_SWEEP_PAUSE_MS;
				return DOCKER_CALL;
			}
			remove_finish(rq, sp);
			return DOCKER_DONE;
		case R_NAME_DEL:
			if (sp->i >= NNAME_ROLES) {
				/* and once more by label, for a late create */
				sp->step = R_LIST_C;
				label_filter(sp, sp->meta.sm_id, f, sizeof(f));
				call(sp, next, "GET", SP_LIST_CAP,
				    "/containers/json?all=1&filters=%s", f);
				return DOCKER_CALL;
			}
			role_name(sp, name_roles[sp->i], name, sizeof(name));
			if (name_roles[sp->i] <= ROLE_GATEKEEPER)
				call(sp, next, "DELETE", SP_SMALL_CAP,
				    "/containers/%s?force=1", name);
			else if (name_roles[sp->i] == ROLE_NETWORK)
				call(sp, next, "DELETE", SP_SMALL_CAP,
				    "/networks/%s", name);
			else
				call(sp, next, "DELETE", SP_SMALL_CAP,
				    "/volumes/%s", name);
			return DOCKER_CALL;
		default:
			fatalx("%s: step %d", __func__, sp->step);
		}
	}
}

/* --- list and show ---------------------------------------------------- */

static int
res_cmp(const void *a, const void *b)
{
	const struct sp_res	*ra = a, *rb = b;
	int			 c;

	if ((c = strcmp(ra->r_id, rb->r_id)) != 0)
		return c;
	return ra->r_role - rb->r_role;
}

static const struct sp_res *
find_res(const struct sp *sp, size_t from, size_t to, enum sp_res_type type,
    enum space_role role)
{
	size_t	 i;

	for (i = from; i < to; i++)
		if (sp->res[i].r_type == type && sp->res[i].r_role == (int)role)
			return &sp->res[i];
	return NULL;
}

/*
 * The space's container: the one with the plain name when a move left
 * two (spec), else the aside one alone, which list shows as it is:
 * stopped, so it can be started.
 */
static const struct sp_res *
find_space_res(const struct sp *sp, size_t from, size_t to)
{
	const struct sp_res	*r, *any = NULL;
	char			 name[SPACE_RESOURCE_MAX];
	size_t			 i;

	for (i = from; i < to; i++) {
		r = &sp->res[i];
		if (r->r_type != RES_CONTAINER || r->r_role != ROLE_SPACE)
			continue;
		if (space_resource_name(name, sizeof(name), r->r_id,
		    ROLE_SPACE) == 0 && strcmp(r->r_name, name) == 0)
			return r;
		if (any == NULL)
			any = r;
	}
	return any;
}

static void
list_finish(struct docker_req *rq, struct sp *sp)
{
	const struct sp_res	*s, *gk;
	const char		*missing[SPACE_MISSING_MAX];
	struct space_meta	 m;
	size_t			 i, j, k, n, shown = 0;

	qsort(sp->res, sp->nres, sizeof(sp->res[0]), res_cmp);
	for (i = 0; i < sp->nres; i = j) {
		for (j = i; j < sp->nres &&
		    strcmp(sp->res[j].r_id, sp->res[i].r_id) == 0; j++)
			;
		s = find_space_res(sp, i, j);
		gk = find_res(sp, i, j, RES_CONTAINER, ROLE_GATEKEEPER);
		n = 0;
		if (s != NULL && s->r_meta.sm_id[0] != '\0') {
			if (find_res(sp, i, j, RES_NETWORK, ROLE_NETWORK) ==
			    NULL)
				missing[n++] = "network";
			if (find_res(sp, i, j, RES_VOLUME, ROLE_SOCKET) ==
			    NULL)
				missing[n++] = "socket_volume";
			if (find_res(sp, i, j, RES_VOLUME, ROLE_WORK) == NULL)
				missing[n++] = "work_volume";
			if (find_res(sp, i, j, RES_VOLUME, ROLE_HOME) == NULL)
				missing[n++] = "home_volume";
			if (gk == NULL)
				missing[n++] = "gatekeeper";
			else if (strcmp(s->r_state, "running") == 0 &&
			    strcmp(gk->r_state, "running") != 0)
				missing[n++] = "gatekeeper_stopped";
			send_info(rq, &s->r_meta, s->r_state,
			    gk != NULL ? gk->r_state : "missing", missing, n,
			    0);
		} else {
			/* Orphans: what is left of a space without its own. */
			memset(&m, 0, sizeof(m));
			strlcpy(m.sm_id, sp->res[i].r_id, sizeof(m.sm_id));
			send_info(rq, &m, "missing",
			    gk != NULL ? gk->r_state : "missing", NULL, 0,
			    j - i);
			for (k = i; k < j; k++)
				send_resource(rq, &sp->res[k],
				    SPACE_RES_ORPHAN);
		}
		shown++;
	}
	if (sp->op == IMSG_SPACE_SHOW_REQ && shown == 0)
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
	else
		done(rq, "", NULL, 0);
}

static enum docker_next
list_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	static const enum sp_res_type type_of[] = {
		RES_CONTAINER, RES_NETWORK, RES_VOLUME
	};
	char		 f[768], msg[128];
	const char	*id = sp->op == IMSG_SPACE_SHOW_REQ ? sp->sq.sq_id :
	    NULL;

	if (take_listing(sp, p, type_of[sp->step - L_C], id) == -1) {
		/* A place failure rejects; never an empty list instead. */
		engine_message(p, msg, sizeof(msg));
		done(rq, ERR_DOCKER_FAILED, msg, 0);
		return DOCKER_DONE;
	}
	if (sp->step == L_V) {
		list_finish(rq, sp);
		return DOCKER_DONE;
	}
	sp->step++;
	label_filter(sp, id, f, sizeof(f));
	call(sp, next, "GET", SP_LIST_CAP, "%s?filters=%s",
	    sp->step == L_N ? "/networks" : "/volumes", f);
	return DOCKER_CALL;
}

/* --- start ------------------------------------------------------------ */

static enum docker_next
start_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[128];

	switch (sp->step) {
	case T_GK_START:
	case T_SP_START:
		if (p->dp_status != 204 && p->dp_status != 304) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		if (sp->step == T_SP_START) {
			send_info(rq, &sp->meta, "running", "running", NULL, 0,
			    0);
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = T_CORRIDOR;
		return sp_next(rq, sp, next);
	case T_CORRIDOR:
		if (p->dp_status != 200) {
			sp_next(rq, sp, next);
			next->cl_delay_ms = SP_CORRIDOR_POLL_MS;
			return DOCKER_CALL;
		}
		/* The way out is under our control: now the space. */
		if (strcmp(sp->sp_state, "running") != 0 && sp->move) {
			/* on the current tools: the old one goes aside */
			sp->moving = 1;
			sp->step = M_RENAME;
			return move_call(sp, next);
		}
		if (strcmp(sp->sp_state, "running") != 0) {
			sp->step = T_SP_START;
			return sp_next(rq, sp, next);
		}
		send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
		done(rq, "", NULL, 0);
		return DOCKER_DONE;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
}

static enum docker_next
sp_verified(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	switch (sp->op) {
	case IMSG_SPACE_VERIFY_REQ:
		send_violations(rq, &sp->report);
		done(rq, "", NULL, 0);
		return DOCKER_DONE;
	case IMSG_SPACE_CREATE_REQ:
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			/* the branch's go to its parent, which sends them */
			if (!sp->branch)
				send_violations(rq, &sp->report);
			return sp_fail(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the new space does not verify", 0, next);
		}
		/* With a token, its parent starts the gatekeeper. */
		if (sp->branch && sp->writes_token)
			return branch_answer(rq, sp, "", NULL, 0);
		sp->step = sp->branch ? C_GK_START : C_SP_START;
		return sp_next(rq, sp, next);
	case IMSG_SPACE_START_REQ:
		/* Changed behind our back: named, and not started. */
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			send_violations(rq, &sp->report);
			done(rq, ERR_SPACE_VERIFY_FAILED, "the space does not "
			    "verify; see spacectl verify", 0);
			return DOCKER_DONE;
		}
		sp->step = strcmp(sp->gk_state, "running") == 0 ?
		    T_CORRIDOR : T_GK_START;
		return sp_next(rq, sp, next);
	default:
		fatalx("%s: op %u", __func__, sp->op);
	}
}

/* --- new tools at the next start: the move --------------------------- */

/*
 * The spec's "New tools at the next start".  A start of a stopped
 * space whose tools mount is not the current tools volume makes its
 * container again: the old one is renamed aside (-old), the new one is
 * created on the current tools from the old one's labels and inspected
 * memory, verified and started; spaced waits for the server inside and
 * then ends the move (MOVE_DONE: the old one goes) or undoes it
 * (MOVE_UNDO).  The new container is removed only by the Id its create
 * returned, never by name: a name proves nothing, and anything that
 * gave the old container its name back meanwhile would make a removal
 * by name delete the only container of the space.  Only start repairs
 * a half-done move; verify, exec and stop answer space_move_unfinished
 * when only the aside container is left.
 */

#define MOVE_REPAIRS_MAX	3	/* looks again after a refusal */

static void
aside_name(struct sp *sp, char *buf, size_t len)
{
	if (space_aside_name(buf, len, sp->meta.sm_id) == -1)
		fatalx("%s: bad id", __func__);
}

/* Inspect answer: ours (this owner, this id, role space)? Its Id too. */
static int
move_ours(struct sp *sp, const json_t *o, char *cid, size_t len)
{
	const char	*id;

	if (space_labels_check(json_object_get(json_object_get(o, "Config"),
	    "Labels"), sp->sq.sq_owner, sp->meta.sm_id, ROLE_SPACE) != NULL)
		return 0;
	id = json_string_value(json_object_get(o, "Id"));
	if (!docker_plain_ref(id) || strlen(id) >= SPACE_CID_SIZE)
		return 0;
	if (cid != NULL)
		strlcpy(cid, id, len);
	return 1;
}

static int
has_name(const json_t *o, const char *name)
{
	const char	*n = json_string_value(json_object_get(o, "Name"));

	return n != NULL && n[0] == '/' && strcmp(n + 1, name) == 0;
}

static int
is_running(const json_t *o)
{
	return json_is_true(json_object_get(json_object_get(o, "State"),
	    "Running"));
}

/*
 * After the old container's inspect in start: is it a move?  Stopped,
 * with an agent, and its tools mount (adopted into sa_tools for the
 * checkers) is not the current tools volume.  A running space is never
 * touched, whatever tools it runs on.
 */
static void
move_decide(struct sp *sp, const json_t *o)
{
	json_int_t	 mem;

	sp->move = 0;
	if (o == NULL || sp->sq.sq_agent.sa_name[0] == '\0' ||
	    sp->tools_cur[0] == '\0' ||
	    strcmp(sp->sq.sq_agent.sa_tools, sp->tools_cur) == 0 ||
	    strcmp(sp->sp_state, "running") == 0 ||
	    !move_ours(sp, o, sp->mv.mv_old, sizeof(sp->mv.mv_old)))
		return;
	mem = json_integer_value(json_object_get(json_object_get(o,
	    "HostConfig"), "Memory"));
	sp->move_memory = mem > 0 ? (uint64_t)mem : sp->meta.sm_memory;
	sp->move = 1;
}

/* The call of the step sp is at. */
static enum docker_next
move_call(struct sp *sp, struct docker_call *next)
{
	char	 plain[SPACE_RESOURCE_MAX], aside[SPACE_RESOURCE_MAX];
	char	 f[512];

	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	aside_name(sp, aside, sizeof(aside));
	switch (sp->step) {
	case P_ASIDE:
	case A_ASIDE:
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    aside);
		break;
	case P_PLAIN:
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    plain);
		break;
	case P_DEL:
		/* Without force: Docker refuses a running container. */
		call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?v=0",
		    sp->mv.mv_new);
		break;
	case P_BACK:
		call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->aside_cid, plain);
		break;
	case M_RENAME:
		call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->mv.mv_old, aside);
		break;
	case M_VERIFY:
	case M_RUNNING:
	case U_NEW:
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    sp->mv.mv_new);
		break;
	case M_START:
		call(sp, next, "POST", SP_SMALL_CAP, "/containers/%s/start",
		    sp->mv.mv_new);
		break;
	case U_DEL:
		/* By the Id its create returned, and by nothing else. */
		call(sp, next, "DELETE", SP_SMALL_CAP,
		    "/containers/%s?force=1&v=0", sp->mv.mv_new);
		break;
	case U_OLD:
	case D_OLD:
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    sp->mv.mv_old);
		break;
	case U_BACK:
		call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/rename?name=%s", sp->mv.mv_old, plain);
		break;
	case D_DEL:
		call(sp, next, "DELETE", SP_SMALL_CAP, "/containers/%s?v=0",
		    sp->mv.mv_old);
		break;
	case D_PRUNE:
		tools_owner_filter(f, sizeof(f), sp->sq.sq_owner);
		call(sp, next, "GET", SP_LIST_CAP, "/volumes?filters=%s", f);
		break;
	case D_PRUNE_DEL:
		call(sp, next, "DELETE", SP_SMALL_CAP, "/volumes/%s",
		    sp->rt_stale[sp->rt_istale]);
		break;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	return DOCKER_CALL;
}

/* The create body of the new container: current tools, old labels. */
static enum docker_next
move_create(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char		 plain[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	strlcpy(sp->sq.sq_agent.sa_tools, sp->tools_cur,
	    sizeof(sp->sq.sq_agent.sa_tools));
	sp->meta.sm_memory = sp->move_memory;
	sp_params(sp);
	sp->step = M_CREATE;
	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	call(sp, next, "POST", SP_SMALL_CAP, "/containers/create?name=%s",
	    plain);
	if ((next->cl_body = harden_space_create(&sp->hp, &why)) == NULL)
		return move_undo(rq, sp, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

/*
 * Undo: the new container goes by its Id (when its create returned
 * one), then the old one gets its name back.  In start it answers with
 * the failure's code; as spaced's MOVE_UNDO with "" when everything is
 * back, else space_move_failed.  The message says "keeps its old
 * container" only when that is true.
 */
static enum docker_next
move_undo(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted, struct docker_call *next)
{
	sp->undoing = 1;
	sp->uncertain = interrupted;
	strlcpy(sp->code, code, sizeof(sp->code));
	strlcpy(sp->message, message != NULL ? message : code,
	    sizeof(sp->message));
	if (sp->op == IMSG_SPACE_START_REQ)
		log_warnx("docker: start %s: %s (%s): undoing the move",
		    sp->meta.sm_id, code, sp->message);
	sp->step = sp->mv.mv_new[0] != '\0' ? U_NEW : U_OLD;
	return move_call(sp, next);
}

static void
move_undone(struct docker_req *rq, struct sp *sp)
{
	struct sp_res	 r;
	char		 what[128], msg[SPACE_DONE_MESSAGE_MAX];
	int		 all = sp->old_back && !sp->new_failed;

	memset(&r, 0, sizeof(r));
	r.r_type = RES_CONTAINER;
	strlcpy(r.r_id, sp->meta.sm_id, sizeof(r.r_id));
	if (sp->new_failed) {
		snprintf(r.r_name, sizeof(r.r_name), "%.12s (new)",
		    sp->mv.mv_new);
		send_resource(rq, &r, SPACE_RES_FAILED);
	}
	if (!sp->old_back) {
		snprintf(r.r_name, sizeof(r.r_name), "%.12s (old)",
		    sp->mv.mv_old);
		send_resource(rq, &r, SPACE_RES_FAILED);
	}
	if (all)
		strlcpy(what, "the space keeps its old container",
		    sizeof(what));
	else
		snprintf(what, sizeof(what), "%s%s%s",
		    sp->new_failed ? "the new container could not be "
		    "removed" : "", sp->new_failed && !sp->old_back ? "; " : "",
		    sp->old_gone ? "the old container is gone" :
		    !sp->old_back ? "the old container stays aside: start the "
		    "space again to repair it" : "");
	if (sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		done(rq, all ? "" : ERR_SPACE_MOVE_FAILED, what,
		    sp->uncertain);
		return;
	}
	snprintf(msg, sizeof(msg), "%.120s; %s", sp->message, what);
	done(rq, sp->code, msg, sp->uncertain);
}

static enum docker_next
move_answer(struct docker_req *rq, struct sp *sp,
    const struct docker_parser *p, struct docker_call *next)
{
	struct space_move	 mv;
	char			 msg[128], aside[SPACE_RESOURCE_MAX];
	char			 plain[SPACE_RESOURCE_MAX];
	json_t			*o;
	int			 ours, running, named, plain_named;

	o = p->dp_status == 200 ? answer_json(p) : NULL;
	ours = o != NULL && move_ours(sp, o, NULL, 0);
	running = o != NULL && is_running(o);
	aside_name(sp, aside, sizeof(aside));
	named = o != NULL && has_name(o, aside);
	role_name(sp, ROLE_SPACE, plain, sizeof(plain));
	plain_named = o != NULL && has_name(o, plain);

	switch (sp->step) {
	/* --- the repair, before start's verify --- */
	case P_ASIDE:
		if (p->dp_status != 200 && p->dp_status != 404)
			goto engine;
		/* None, or a stranger's under that name: never touched. */
		if (!ours || !move_ours(sp, o, sp->aside_cid,
		    sizeof(sp->aside_cid))) {
			json_decref(o);
			sp->step = V_SP;
			return sp_next(rq, sp, next);
		}
		log_info("docker: start %s: an unfinished move: repairing",
		    sp->meta.sm_id);
		sp->step = P_PLAIN;
		break;
	case P_PLAIN:
		if (p->dp_status == 404) {
			sp->step = P_BACK;
			break;
		}
		if (p->dp_status != 200)
			goto engine;
		if (!ours) {
			json_decref(o);
			done(rq, ERR_SPACE_NOT_OURS, "the container with the "
			    "space's name is not ours", 0);
			return DOCKER_DONE;
		}
		if (running) {
			/* A space that is already started: as usual. */
			json_decref(o);
			sp->step = V_SP;
			return sp_next(rq, sp, next);
		}
		/* The unfinished new one: by the Id just inspected. */
		(void)move_ours(sp, o, sp->mv.mv_new, sizeof(sp->mv.mv_new));
		sp->step = P_DEL;
		break;
	case P_DEL:
		sp->mv.mv_new[0] = '\0';
		if (p->dp_status == 409 && ++sp->repairs <= MOVE_REPAIRS_MAX) {
			/* refused: it runs now; look again */
			sp->step = P_PLAIN;
			break;
		}
		if (!status_ok(p) && p->dp_status != 404)
			goto engine;
		sp->step = P_BACK;
		break;
	case P_BACK:
		if (p->dp_status == 409 && ++sp->repairs <= MOVE_REPAIRS_MAX) {
			sp->step = P_PLAIN;
			break;
		}
		if (!status_ok(p) && p->dp_status != 404)
			goto engine;
		/* back under its name (or gone): start as usual */
		json_decref(o);
		sp->step = V_SP;
		return sp_next(rq, sp, next);

	/* --- the move, once the corridor accepts --- */
	case M_RENAME:
		if (!status_ok(p)) {
			engine_message(p, msg, sizeof(msg));
			json_decref(o);
			/* it stayed where it was */
			sp->moving = 0;
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		json_decref(o);
		return move_create(rq, sp, next);
	case M_CREATE:
		json_decref(o);
		if (p->dp_status != 201) {
			/* No Id: nothing is removed. */
			engine_message(p, msg, sizeof(msg));
			return move_undo(rq, sp, p->dp_status == 409 ?
			    ERR_SPACE_NAME_TAKEN : ERR_DOCKER_FAILED, msg, 0,
			    next);
		}
		harden_report_init(&sp->report);
		if (created_ok(sp, p, sp->mv.mv_new, sizeof(sp->mv.mv_new)) ==
		    -1 || sp->mv.mv_new[0] == '\0') {
			send_violations(rq, &sp->report);
			return move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the engine dropped a setting of the new container",
			    0, next);
		}
		sp->step = M_VERIFY;
		break;
	case M_VERIFY:
		if (o == NULL) {
			engine_message(p, msg, sizeof(msg));
			return move_undo(rq, sp, ERR_DOCKER_FAILED, msg, 0,
			    next);
		}
		harden_report_init(&sp->report);
		harden_verify_space(o, &sp->hp, &sp->report);
		json_decref(o);
		if (sp->report.hr_n > 0 || sp->report.hr_truncated) {
			send_violations(rq, &sp->report);
			return move_undo(rq, sp, ERR_SPACE_VERIFY_FAILED,
			    "the new container does not verify", 0, next);
		}
		sp->step = M_START;
		return move_call(sp, next);
	case M_START:
		json_decref(o);
		if (p->dp_status != 204 && p->dp_status != 304) {
			engine_message(p, msg, sizeof(msg));
			return move_undo(rq, sp, ERR_DOCKER_FAILED, msg, 0,
			    next);
		}
		sp->step = M_RUNNING;
		return move_call(sp, next);
	case M_RUNNING:
		json_decref(o);
		if (!running)
			return move_undo(rq, sp, ERR_SPACE_NOT_RUNNING,
			    "the new container stopped as it started", 0, next);
		/* spaced waits for its server, then ends or undoes it */
		sp->moving = 0;
		log_info("docker: start %s: moved to %s", sp->meta.sm_id,
		    sp->tools_cur);
		send_info(rq, &sp->meta, "running", "running", NULL, 0, 0);
		mv = sp->mv;
		docker_req_record(rq, IMSG_SPACE_MOVED, &mv, sizeof(mv));
		done(rq, "", NULL, 0);
		return DOCKER_DONE;

	/* --- the undo --- */
	case U_NEW:
		if (p->dp_status == 404) {
			sp->step = U_OLD;	/* gone already */
			break;
		}
		if (!ours) {
			/* not ours by its labels: left alone, said so */
			sp->new_failed = 1;
			sp->step = U_OLD;
			break;
		}
		sp->step = U_DEL;
		break;
	case U_DEL:
		if (!status_ok(p) && p->dp_status != 404 &&
		    !removal_in_progress(p))
			sp->new_failed = 1;
		sp->step = U_OLD;
		break;
	case U_OLD:
		if (p->dp_status == 404 || (o != NULL && !ours)) {
			sp->old_gone = 1;
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		if (o == NULL) {
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		if (plain_named) {
			/*
			 * It has its name already: it never went aside, or
			 * something gave it back meanwhile.
			 */
			sp->old_back = 1;
			json_decref(o);
			move_undone(rq, sp);
			return DOCKER_DONE;
		}
		sp->step = U_BACK;
		break;
	case U_BACK:
		/* 409: the plain name is taken; it stays aside, repaired later */
		sp->old_back = status_ok(p);
		json_decref(o);
		move_undone(rq, sp);
		return DOCKER_DONE;

	/* --- the end of a move that worked --- */
	case D_OLD:
		if (p->dp_status == 404) {
			json_decref(o);
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		if (!ours || !named || running) {
			/* Not aside any more, or running: never removed. */
			json_decref(o);
			done(rq, ERR_SPACE_MOVE_FAILED, "the old container is "
			    "not aside and stopped any more: left alone", 0);
			return DOCKER_DONE;
		}
		sp->step = D_DEL;
		break;
	case D_DEL:
		json_decref(o);
		if (!status_ok(p) && p->dp_status != 404 &&
		    !removal_in_progress(p)) {
			engine_message(p, msg, sizeof(msg));
			done(rq, ERR_DOCKER_FAILED, msg, 0);
			return DOCKER_DONE;
		}
		/*
		 * The old container no longer holds its tools volume:
		 * prune this owner's others but the current one.  Docker
		 * refuses one that another space still mounts (409), and
		 * a prune never fails the move.
		 */
		if (sp->sq.sq_agent.sa_tools[0] == '\0') {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = D_PRUNE;
		return move_call(sp, next);
	case D_PRUNE:
		json_decref(o);
		sp->rt_nstale = tools_prune_list(p, sp->sq.sq_owner,
		    sp->sq.sq_agent.sa_tools, sp->rt_stale, RT_STALE_MAX);
		sp->rt_istale = 0;
		if (sp->rt_nstale == 0) {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		sp->step = D_PRUNE_DEL;
		return move_call(sp, next);
	case D_PRUNE_DEL:
		json_decref(o);
		if (status_ok(p))
			log_info("space %s: pruned the tools volume %s",
			    sp->sq.sq_id, sp->rt_stale[sp->rt_istale]);
		if (++sp->rt_istale >= sp->rt_nstale) {
			done(rq, "", NULL, 0);
			return DOCKER_DONE;
		}
		return move_call(sp, next);

	/* --- verify and stop: only the aside container? --- */
	case A_ASIDE:
		json_decref(o);
		if (ours) {
			done(rq, ERR_SPACE_MOVE_UNFINISHED, "only the old "
			    "container of a move is there: start the space", 0);
			return DOCKER_DONE;
		}
		done(rq, ERR_SPACE_NOT_FOUND, NULL, 0);
		return DOCKER_DONE;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	json_decref(o);
	return move_call(sp, next);

engine:
	json_decref(o);
	engine_message(p, msg, sizeof(msg));
	done(rq, ERR_DOCKER_FAILED, msg, 0);
	return DOCKER_DONE;
}

/* MOVE_DONE and MOVE_UNDO: a space_req and the two Ids. */
static int
sp_move_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct sp		*sp = docker_req_state(rq);
	struct space_move_req	 mq;

	memcpy(&mq, data, sizeof(mq));
	if (sp_start(rq, &mq.mq_space, sizeof(mq.mq_space), cl) == -1 ||
	    memchr(mq.mq_move.mv_old, '\0', SPACE_CID_SIZE) == NULL ||
	    memchr(mq.mq_move.mv_new, '\0', SPACE_CID_SIZE) == NULL ||
	    !docker_plain_ref(mq.mq_move.mv_old) ||
	    (sp->op == IMSG_SPACE_MOVE_UNDO_REQ &&
	    !docker_plain_ref(mq.mq_move.mv_new)))
		return -1;
	sp->mv = mq.mq_move;
	return 0;
}

/* --- failure and rollback --------------------------------------------- */

/* The gatekeeper's branch is done: code "" when its container runs. */
static enum docker_next
branch_answer(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted)
{
	struct branch_result	 br;

	memset(&br, 0, sizeof(br));
	strlcpy(br.br_code, code, sizeof(br.br_code));
	if (message != NULL)
		strlcpy(br.br_message, message, sizeof(br.br_message));
	br.br_interrupted = interrupted;
	br.br_report = sp->report;
	docker_req_reply(rq, &br, sizeof(br));
	return DOCKER_DONE;
}

/*
 * A create past its name check removes everything with its id and
 * owner (the runtime volume stays: other spaces use it), then answers
 * with the first failure's code.  Any other op answers at once.
 */
static enum docker_next
sp_fail(struct docker_req *rq, struct sp *sp, const char *code,
    const char *message, int interrupted, struct docker_call *next)
{
	if (sp->rt_holder) {
		docker_runtime_release(docker_req_peerid(rq));
		sp->rt_holder = 0;
	}
	/* The gatekeeper's branch: its parent rolls back. */
	if (sp->branch)
		return branch_answer(rq, sp, code, message, interrupted);
	/* A move under way: the new one goes, the old one comes back. */
	if (sp->moving || sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		if (sp->undoing || next == NULL) {
			done(rq, sp->undoing ? sp->code : code, "the move's "
			    "undo did not finish: see spacectl list", 1);
			return DOCKER_DONE;
		}
		return move_undo(rq, sp, code, message, interrupted, next);
	}
	/* Before its names were found free, a create has made nothing. */
	if (sp->op != IMSG_SPACE_CREATE_REQ || !sp->names_free) {
		done(rq, code, message, 0);
		return DOCKER_DONE;
	}
	if (sp->rolling_back || next == NULL) {
		/* The cleanup itself broke: say so, the list will show. */
		if (!sp->rolling_back)
			strlcpy(sp->code, code, sizeof(sp->code));
		done(rq, sp->code, "the rollback did not finish", 1);
		return DOCKER_DONE;
	}
	sp->rolling_back = 1;
	sp->uncertain = interrupted;
	strlcpy(sp->code, code, sizeof(sp->code));
	if (message != NULL)
		strlcpy(sp->message, message, sizeof(sp->message));
	log_warnx("docker: create %s: %s (%s): rolling back", sp->meta.sm_id,
	    code, message != NULL ? message : "");
	/* The branch may still make things: the sweep waits for it. */
	if (sp->child_running) {
		sp->rollback_pending = 1;
		return DOCKER_WAIT;
	}
	return sp_rollback(rq, sp, next);
}

static enum docker_next
sp_rollback(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	struct sp_res	*r;
	char		 f[768];

	sp->rollback_pending = 0;
	sp->nres = 0;
	if (sp->rt_cid[0] != '\0' && (r = res_add(sp)) != NULL) {
		r->r_type = RES_CONTAINER;
		strlcpy(r->r_ref, sp->rt_cid, sizeof(r->r_ref));
		strlcpy(r->r_name, "runtime-fill", sizeof(r->r_name));
	}
	/* A fill that failed leaves nothing: the volume it made goes. */
	if (sp->rt_created && (r = res_add(sp)) != NULL) {
		r->r_type = RES_VOLUME;
		(void)runtime_volume_name(r->r_ref, sizeof(r->r_ref),
		    sp->rt_key);
		strlcpy(r->r_name, r->r_ref, sizeof(r->r_name));
	}
	sp->step = R_LIST_C;
	label_filter(sp, sp->meta.sm_id, f, sizeof(f));
	call(sp, next, "GET", SP_LIST_CAP, "/containers/json?all=1&filters=%s",
	    f);
	return DOCKER_CALL;
}

/* --- the two branches of create --------------------------------------- */

/* Both containers run (or the branch failed): the corridor, or undo. */
static enum docker_next
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
		return sp_next(rq, sp, next);
	}
	sp->step = C_CORRIDOR;
	return sp_next(rq, sp, next);
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

/*
 * The end of a create: the space is ready (C_WAIT_TOKEN) and its token
 * in, when it writes one; a failed write fails it.
 */
static enum docker_next
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
	return DOCKER_DONE;
}

static enum docker_next
sp_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	if (sp->token_child) {
		if (len != sizeof(sp->token_sd) || sp->token_done)
			fatalx("%s: a second answer of the token", __func__);
		memcpy(&sp->token_sd, data, len);
		if (memchr(sp->token_sd.sd_code, '\0',
		    sizeof(sp->token_sd.sd_code)) == NULL)
			fatalx("%s: a bad answer of the token", __func__);
		sp->token_child = sp->child_running = 0;
		sp->token_done = 1;
		if (sp->rollback_pending)
			return sp_rollback(rq, sp, next);
		/* Only a request that waits for it goes on; else later. */
		if (sp->step == C_WAIT_TOKEN)
			return token_joined(rq, sp, next);
		return DOCKER_WAIT;
	}
	if (len != sizeof(*sp->child) || sp->child_done)
		fatalx("%s: a second answer of the branch", __func__);
	if ((sp->child = malloc(sizeof(*sp->child))) == NULL)
		fatal("%s", __func__);
	memcpy(sp->child, data, len);
	sp->child_running = 0;
	sp->child_done = 1;
	if (sp->rollback_pending) {
		if (sp->child->br_interrupted)
			sp->uncertain = 1;
		return sp_rollback(rq, sp, next);
	}
	if (sp->step == C_WAIT_GK)
		return gk_joined(rq, sp, next);
	return DOCKER_WAIT;
}

/* The gatekeeper's branch: a copy of its parent's state, on its own. */
static int
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
	sp->child_running = sp->child_done = sp->rt_holder = 0;
	sp->branch = 1;
	/* hp points into the state it belongs to: this one now */
	sp_params(sp);
	harden_report_init(&sp->report);
	sp->step = C_NET;
	call(sp, cl, "POST", SP_SMALL_CAP, "/networks/create");
	if ((cl->cl_body = harden_network_create(&sp->hp, &why)) == NULL) {
		log_warnx("%s: %s", __func__, why);
		return -1;
	}
	return 0;
}

/* --- the call of each step -------------------------------------------- */

static enum docker_next
sp_next(struct docker_req *rq, struct sp *sp, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX], f[768], raw[256];
	const char	*why = NULL;

	switch (sp->step) {
	case S_VERSION:
		switch (sp->op) {
		case IMSG_SPACE_CREATE_REQ:
			return create_begin(rq, sp, next);
		case IMSG_SPACE_LIST_REQ:
		case IMSG_SPACE_SHOW_REQ:
			sp->step = L_C;
			label_filter(sp, sp->op == IMSG_SPACE_SHOW_REQ ?
			    sp->sq.sq_id : NULL, f, sizeof(f));
			call(sp, next, "GET", SP_LIST_CAP,
			    "/containers/json?all=1&filters=%s", f);
			return DOCKER_CALL;
		case IMSG_SPACE_VERIFY_REQ:
			sp->step = V_SP;
			break;
		case IMSG_SPACE_START_REQ:
			/* first: a move this process did not finish? */
			sp->step = P_ASIDE;
			return move_call(sp, next);
		case IMSG_SPACE_MOVE_DONE_REQ:
			sp->step = D_OLD;
			return move_call(sp, next);
		case IMSG_SPACE_MOVE_UNDO_REQ:
			return move_undo(rq, sp, "", NULL, 0, next);
		case IMSG_SPACE_STOP_REQ:
			sp->step = ST_SP;
			break;
		case IMSG_SPACE_REMOVE_REQ:
			sp->step = R_LIST_C;
			label_filter(sp, sp->sq.sq_id, f, sizeof(f));
			call(sp, next, "GET", SP_LIST_CAP,
			    "/containers/json?all=1&filters=%s", f);
			return DOCKER_CALL;
		}
		return sp_next(rq, sp, next);
	case C_NAMES:
		return create_name_call(sp, next);
	case C_WAIT_GK:
		return gk_joined(rq, sp, next);
	case C_RT_WAIT:
		if (docker_runtime_ready(sp->rt_key)) {
			sp->step = C_VOL;
			sp->i = 0;
			return sp_next(rq, sp, next);
		}
		if (docker_runtime_take(docker_req_peerid(rq))) {
			/*
			 * First the fill containers of this key a killed
			 * worker left: they hold the volume.  The fill is
			 * one at a time in this worker, so none is ours.
			 */
			sp->rt_holder = 1;
			sp->step = C_RT_SWEEP;
			snprintf(raw, sizeof(raw), "%s=%s", LABEL_RUNTIME_KEY,
			    sp->rt_key);
			two_label_filter(LABEL_ROLE "=runtime", raw, f,
			    sizeof(f));
			call(sp, next, "GET", SP_LIST_CAP,
			    "/containers/json?all=1&filters=%s", f);
			return DOCKER_CALL;
		}
		/* Another create fills it; ask again shortly. */
		call(sp, next, "GET", SP_SMALL_CAP, "/_ping");
		next->cl_delay_ms = SP_RUNTIME_POLL_MS;
		return DOCKER_CALL;
	case C_NET:
		call(sp, next, "POST", SP_SMALL_CAP, "/networks/create");
		next->cl_body = harden_network_create(&sp->hp, &why);
		break;
	case C_VOL:
		call(sp, next, "POST", SP_SMALL_CAP, "/volumes/create");
		next->cl_body = harden_volume_create(&sp->hp,
		    volume_roles[sp->i], &why);
		break;
	case C_GK:
	case C_SP:
		role_name(sp, sp->step == C_GK ? ROLE_GATEKEEPER : ROLE_SPACE,
		    name, sizeof(name));
		call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/create?name=%s", name);
		next->cl_body = sp->step == C_GK ?
		    harden_gatekeeper_create(&sp->hp, &why) :
		    harden_space_create(&sp->hp, &why);
		break;
	case C_GK_START:
	case C_SP_START:
	case T_GK_START:
	case T_SP_START:
		role_name(sp, sp->step == C_GK_START || sp->step == T_GK_START ?
		    ROLE_GATEKEEPER : ROLE_SPACE, name, sizeof(name));
		call(sp, next, "POST", SP_SMALL_CAP, "/containers/%s/start",
		    name);
		return DOCKER_CALL;
	case C_CORRIDOR:
	case T_CORRIDOR:
		/* The socket appears, renamed into place, once it listens. */
		role_name(sp, ROLE_GATEKEEPER, name, sizeof(name));
		call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
		    "?path=%s/corridor.sock", name, HARDEN_SOCKET_DIR);
		return DOCKER_CALL;
	case V_SP:
	case V_GK:
	case ST_SP:
	case ST_GK:
		role_name(sp, sp->step == V_SP || sp->step == ST_SP ?
		    ROLE_SPACE : ROLE_GATEKEEPER, name, sizeof(name));
		call(sp, next, "GET", SP_SMALL_CAP, "/containers/%s/json",
		    name);
		return DOCKER_CALL;
	case ST_SP_STOP:
	case ST_GK_STOP:
		role_name(sp, sp->step == ST_SP_STOP ? ROLE_SPACE :
		    ROLE_GATEKEEPER, name, sizeof(name));
		call(sp, next, "POST", SP_SMALL_CAP,
		    "/containers/%s/stop?t=%d", name, SP_STOP_SECONDS);
		return DOCKER_CALL;
	case V_NET:
		role_name(sp, ROLE_NETWORK, name, sizeof(name));
		call(sp, next, "GET", SP_SMALL_CAP, "/networks/%s", name);
		return DOCKER_CALL;
	case V_VOL:
		role_name(sp, volume_roles[sp->i], name, sizeof(name));
		call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
		return DOCKER_CALL;
	case V_RT:
		if (runtime_volume_name(name, sizeof(name), sp->rt_key) == -1)
			strlcpy(name, "spaced-runtime-missing", sizeof(name));
		call(sp, next, "GET", SP_SMALL_CAP, "/volumes/%s", name);
		return DOCKER_CALL;
	default:
		fatalx("%s: step %d", __func__, sp->step);
	}
	if (next->cl_body == NULL)
		return sp_fail(rq, sp, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

/* --- the op table's three functions ----------------------------------- */

static enum docker_next
sp_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	if (sp->step == S_VERSION)
		return sp_version(rq, sp, p, next);
	if (sp->step >= P_ASIDE && sp->step <= A_ASIDE)
		return move_answer(rq, sp, p, next);
	if (sp->step >= R_LIST_C && sp->step <= R_NAME_DEL)
		return remove_answer(rq, sp, p, next);
	if (sp->step >= L_C && sp->step <= L_V)
		return list_answer(rq, sp, p, next);
	if (sp->step >= V_SP && sp->step <= V_RT)
		return verify_answer(rq, sp, p, next);
	if (sp->step >= ST_SP && sp->step <= ST_GK_STOP)
		return stop_answer(rq, sp, p, next);
	if (sp->step >= T_GK_START && sp->step <= T_SP_START)
		return start_answer(rq, sp, p, next);
	return create_answer(rq, sp, p, next);
}

static enum docker_next
sp_op_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	return sp_fail(rq, sp, code, NULL, interrupted, next);
}

/*
 * A create its client left, or spaced's deadline passed: what it made
 * goes, as after a failure.  Anything else simply ends.
 */
static enum docker_next
sp_cancel(struct docker_req *rq, struct docker_call *next)
{
	struct sp	*sp = docker_req_state(rq);

	/* docker_req_cancel freed the branch: it makes nothing more */
	sp->child_running = sp->token_child = 0;
	if (sp->moving || sp->op == IMSG_SPACE_MOVE_UNDO_REQ) {
		/* A move its client left: undone, as after a failure. */
		if (sp->undoing)
			return DOCKER_WAIT;
		return move_undo(rq, sp, ERR_CANCELLED, "the client left", 1,
		    next) == DOCKER_CALL ? DOCKER_CALL_NEW : DOCKER_DONE;
	}
	if (sp->op != IMSG_SPACE_CREATE_REQ || !sp->names_free) {
		done(rq, ERR_CANCELLED, NULL, 0);
		return DOCKER_DONE;
	}
	if (sp->rolling_back) {
		/* under way; a rollback waiting for the branch goes now */
		if (!sp->rollback_pending)
			return DOCKER_WAIT;
		sp->uncertain = 1;
		return sp_rollback(rq, sp, next) == DOCKER_CALL ?
		    DOCKER_CALL_NEW : DOCKER_DONE;
	}
	/* A call of ours may be under way in the engine: sweep twice. */
	return sp_fail(rq, sp, ERR_CANCELLED, "the client left", 1, next) ==
	    DOCKER_CALL ? DOCKER_CALL_NEW : DOCKER_DONE;
}

static void
sp_free(void *state)
{
	struct sp	*sp = state;

	free(sp->res);
	free(sp->child);
	explicit_bzero(sp->token, sizeof(sp->token));
}

#define SPACE_OP(name, type, ms) SPACE_OP_LEN(name, type, ms,	\
	sizeof(struct space_req))
#define SPACE_OP_LEN(name, type, ms, len) {				\
	.op_name = name, .op_req = type, .op_rep = IMSG_SPACE_DONE,	\
	.op_len = len, .op_fd = 1,					\
	.op_timeout_ms = ms, .op_state_size = sizeof(struct sp),	\
	.op_start = sp_start, .op_answer = sp_answer,			\
	.op_fail = sp_op_fail, .op_free = sp_free, .op_child = sp_child, \
	.op_cancel = sp_cancel,						\
	.op_cleanup_ms = 30000 }

/* The end of a move: a struct space_move_req, under its own deadline. */
#define MOVE_OP(name, type) {						\
	.op_name = name, .op_req = type, .op_rep = IMSG_SPACE_DONE,	\
	.op_len = sizeof(struct space_move_req), .op_fd = 1,		\
	.op_timeout_ms = 60000, .op_state_size = sizeof(struct sp),	\
	.op_start = sp_move_start, .op_answer = sp_answer,		\
	.op_fail = sp_op_fail, .op_free = sp_free, .op_child = sp_child, \
	.op_cancel = sp_cancel,						\
	.op_cleanup_ms = 30000 }

static const struct docker_op gk_branch_op = {
	.op_name = "create-gatekeeper",
	.op_len = sizeof(struct sp),
	.op_timeout_ms = 120000,
	.op_state_size = sizeof(struct sp),
	.op_start = gk_branch_start,
	.op_answer = sp_answer,
	.op_fail = sp_op_fail,
	.op_free = sp_free,
	.op_cleanup_ms = 30000,
};

const struct docker_op docker_space_ops[] = {
	SPACE_OP_LEN("create", IMSG_SPACE_CREATE_REQ, 120000,
	    sizeof(struct space_create_req)),
	SPACE_OP("list", IMSG_SPACE_LIST_REQ, 30000),
	SPACE_OP("show", IMSG_SPACE_SHOW_REQ, 30000),
	SPACE_OP("verify", IMSG_SPACE_VERIFY_REQ, 30000),
	SPACE_OP("stop", IMSG_SPACE_STOP_REQ, 40000),
	SPACE_OP("start", IMSG_SPACE_START_REQ, 90000),
	SPACE_OP("remove", IMSG_SPACE_REMOVE_REQ, 60000),
	MOVE_OP("move-done", IMSG_SPACE_MOVE_DONE_REQ),
	MOVE_OP("move-undo", IMSG_SPACE_MOVE_UNDO_REQ),
};
const size_t docker_space_nops = sizeof(docker_space_ops) /
    sizeof(docker_space_ops[0]);
