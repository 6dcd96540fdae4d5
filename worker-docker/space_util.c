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
 * What several space operations share: names, filters, the records and
 * the answer they send, the parameters a space is checked against.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space.h"

static const char *const res_type_names[] = {
	"container", "volume", "network"
};

/* The commands of our two containers; the checkers demand exactly these. */
static const char *const space_argv[] = { "/bin/sleep", "infinity", NULL };
/*
 * The relay listens: port 3128 (0C38) in state LISTEN (0A) in the
 * space's own /proc/net/tcp.  No connection: one through the corridor
 * would be journalled and push the agent's own attempts out of the
 * gatekeeper's ring.
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

const enum space_role space_name_roles[NNAME_ROLES] = {
	ROLE_SPACE, ROLE_GATEKEEPER, ROLE_NETWORK, ROLE_SOCKET, ROLE_WORK,
	ROLE_HOME
};
const enum space_role space_volume_roles[NVOLUME_ROLES] = {
	ROLE_SOCKET, ROLE_WORK, ROLE_HOME
};

void
role_name(struct sp *sp, enum space_role r, char *buf, size_t len)
{
	if (space_resource_name(buf, len, sp->meta.sm_id, r) == -1)
		fatalx("%s: bad id", __func__);
}

/* filters={"label":[marker, owner(, id)]}, encoded. */
void
label_filter(struct sp *sp, const char *id, char *buf, size_t len)
{
	char	 owner[256], idl[128];

	if ((size_t)snprintf(owner, sizeof(owner), "%s=%s", LABEL_OWNER,
	    sp->sq.sq_owner) >= sizeof(owner))
		fatalx("%s: owner", __func__);
	if (id == NULL) {
		engine_label_filter(buf, len, 2, LABEL_MARKER "=true", owner);
		return;
	}
	if ((size_t)snprintf(idl, sizeof(idl), "%s=%s", LABEL_ID, id) >=
	    sizeof(idl))
		fatalx("%s: id", __func__);
	engine_label_filter(buf, len, 3, LABEL_MARKER "=true", owner, idl);
}

void
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

/* A done that worked, with a count in its exit's place (sq_oom). */
void
done_exit(struct docker_req *rq, int n)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	sd.sd_exit = n;
	docker_req_reply(rq, &sd, sizeof(sd));
}

void
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

void
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

void
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

/* What verify, create and start check a space against. */
void
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
	hp->hp_uid = harden_space_uid(sp->meta.sm_id, sp->sq.sq_uid_first,
	    sp->sq.sq_uid_count);
	hp->hp_pool.np_base = sp->sq.sq_net_base;
	hp->hp_pool.np_pool_prefix = sp->sq.sq_net_pool_prefix;
	hp->hp_pool.np_prefix = sp->sq.sq_net_prefix;
	strlcpy(hp->hp_subnet, sp->net_subnet, sizeof(hp->hp_subnet));
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

/*
 * A container's create the engine refused because a shared volume it
 * mounts (HARDEN_MUST_EXIST) is gone: its code, and msg says which;
 * NULL for any other answer (msg the engine's word then).
 */
const char *
created_code(const struct docker_parser *p, char *msg, size_t len)
{
	char	 m[SPACE_DONE_MESSAGE_MAX], *c;

	engine_message(p, m, sizeof(m));
	if (p->dp_status != 400 || strstr(m, HARDEN_MUST_EXIST) == NULL) {
		strlcpy(msg, m, len);
		return p->dp_status == 409 ? ERR_SPACE_NAME_TAKEN :
		    ERR_DOCKER_FAILED;
	}
	/* "create NAME: invalid option: ..." */
	if (strncmp(m, "create ", 7) == 0 && (c = strchr(m + 7, ':')) != NULL)
		*c = '\0';
	snprintf(msg, len, "the volume %s went after this request found it "
	    "(a prune of another spaced on this engine?): nothing was made "
	    "of it; ask again and it is made anew",
	    strncmp(m, "create ", 7) == 0 ? m + 7 : "it mounts");
	return ERR_VOLUME_GONE;
}

/* State.Status of an inspect: running, exited, created, ... */
void
container_state(const json_t *c, char *buf, size_t len)
{
	const char	*s;

	s = json_string_value(json_object_get(json_object_get(c, "State"),
	    "Status"));
	snprintf(buf, len, "%s", s != NULL && strlen(s) < len ? s : "unknown");
}

/* The gatekeeper's socket appears, renamed into place, once it listens. */
void
corridor_call(struct sp *sp, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, ROLE_GATEKEEPER, name, sizeof(name));
	sp_call(sp, next, "HEAD", SP_SMALL_CAP, "/containers/%s/archive"
	    "?path=%s/corridor.sock", name, HARDEN_SOCKET_DIR);
}

/* The start of a role's container: create's and start's steps alike. */
void
start_call(struct sp *sp, enum space_role r, struct docker_call *next)
{
	char	 name[SPACE_RESOURCE_MAX];

	role_name(sp, r, name, sizeof(name));
	sp_call(sp, next, "POST", SP_SMALL_CAP, "/containers/%s/start", name);
}
