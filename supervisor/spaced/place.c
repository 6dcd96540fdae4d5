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

static int
valid_string(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

const char *
place_send(struct request *r, uint32_t type, const void *data, size_t len)
{
	int	 s;

	if ((s = docker_connect()) == -1)
		return ERR_DOCKER_UNREACHABLE;
	if (request_send(r, PROC_DOCKER, type, s, data, len) == -1)
		return ERR_WORKER_UNAVAILABLE;
	return NULL;
}

const char *
place_why(const char *code)
{
	if (strcmp(code, ERR_DOCKER_UNREACHABLE) == 0)
		return "spaced cannot connect to the Docker socket";
	return "spaced-docker is not there";
}

int
place_send_or_refuse(struct request *r, uint32_t type, const void *data,
    size_t len)
{
	const char	*code;

	if ((code = place_send(r, type, data, len)) == NULL)
		return 0;
	request_refuse(r, code, place_why(code));
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
space_info_take(enum procid from, struct imsg *imsg, struct space_info *si)
{
	size_t	 i;

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
}

void
space_info(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_info	 si;

	space_info_take(from, imsg, &si);
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
