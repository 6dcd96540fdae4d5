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
 * network and grant: a space's gatekeeper is told what it may reach and
 * which keys its window adds, through an exec of its client mode inside
 * it with the body on stdin, never in an argv, a label or a file
 * (docs/notes/spaced-operations.md).
 */

#include <sys/types.h>

#include <jansson.h>
#include <string.h>

#include "ctl_check.h"
#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "spaced.h"

#define GK_CLIENT	"/usr/libexec/spaced/spaced-gatekeeper"

/* Sends body to METHOD PATH of the gatekeeper of space id. */
static const char *
gk_request(struct request *r, const char *id, const char *path, json_t *body)
{
	static struct space_exec_req	 se;
	static const char *const	 argv[] = { GK_CLIENT, "-C", "POST" };
	char				*json;
	size_t				 i, off = 0, n, len;

	if ((json = json_dumps(body, JSON_COMPACT)) == NULL)
		return ERR_BAD_REQUEST;	/* a string that is not UTF-8 */
	len = strlen(json);
	if (len > sizeof(se.se_stdin)) {
		explicit_bzero(json, len);
		free(json);
		return ERR_REQUEST_TOO_LARGE;
	}
	memset(&se, 0, sizeof(se));
	space_req_fill(r, &se.se_space, id);
	se.se_target = EXEC_TARGET_GATEKEEPER;
	se.se_timeout_ms = 30000;
	for (i = 0; i < sizeof(argv) / sizeof(argv[0]); i++) {
		n = strlen(argv[i]) + 1;
		memcpy(se.se_argv + off, argv[i], n);
		off += n;
	}
	n = strlen(path) + 1;
	memcpy(se.se_argv + off, path, n);
	off += n;
	se.se_argc = 4;
	se.se_argv_len = off;
	memcpy(se.se_stdin, json, len);
	se.se_stdin_len = len;
	explicit_bzero(json, len);
	free(json);

	(void)place_send_or_refuse(r, IMSG_SPACE_EXEC_REQ, &se, sizeof(se));
	/* The secret stays in no buffer of ours longer than it must. */
	explicit_bzero(&se, sizeof(se));
	return NULL;
}

const char *
network_start(struct request *r, struct imsg *imsg)
{
	static struct ctl_network	 cn;
	const char			*d, *end, *code;
	json_t				*body, *domains;

	if (imsg_get_data(imsg, &cn, sizeof(cn)) == -1 ||
	    !ctl_network_valid(&cn))
		return ERR_BAD_REQUEST;
	if ((domains = json_array()) == NULL)
		return ERR_INTERNAL;
	/* A name that is not UTF-8 is no JSON string. */
	for (d = cn.cn_domains, end = d + cn.cn_len; d < end;
	    d += strlen(d) + 1)
		if (json_array_append_new(domains, json_string(d)) == -1) {
			json_decref(domains);
			return ERR_BAD_REQUEST;
		}
	body = json_pack("{s:s, s:o}", "mode", cn.cn_mode == CTL_NETWORK_OPEN ?
	    "open" : "allowlist", "domains", domains);
	code = body != NULL ? gk_request(r, cn.cn_id, "/network", body) :
	    ERR_INTERNAL;
	json_decref(body);
	return code;
}

const char *
grant_start(struct request *r, struct imsg *imsg)
{
	static struct ctl_grant	 cg;
	char			 id[SPACE_ID_SIZE];
	const char		*code;
	json_t			*body;

	if (imsg_get_data(imsg, &cg, sizeof(cg)) == -1 ||
	    !ctl_grant_valid(&cg)) {
		explicit_bzero(&cg, sizeof(cg));
		return ERR_BAD_REQUEST;
	}
	body = json_pack("{s:s, s:s, s:s, s:s}", "id", cg.cg_grant,
	    "upstream", cg.cg_upstream, "header", cg.cg_header, "secret",
	    cg.cg_secret);
	strlcpy(id, cg.cg_id, sizeof(id));
	explicit_bzero(&cg, sizeof(cg));
	code = body != NULL ? gk_request(r, id, "/grants", body) :
	    ERR_BAD_REQUEST;
	json_decref(body);
	return code;
}

/* The client's exit code is the gatekeeper's yes or no. */
static void
gk_done(struct request *r, enum procid from, struct imsg *imsg)
{
	struct space_done	 sd;

	if (imsg_get_data(imsg, &sd, sizeof(sd)) == -1 ||
	    memchr(sd.sd_code, '\0', sizeof(sd.sd_code)) == NULL ||
	    memchr(sd.sd_message, '\0', sizeof(sd.sd_message)) == NULL)
		fatalx("%s: bad done from %s", __func__, proc_title(from));
	if (sd.sd_code[0] == '\0' && sd.sd_exit == 0) {
		request_end(r);
		return;
	}
	if (sd.sd_code[0] == '\0') {
		strlcpy(sd.sd_code, ERR_GATEKEEPER_REFUSED, sizeof(sd.sd_code));
		/* The client exits 1 on a refusal, 2 when it got no answer. */
		if (sd.sd_exit == 1)
			strlcpy(sd.sd_message, "the gatekeeper's rules refused "
			    "it (a name or grant it does not take, or its 256 "
			    "grants are full)", sizeof(sd.sd_message));
		else
			snprintf(sd.sd_message, sizeof(sd.sd_message), "the "
			    "gatekeeper's client got no answer from its "
			    "control channel (exit %d)", sd.sd_exit);
	}
	request_data(r, &sd, sizeof(sd));
	request_fail(r, sd.sd_code);
}

const struct answer_row gk_answers[] = {
	{ IMSG_SPACE_DONE, PLACE_BITS, sizeof(struct space_done),
	    AR_FINAL, gk_done },
	{ IMSG_SPACE_CONN_REQ, PROC_BIT(PROC_DOCKER), 0, AR_ALWAYS,
	    space_conn },
	{ 0 }
};
