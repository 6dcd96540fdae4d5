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
 * What the operations share: the request to the place, its records, the
 * default agent.  Below every operation, it calls the router only; a
 * record of the wrong shape is a lie of the place, and spaced stops.
 */

#include <sys/types.h>

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "space_parse.h"
#include "spaced.h"

/*
 * Engine connections spaced hands one request beyond the first: enough
 * for a second call in flight and a cleanup; a place that wants more
 * gets IMSG_SPACE_CONN without one.
 */
#define SPACE_CONNS_MAX		8
/*
 * Engine requests in flight a uid may have, and all callers but root
 * and spaced's own user together: spaced-docker takes DOCKER_REQ_MAX
 * (256), so one user's flood leaves room for others, and plain users
 * together leave the administrators theirs (docs/privsep.md).
 */
#define PLACE_PER_UID		32
#define PLACE_PLAIN_MAX		192

static int
valid_string(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/*
 * A request is admitted to the engine once, at its first step: its
 * later steps and its undo are never refused for the caps.
 */
static int
place_admit(struct request *r)
{
	size_t	 mine, plain;

	if (r->r_engine)
		return 0;
	mine = request_engine_count(r->r_uid, &plain);
	if (r->r_uid != 0 && r->r_uid != geteuid() &&
	    (mine >= PLACE_PER_UID || plain >= PLACE_PLAIN_MAX))
		return -1;
	r->r_engine = 1;
	return 0;
}

/* A native space has a record under the state directory's native/. */
enum procid
place_of(const char *id)
{
	char		 path[PATH_MAX];
	struct stat	 st;

	if (id == NULL || id[0] == '\0' || !space_id_valid(id) ||
	    (size_t)snprintf(path, sizeof(path), "%s/native/%s/record",
	    spaced_config()->sc_state, id) >= sizeof(path) ||
	    stat(path, &st) == -1)
		return PROC_DOCKER;
	return PROC_NS;
}

/*
 * A machine with Docker: spaced.conf names an engine socket, or the
 * default one is there.  Without, the Docker place's word is not asked.
 */
static int
docker_here(void)
{
	const char	*path = spaced_config()->sc_docker_socket;
	struct stat	 st;

	return strcmp(path, SPACED_DOCKER_SOCK) != 0 ||
	    (stat(path, &st) == 0 && S_ISSOCK(st.st_mode));
}

enum procid
place_default(void)
{
	const char	*p = spaced_config()->sc_default_place;
	int		 s;

	if (strcmp(p, "native") == 0)
		return PROC_NS;
	if (strcmp(p, "docker") == 0 || !children[PROC_NS].c_ready)
		return PROC_DOCKER;
	/* auto: Docker when an engine answers */
	if (!docker_here() || (s = docker_connect()) == -1)
		return PROC_NS;
	close(s);
	return PROC_DOCKER;
}

/* default place native in a spaced with no native place. */
static int
place_default_unusable(void)
{
	return geteuid() != 0 &&
	    strcmp(spaced_config()->sc_default_place, "native") == 0;
}

void
place_native_plain(char *buf, size_t len)
{
	(void)snprintf(buf, len, "%s%s", place_why(ERR_SANDBOX_UNAVAILABLE),
	    place_default_unusable() ? "; spaced.conf's default place "
	    "native sends every create that names no place here" : "");
}

/*
 * Said, not refused: the setting chooses only where a create that
 * names no place goes, and -p docker works; a spaced that would not
 * start for it would leave the user with no spaced at all.
 */
void
place_default_warn(void)
{
	if (place_default_unusable())
		log_warnx("spaced.conf: default place native: the native "
		    "place needs spaced run as root, and this spaced runs as "
		    "uid %u: every create that names no place is refused "
		    "(sandbox_unavailable); use -p docker, or default place "
		    "docker or auto", (unsigned)geteuid());
}

/* The requests whose payload begins with a struct space_req. */
static int
type_has_space(uint32_t type)
{
	return (type >= IMSG_SPACE_CREATE_REQ && type <= IMSG_SPACE_LOGS_REQ) ||
	    type == IMSG_SPACE_MOVE_DONE_REQ || type == IMSG_SPACE_MOVE_UNDO_REQ;
}

/*
 * list: both places; the answer waits for both.  An engine that should
 * answer and does not fails the list, as it did before a second place.
 */
static const char *
place_send_list(struct request *r, uint32_t type, const void *data,
    size_t len)
{
	int	 s = -1, n = 0;

	if ((docker_here() || !children[PROC_NS].c_ready) &&
	    (s = docker_connect()) == -1)
		return ERR_DOCKER_UNREACHABLE;
	if (children[PROC_NS].c_ready &&
	    request_send(r, PROC_NS, type, -1, data, len) == 0)
		n++;
	if (s != -1 && request_send(r, PROC_DOCKER, type, s, data, len) == 0)
		n++;
	r->r_list_pending = n;
	return n > 0 ? NULL : ERR_WORKER_UNAVAILABLE;
}

const char *
place_send(struct request *r, uint32_t type, const void *data, size_t len)
{
	/* create and start of a native space: its tools there too */
	enum procid	 p = r->r_place == PROC_NS ? PROC_NS : PROC_DOCKER;
	int		 s;

	if (place_admit(r) == -1)
		return ERR_BUSY;
	/* spacectl tools: the Docker volumes and the native folders */
	if (type == IMSG_TOOLS_LIST_REQ)
		return place_send_list(r, type, data, len);
	if (type_has_space(type) && len >= sizeof(struct space_req)) {
		const struct space_req *sq = data;

		if (type == IMSG_SPACE_LIST_REQ && r->r_place == 0)
			return place_send_list(r, type, data, len);
		p = r->r_place != 0 ? r->r_place : place_of(sq->sq_id);
	}
	if (p == PROC_NS) {
		/* spaced-ns runs only as root (workers.c): not "gone". */
		if (geteuid() != 0)
			return ERR_SANDBOX_UNAVAILABLE;
		if (request_send(r, PROC_NS, type, -1, data, len) == -1)
			return ERR_WORKER_UNAVAILABLE;
		return NULL;
	}
	if ((s = docker_connect()) == -1)
		return ERR_DOCKER_UNREACHABLE;
	if (request_send(r, PROC_DOCKER, type, s, data, len) == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

const char *
place_why(const char *code)
{
	/* A user new to Docker: the most likely first refusal. */
	if (strcmp(code, ERR_DOCKER_UNREACHABLE) == 0 &&
	    docker_connect_errno() == EACCES)
		return "spaced cannot connect to the Docker socket: permission "
		    "denied; the user spaced runs as needs the socket's group "
		    "(docker): add it, then start spaced again from a new login";
	if (strcmp(code, ERR_DOCKER_UNREACHABLE) == 0)
		return "spaced cannot connect to the Docker socket";
	if (strcmp(code, ERR_BUSY) == 0)
		return "too many engine requests in flight for this user";
	if (strcmp(code, ERR_SANDBOX_UNAVAILABLE) == 0)
		return "the native place needs spaced run as root; this "
		    "spaced is a plain user's: use the Docker place (-p docker)";
	return "the place's worker (spaced-docker or spaced-ns) is not there";
}

/*
 * The words of a refusal of r by its place: what the place said (said),
 * or place_why's for place_send's own codes (said NULL).  A create that
 * named no place and was sent to the native place by spaced.conf,
 * refused there as unavailable, is also told where the place came from
 * and the way out, the user never having asked for it: the one place
 * that hint is made, whichever step refused.
 */
const char *
place_refusal(const struct request *r, const char *code, const char *said)
{
	static char	 msg[SPACE_DONE_MESSAGE_MAX];
	const char	*how;
	size_t		 n;

	strlcpy(msg, said != NULL ? said : place_why(code), sizeof(msg));
	n = strlen(msg);
	if (!r->r_place_default || r->r_place != PROC_NS ||
	    strcmp(code, ERR_SANDBOX_UNAVAILABLE) != 0 || n >= sizeof(msg))
		return msg;
	if (strcmp(spaced_config()->sc_default_place, "native") == 0)
		how = "; this create named no place, and the default place is "
		    "native (spaced.conf: default place native): use -p "
		    "docker, or fix the native place";
	else
		how = "; this create named no place, and the default place "
		    "auto chose native, Docker not answering (spaced.conf: "
		    "default place auto): start Docker, or fix the native "
		    "place";
	(void)snprintf(msg + n, sizeof(msg) - n, "%s", how);
	return msg;
}

int
place_code(const char *code)
{
	return strcmp(code, ERR_DOCKER_UNREACHABLE) == 0 ||
	    strcmp(code, ERR_BUSY) == 0 ||
	    strcmp(code, ERR_WORKER_UNAVAILABLE) == 0 ||
	    strcmp(code, ERR_SANDBOX_UNAVAILABLE) == 0;
}

int
place_send_or_refuse(struct request *r, uint32_t type, const void *data,
    size_t len)
{
	const char	*code;

	if ((code = place_send(r, type, data, len)) == NULL)
		return 0;
	request_refuse(r, code, place_refusal(r, code, NULL));
	return -1;
}

/*
 * The space looked up as the caller before anything of it is touched
 * (start, code in, history, review, apply): another owner's id, or
 * none, is refused by the place as every command refuses it.
 */
const char *
place_lookup_caller(struct request *r, const struct space_req *sq)
{
	return place_send(r, IMSG_SPACE_SHOW_REQ, sq, sizeof(*sq));
}

/* The lookup's records are not the operation's answer. */
void
place_lookup_record(struct request *r, enum procid from, struct imsg *imsg,
    int looking)
{
	struct space_info	 si;

	(void)place_lookup_info(r, from, imsg, looking, &si);
}

/* The same; 1 when the record was the space's info, now in *si. */
int
place_lookup_info(struct request *r, enum procid from, struct imsg *imsg,
    int looking, struct space_info *si)
{
	if (!looking)
		fatalx("%s: a record from %s out of turn", __func__,
		    proc_title(from));
	if (imsg_get_type(imsg) != IMSG_SPACE_INFO)
		return 0;
	space_info_take(from, imsg, si, r->r_uid);
	return 1;
}

/* The lookup's last word: 0, the caller's space; -1, refused as it says. */
int
place_lookup_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;

	space_done_take(from, imsg, &sd);
	if (sd.sd_code[0] == '\0')
		return 0;
	request_refuse(r, sd.sd_code, sd.sd_message);
	return -1;
}

/*
 * What every space request says besides its own fields: the caller's
 * own spaces (the uid is the kernel's, not theirs), the installation's
 * runtime, the images of the config.
 */
void
space_req_fill(struct request *r, struct space_req *sq, const char *id)
{
	const struct spaced_conf *conf = spaced_config();

	memset(sq, 0, sizeof(*sq));
	if (space_owner_fmt(sq->sq_owner, sizeof(sq->sq_owner),
	    conf->sc_install_id, r->r_uid) == -1 ||
	    space_owner_fmt(sq->sq_runtime_owner, sizeof(sq->sq_runtime_owner),
	    conf->sc_install_id, geteuid()) == -1)
		fatalx("%s: install id \"%s\"", __func__, conf->sc_install_id);
	strlcpy(sq->sq_id, id, sizeof(sq->sq_id));
	strlcpy(sq->sq_space_image, conf->sc_space_image,
	    sizeof(sq->sq_space_image));
	strlcpy(sq->sq_gk_image, conf->sc_gk_image, sizeof(sq->sq_gk_image));
	strlcpy(sq->sq_runtime_key, runtime_key(), sizeof(sq->sq_runtime_key));
	strlcpy(sq->sq_hosts, runtime_hosts(), sizeof(sq->sq_hosts));
	config_space_uids(conf, &sq->sq_uid_first, &sq->sq_uid_count);
	if (config_space_net(conf, &sq->sq_net_base, &sq->sq_net_pool_prefix,
	    &sq->sq_net_prefix) == -1)
		fatalx("%s: network pool", __func__);
	sq->sq_spaces_max = config_spaces_max(conf);
	sq->sq_limits_accept = config_native_accept(conf);
}

/* Another engine connection for this request, or none past the cap. */
void
space_conn(struct request *r, enum procid from, struct imsg *imsg)
{
	int	 s = -1;

	if (r->r_conns < SPACE_CONNS_MAX + r->r_conns_more) {
		if ((s = docker_connect()) != -1)
			r->r_conns++;
	} else if (r->r_conns++ == SPACE_CONNS_MAX + r->r_conns_more)
		log_warnx("request %u (%s): %s asks for more than %d engine "
		    "connections: answered without", r->r_id, r->r_op->op_name,
		    proc_title(from), SPACE_CONNS_MAX);
	if (worker_compose(from, IMSG_SPACE_CONN, r->r_id, s, NULL, 0) == -1)
		log_warn("request %u: IMSG_SPACE_CONN", r->r_id);
}

void
space_info_take(enum procid from, struct imsg *imsg, struct space_info *si,
    uid_t uid)
{
	size_t	 i;
	int	 over = 0;

	if (imsg_get_data(imsg, si, sizeof(*si)) == -1 ||
	    si->si_kind != SPACE_REC_INFO ||
	    !valid_string(si->si_id, sizeof(si->si_id)) ||
	    !valid_string(si->si_name, sizeof(si->si_name)) ||
	    !valid_string(si->si_project, sizeof(si->si_project)) ||
	    !valid_string(si->si_created, sizeof(si->si_created)) ||
	    !valid_string(si->si_state, sizeof(si->si_state)) ||
	    !valid_string(si->si_gk_state, sizeof(si->si_gk_state)) ||
	    si->si_nmissing > SPACE_MISSING_MAX)
		fatalx("%s: bad space info from %s", __func__,
		    proc_title(from));
	for (i = 0; i < SPACE_MISSING_MAX; i++)
		if (!valid_string(si->si_missing[i], sizeof(si->si_missing[i])))
			fatalx("%s: bad space info from %s", __func__,
			    proc_title(from));
	/* The disk use is spaced's word, never the place's. */
	si->si_disk_used = si->si_disk_limit = 0;
	si->si_disk_over = 0;
	(void)disk_of(si->si_id, &si->si_disk_used, &si->si_disk_limit,
	    &over);
	si->si_disk_over = over;
	si->si_restarts = 0;
	si->si_restarts_known = restarts_of(uid, si->si_id, &si->si_restarts);
}

void
space_info(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_info	 si;

	space_info_take(from, imsg, &si, r->r_uid);
	request_data(r, &si, sizeof(si));
}

void
space_violation(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_violation	 sv;

	if (imsg_get_data(imsg, &sv, sizeof(sv)) == -1 ||
	    sv.sv_kind != SPACE_REC_VIOLATION ||
	    !valid_string(sv.sv_check, sizeof(sv.sv_check)) ||
	    !valid_string(sv.sv_message, sizeof(sv.sv_message)))
		fatalx("%s: bad violation from %s", __func__,
		    proc_title(from));
	request_data(r, &sv, sizeof(sv));
}

void
space_resource(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_resource	 sr;

	if (imsg_get_data(imsg, &sr, sizeof(sr)) == -1 ||
	    sr.sr_kind != SPACE_REC_RESOURCE ||
	    sr.sr_state < SPACE_RES_REMOVED || sr.sr_state > SPACE_RES_ORPHAN ||
	    !valid_string(sr.sr_id, sizeof(sr.sr_id)) ||
	    !valid_string(sr.sr_type, sizeof(sr.sr_type)) ||
	    !valid_string(sr.sr_name, sizeof(sr.sr_name)))
		fatalx("%s: bad resource from %s", __func__, proc_title(from));
	request_data(r, &sr, sizeof(sr));
}

void
space_done_take(enum procid from, struct imsg *imsg, struct space_done *sd)
{
	if (imsg_get_data(imsg, sd, sizeof(*sd)) == -1 ||
	    !valid_string(sd->sd_code, sizeof(sd->sd_code)) ||
	    !valid_string(sd->sd_message, sizeof(sd->sd_message)) ||
	    (sd->sd_code[0] != '\0' &&
	    !space_code_valid(sd->sd_code, sizeof(sd->sd_code))))
		fatalx("%s: bad done from %s", __func__, proc_title(from));
}

int
space_origin_send(struct request *r, uint32_t type, const char *id,
    uid_t uid, const char *dir)
{
	struct journal_origin	 jo;

	memset(&jo, 0, sizeof(jo));
	strlcpy(jo.jo_id, id, sizeof(jo.jo_id));
	jo.jo_uid = uid;
	strlcpy(jo.jo_dir, dir, sizeof(jo.jo_dir));
	if (request_send(r, PROC_JOURNAL, type, -1, &jo, sizeof(jo)) == -1) {
		log_warnx("request %u: the store takes no origin of %s",
		    r->r_id, jo.jo_id);
		return -1;
	}
	return 0;
}

const struct agent_profile *
agent_profile(void)
{
	const struct spaced_conf *conf = spaced_config();

	if (strcmp(conf->sc_agent, AGENT_NONE) == 0)
		return NULL;
	return config_agent(conf, conf->sc_agent);
}

int
agent_none(void)
{
	return agent_profile() == NULL;
}
