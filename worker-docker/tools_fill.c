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
 * The one-shot of a tools check or fill: a container that idles, made,
 * verified and started, then an exec in it whose hijacked stream is a
 * child request (tools_stream.c); the exit code is the exec's own, read
 * from its inspect.  Why a one-shot: docs/notes/spaced-docker-tools.md.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "docker_harden.h"
#include "docker_runtime.h"
#include "docker_tools.h"
#include "tools_volume.h"

#define TV_EXIT_POLL_MS		20
#define TV_EXIT_POLLS		250		/* 5 s for the engine to reap */

/*
 * The fill waits for its way out, the relay listening on 3128 (0C38,
 * LISTEN) and its gatekeeper's corridor socket, at most 30 s (exit 8,
 * "corridor"), then execs node with the filler: its words unchanged.
 */
static const char fill_wait[] = "i=0; until [ -S " TOOLS_SOCKET_DIR
    "/corridor.sock ] && /bin/grep -q ':0C38 00000000:0000 0A' "
    "/proc/net/tcp; do i=$((i + 1)); if [ $i -gt 300 ]; then echo "
    "'spaced-filler: corridor: the relay or its gatekeeper is not there' "
    ">&2; exit 8; fi; sleep 0.1; done; exec \"$@\"";

/* npm and the install script: the corridor, never a direct way. */
static const char *const fill_env[] = {
	"npm_config_proxy=" TOOLS_PROXY, "npm_config_https_proxy=" TOOLS_PROXY,
	"HTTPS_PROXY=" TOOLS_PROXY, "HTTP_PROXY=" TOOLS_PROXY,
	"https_proxy=" TOOLS_PROXY, "http_proxy=" TOOLS_PROXY, NULL
};

static const char *const check_argv[] = {
	"/bin/sh", "-c", "[ -f \"$1\" ] || exit 42; /bin/cat \"$1\"", "sh",
	TOOLS_ROOT "/" TOOLS_MARKER, NULL
};

/* The exec's argv and, for the fill, its stdin: the child takes them. */
static int
stream_input(struct tv *tv, struct tx_in *xi, json_t **argv, int take)
{
	const struct agent_profile	*ag = &tv->req.te_profile;
	struct tv_file			*f, *filler, *ca;
	char				 pkg[TOOLS_PACKAGE_JSON_MAX + 1];
	char				*hdr;
	uint8_t				*prog;
	size_t				 hlen, i;
	int				 plen;

	memset(xi, 0, sizeof(*xi));
	strlcpy(xi->xi_api, tv->api, sizeof(xi->xi_api));
	strlcpy(xi->xi_exec, tv->exec_id, sizeof(xi->xi_exec));
	if (tv->phase != PH_FILL) {
		xi->xi_timeout_ms = TV_CHECK_MS;
		if (argv == NULL)
			return 0;
		*argv = json_array();
		for (i = 0; check_argv[i] != NULL; i++)
			json_array_append_new(*argv,
			    json_string(check_argv[i]));
		return 0;
	}
	xi->xi_timeout_ms = TV_FILL_MS;
	if ((filler = tools_file_find(tv, TOOLS_FILE_FILLER, 0)) == NULL)
		return -1;
	ca = tools_file_find(tv, TOOLS_FILE_CA, 0);
	if (!take)
		goto argv;
	if ((plen = tools_package_json(ag, TOOLS_STAGING_DIR, pkg,
	    sizeof(pkg))) == -1 || (hdr = tools_frame_header(ag, tv->key,
	    (size_t)plen, ca != NULL ? ca->f_size : 0, &hlen)) == NULL)
		return -1;
	if ((xi->xi_prefix = malloc(hlen + plen)) == NULL)
		fatal("%s", __func__);
	memcpy(xi->xi_prefix, hdr, hlen);
	memcpy(xi->xi_prefix + hlen, pkg, plen);
	xi->xi_prefix_len = hlen + plen;
	free(hdr);
	/* The header's order: each packed tarball, then the CA bundle. */
	for (i = 0; i < ag->ag_npackages; i++) {
		if (ag->ag_packages[i].ap_tarball[0] == '\0')
			continue;
		if ((f = tools_file_find(tv, TOOLS_FILE_PACKED, i)) == NULL)
			goto bad;
		xi->xi_fds[xi->xi_nfds] = f->f_fd;
		xi->xi_sizes[xi->xi_nfds++] = f->f_size;
		f->f_fd = -1;
	}
	if (ca != NULL) {
		xi->xi_fds[xi->xi_nfds] = ca->f_fd;
		xi->xi_sizes[xi->xi_nfds++] = ca->f_size;
		ca->f_fd = -1;
	}
	/* node -e <program> spaced-filler <tools> <staging>: argv[2], [3] */
 argv:
	if (argv == NULL)
		return 0;
	if ((prog = tools_file_read(filler)) == NULL ||
	    memchr(prog, '\0', filler->f_size) != NULL) {
		free(prog);
		goto bad;
	}
	*argv = json_pack("[s, s, s, s, s, s, s, s, s, s]", "/bin/sh", "-c",
	    fill_wait, "sh", TOOLS_NODE, "-e", (char *)prog, "spaced-filler",
	    TOOLS_ROOT, TOOLS_STAGING_DIR);
	free(prog);
	if (*argv == NULL)
		goto bad;
	return 0;
 bad:
	free(xi->xi_prefix);
	xi->xi_prefix = NULL;
	for (i = 0; i < xi->xi_nfds; i++)
		close(xi->xi_fds[i]);
	xi->xi_nfds = 0;
	return -1;
}

/* The one-shot is gone: its phase's next step, or the failure. */
static enum docker_next
os_done(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	if (tv->os_code[0] != '\0' && tv->phase != PH_LIST)
		return tv_fail(rq, tv, tv->os_code, tv->os_msg,
		    tv->os_interrupted, next);
	switch (tv->phase) {
	case PH_CHECK:
		tv->step = S_CHECKED;
		break;
	case PH_FILL:
		return tv_corridor_down(tv);	/* then S_FILLED */
	case PH_RECHECK:
		tv->step = S_RECHECKED;
		break;
	case PH_LIST:
		tv->step = L_READ;
		break;
	}
	return TV_SEND;
}

/* A failure inside the one-shot: remove it first, then fail. */
static enum docker_next
os_fail(struct docker_req *rq, struct tv *tv, const char *code,
    const char *msg, int interrupted, struct docker_call *next)
{
	strlcpy(tv->os_code, code, sizeof(tv->os_code));
	strlcpy(tv->os_msg, msg != NULL ? msg : "", sizeof(tv->os_msg));
	tv->os_interrupted = interrupted;
	if (tv->cid[0] == '\0')
		return os_done(rq, tv, next);
	tv->step = O_DEL;
	return TV_SEND;
}

/* --- create: idles, and is verified before anything runs in it ------ */

static enum docker_next
create_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	tools_params(tv, tv->phase == PH_FILL ? TOOLS_ROLE_FILL :
	    TOOLS_ROLE_CHECK);
	tv->cid[0] = tv->exec_id[0] = '\0';
	tv->os_code[0] = tv->os_msg[0] = '\0';
	tv->have_xr = tv->exited = tv->polls = 0;
	tv->exit_code = -1;
	memset(&tv->xr, 0, sizeof(tv->xr));
	if (harden_tools_name(&tv->tp, name, sizeof(name)) == -1)
		return tv_fail(rq, tv, ERR_INTERNAL, "one-shot name", 0, next);
	tv_call(tv, next, "POST", TV_CAP, "/containers/create?name=%s", name);
	if ((next->cl_body = harden_tools_create(&tv->tp, &why)) == NULL)
		return tv_fail(rq, tv, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

static enum docker_next
create_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct harden_report	 hr;
	char			 msg[160];

	if (p->dp_status != 201) {
		engine_message(p, msg, sizeof(msg));
		return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	harden_report_init(&hr);
	/* A warning is a setting the engine dropped. */
	if (engine_created(p, &hr, tv->cid, sizeof(tv->cid)) == -1 ||
	    tv->cid[0] == '\0') {
		snprintf(msg, sizeof(msg), "the one-shot: %s: %s",
		    hr.hr_n > 0 ? hr.hr_v[0].hv_check : "create_answer",
		    hr.hr_n > 0 ? hr.hr_v[0].hv_message : "no Id");
		return os_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

static enum docker_next
inspect_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "GET", TV_CAP, "/containers/%s/json", tv->cid);
	return DOCKER_CALL;
}

static enum docker_next
inspect_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct harden_report	 hr;
	char			 msg[160];
	json_t			*o;

	if (p->dp_status != 200)
		return os_fail(rq, tv, ERR_DOCKER_FAILED,
		    "inspect of the one-shot", 0, next);
	o = engine_json(p);
	harden_report_init(&hr);
	harden_verify_tools(o, &tv->tp, &hr);
	json_decref(o);
	if (hr.hr_n > 0) {
		if (snprintf(msg, sizeof(msg), "the %s one-shot: %s: %s",
		    tv->phase == PH_FILL ? "fill" : "check",
		    hr.hr_v[0].hv_check, hr.hr_v[0].hv_message) < 0)
			msg[0] = '\0';
		return os_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

/*
 * The fill's folder, given to the filler's uid before anything runs:
 * the volume's root stays root's (the engine made it), so the filler,
 * never root, can write nowhere else in it.  The check skips this.
 */
static enum docker_next
own_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	struct tar_file	 f = { SPACE_TOOLS_SUBDIR, 0755, NULL, 0,
			    tv->tp.tp_uid, 1 };
	uint8_t		*tar;
	size_t		 len;

	if (tv->phase != PH_FILL)
		return TV_ADVANCE;
	if (tv->tp.tp_uid == 0 || (tar = tar_files(&f, 1, &len)) == NULL)
		return os_fail(rq, tv, ERR_INTERNAL, "the fill's folder", 0,
		    next);
	tv_call(tv, next, "PUT", TV_CAP, "/containers/%s/archive?path=%s",
	    tv->cid, TOOLS_DIR);
	next->cl_raw = tar;
	next->cl_raw_len = len;
	next->cl_type = "application/x-tar";
	return DOCKER_CALL;
}

static enum docker_next
own_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[160];

	if (p->dp_status != 200) {
		engine_message(p, msg, sizeof(msg));
		return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

static enum docker_next
start_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "POST", TV_CAP, "/containers/%s/start", tv->cid);
	return DOCKER_CALL;
}

static enum docker_next
start_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 msg[160];

	if (p->dp_status != 204 && p->dp_status != 304) {
		engine_message(p, msg, sizeof(msg));
		return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	return TV_ADVANCE;
}

/* --- the exec: its stream a child, its exit code read after ---------- */

static enum docker_next
exec_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	struct tx_in	 xi;
	json_t		*argv, *env;
	char		 user[HARDEN_USER_MAX];
	size_t		 i;

	tv_call(tv, next, "POST", TV_CAP, "/containers/%s/exec", tv->cid);
	if (harden_tools_user(&tv->tp, user, sizeof(user)) == -1)
		return os_fail(rq, tv, ERR_INTERNAL, "no filler uid", 0, next);
	if (stream_input(tv, &xi, &argv, 0) == -1)
		return os_fail(rq, tv, ERR_INTERNAL, "the fill's input "
		    "(a file from spaced is missing or unreadable)", 0, next);
	/* The container's own user: the filler's uid, or the space's. */
	env = NULL;
	for (i = 0; tv->phase == PH_FILL && fill_env[i] != NULL; i++) {
		if (env == NULL && (env = json_array()) == NULL)
			break;
		json_array_append_new(env, json_string(fill_env[i]));
	}
	next->cl_body = docker_exec_body(argv, user, env);
	if (next->cl_body == NULL)
		return os_fail(rq, tv, ERR_INTERNAL, "exec body", 0, next);
	return DOCKER_CALL;
}

static enum docker_next
exec_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct tx_in	 xi;
	char		 msg[160];

	if (docker_exec_created(p, tv->exec_id, sizeof(tv->exec_id)) == -1) {
		engine_message(p, msg, sizeof(msg));
		return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
	}
	if (stream_input(tv, &xi, NULL, 1) == -1)
		return os_fail(rq, tv, ERR_INTERNAL, "the fill's input", 0,
		    next);
	tv->step = O_STREAM;
	if (tv->phase == PH_FILL)
		docker_req_deadline(rq, TV_FILL_MS + TV_STEP_MS);
	if (docker_req_spawn(rq, &tools_stream_op, &xi, sizeof(xi)) == -1)
		return os_fail(rq, tv, ERR_INTERNAL, "no stream", 0, next);
	return DOCKER_WAIT;
}

/* The stream child answered. */
enum docker_next
oneshot_streamed(struct docker_req *rq, struct tv *tv, const void *data,
    size_t len, struct docker_call *next)
{
	if (len != sizeof(tv->xr))
		fatalx("%s: a bad answer of the stream", __func__);
	/* Past the stream already (failing): the answer counts no more. */
	if (tv->step != O_STREAM || tv->rolling_back)
		return DOCKER_WAIT;
	memcpy(&tv->xr, data, len);
	tv->have_xr = 1;
	docker_req_deadline(rq, TV_STEP_MS);
	if (tv->xr.xr_code[0] != '\0') {
		log_warnx("tools: %s: the %s stream: %s", tv->volume,
		    tv->phase == PH_FILL ? "fill" : "check", tv->xr.xr_code);
		return os_fail(rq, tv, tv->xr.xr_code, tv->phase == PH_FILL ?
		    "the fill did not finish" : "the marker's check did not "
		    "finish: the volume is kept", tv->xr.xr_interrupted, next);
	}
	tv->step = O_EXIT;
	return TV_SEND;
}

static enum docker_next
exit_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "GET", TV_CAP, "/exec/%s/json", tv->exec_id);
	return DOCKER_CALL;
}

static enum docker_next
exit_take(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	int	 rv;

	rv = docker_exec_exited(p, &tv->exit_code);
	if (rv == 1) {
		tv->exited = 1;
	} else if (rv == 0 && ++tv->polls <= TV_EXIT_POLLS) {
		exit_send(rq, tv, next);
		next->cl_delay_ms = TV_EXIT_POLL_MS;
		return DOCKER_CALL;
	} else
		tv->exit_code = -1;
	if (tv->phase != PH_FILL)
		tv->verdict = tools_marker_verdict(tv->exited, tv->exit_code,
		    tv->xr.xr_out, tv->xr.xr_out_len, tv->xr.xr_truncated,
		    tv->key);
	else if (!tv->exited) {
		strlcpy(tv->os_code, ERR_DOCKER_FAILED, sizeof(tv->os_code));
		strlcpy(tv->os_msg, "the filler's exit code could not be read",
		    sizeof(tv->os_msg));
	}
	return TV_ADVANCE;
}

static enum docker_next
del_send(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	tv_call(tv, next, "DELETE", TV_CAP, "/containers/%s?force=1", tv->cid);
	return DOCKER_CALL;
}

static enum docker_next
del_take(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	char	 msg[160];

	if (p->dp_status != 204 && p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		if (tv->os_code[0] == '\0') {
			strlcpy(tv->os_code, ERR_DOCKER_FAILED,
			    sizeof(tv->os_code));
			snprintf(tv->os_msg, sizeof(tv->os_msg),
			    "the one-shot stays: %s", msg);
		}
	} else
		tv->cid[0] = '\0';
	return os_done(rq, tv, next);
}

const struct tv_step_row tools_fill_steps[] = {
	{ O_CREATE,	create_send,	create_take,	O_INSPECT },
	{ O_INSPECT,	inspect_send,	inspect_take,	O_OWN },
	{ O_OWN,	own_send,	own_take,	O_START },
	{ O_START,	start_send,	start_take,	O_EXEC },
	{ O_EXEC,	exec_send,	exec_take,	O_STREAM },
	{ O_STREAM,	NULL,		NULL,		O_EXIT },
	{ O_EXIT,	exit_send,	exit_take,	O_DEL },
	{ O_DEL,	del_send,	del_take,	O_DEL },
};
const size_t tools_fill_steps_n = sizeof(tools_fill_steps) /
    sizeof(tools_fill_steps[0]);
