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
 * The tools volume's ensure (spec "Tools volume", "ensure", "Fill
 * rollback"), and the listing behind spacectl tools.  One request of
 * docker_req.c, in steps on its connection:
 *
 *	version -> wait for this volume's turn in this worker
 *	1 inspect the volume: absent, or ours by label (marker, owner,
 *	  role tools, this key) or tools_volume_not_ours, untouched
 *	2 remove one-shots of this key a killed worker left (by label)
 *	3 present: the tools-check one-shot reads the marker; the verdict
 *	  (tools_marker_verdict) is filled, fill again (42: no marker; 0
 *	  with anything else), or reject (any other exit, any failure of
 *	  the exec or the engine): a hiccup never removes a filled volume.
 *	  The removal refused because a container mounts it is
 *	  tools_marker_mismatch.
 *	4 absent: create it with labels, run the filler, read the marker
 *	  once more as the space user
 *	5 after a new fill, remove this owner's other tools volumes; a
 *	  refusal means a space still mounts one, and it stays
 *
 * A one-shot is a container whose command idles (/bin/sleep infinity
 * under the engine's init) and whose check or fill runs as an exec in
 * it, through the Engine's hijacked stream like a space's exec
 * (docker_execcall.c, docker_frames.c), rather than a container run
 * with attach.  Why: the exec's calls come one after another on one
 * connection (create, inspect and check it, start, exec), with no race
 * between attaching and starting, and no output lost before the attach;
 * the container is verified before anything runs in it; the exit code
 * is the command's own, read from the exec's inspect, so 42 can only
 * come from the check's shell; and its output goes through our stream
 * with our caps instead of into the engine's log file.  The stream is
 * a child request on its own connection (docker_req_spawn); the exec
 * and its exit code go on this one.
 *
 * Once this call decided to fill (the name was free, or ours and
 * removed), any failure removes the one-shots of this key and the
 * volume by name, labelled or not, and after an interrupted step waits
 * two seconds and sweeps again (uncertain).  Two ensures of one volume
 * in this worker take turns, so one key is never filled twice at once:
 * the second finds it filled.
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <errno.h>
#include <event2/buffer.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "tools_key.h"
#include "docker_check.h"
#include "docker_execcall.h"
#include "docker_frames.h"
#include "docker_harden.h"
#include "docker_harden_tools.h"
#include "docker_parse.h"
#include "docker_space.h"
#include "docker_tools.h"
#include "docker_toolsvol.h"

#define TV_CAP			(256 * 1024)
#define TV_LIST_CAP		(8 * 1024 * 1024)
#define TV_STEP_MS		60000		/* one call */
#define TV_FILL_MS		(30 * 60 * 1000)	/* the spec's */
#define TV_CHECK_MS		30000
#define TV_OUTPUT_MAX		(16ULL * 1024 * 1024)	/* the spec's */
#define TV_WAIT_POLL_MS		250
#define TV_SWEEP_PAUSE_MS	2000		/* the spec's */
#define TV_EXIT_POLL_MS		20
#define TV_EXIT_POLLS		250		/* 5 s for the engine to reap */
#define TV_STALE_MAX		16
#define TV_VOLUMES_MAX		64
#define TV_FILLER_MAX		(256 * 1024)
#define TV_QUEUE_HIWAT		(512 * 1024)
#define TV_CHUNK		(64 * 1024)
#define TV_ERR_TAIL		200
#define TV_HOLDERS_MAX		DOCKER_REQ_MAX

static const char *const check_argv[] = {
	"/bin/sh", "-c", "[ -f \"$1\" ] || exit 42; /bin/cat \"$1\"", "sh",
	TOOLS_DIR "/" TOOLS_MARKER, NULL
};

/* What the stream child gives back. */
struct tx_result {
	char		 xr_code[CTL_CODE_MAX];	/* "" when the stream ended well */
	int		 xr_interrupted;
	uint8_t		 xr_out[TOOLS_MARKER_OUT_MAX];
	size_t		 xr_out_len;
	int		 xr_truncated;
	char		 xr_err[TV_ERR_TAIL + 1];	/* stderr's last line(s) */
	uint64_t	 xr_total;
};

/* The stream child's input: it takes the buffer and the fds. */
struct tx_in {
	char		 xi_api[24];
	char		 xi_exec[EXEC_ID_MAX];
	int		 xi_timeout_ms;
	uint8_t		*xi_prefix;
	size_t		 xi_prefix_len;
	int		 xi_fds[TOOLS_MSG_FILES_MAX];
	uint64_t	 xi_sizes[TOOLS_MSG_FILES_MAX];
	size_t		 xi_nfds;
};

enum tv_phase { PH_CHECK, PH_FILL, PH_RECHECK, PH_LIST };

enum tv_step {
	S_VERSION, S_WAIT, S_VOL_GET, S_SWEEP, S_SWEEP_DEL,
	O_CREATE, O_INSPECT, O_START, O_EXEC, O_STREAM, O_EXIT, O_DEL,
	S_VOL_DEL, S_VOL_CREATE, S_PRUNE, S_PRUNE_DEL,
	R_DEL, R_PAUSE,
	L_VOLS, L_CTRS,
};

struct tv_file {
	int		 f_fd;
	uint32_t	 f_kind;
	uint32_t	 f_index;
	uint64_t	 f_size;
};

struct tv_vol {
	struct tools_volume_info vi;
};

struct tv {
	TAILQ_ENTRY(tv)		 entry;
	uint32_t		 op;
	uint32_t		 peerid;
	struct tools_ensure_req	 req;
	char			 api[24];
	enum tv_step		 step;
	enum tv_phase		 phase;
	char			 created[SPACE_CREATED_LEN + 1];
	char			 volume[TOOLS_MSG_VOLUME_MAX];	/* this phase's */
	char			 key[TOOLS_MSG_KEY_SIZE];
	char			 desc[TOOLS_MSG_DESC_MAX];
	struct harden_tools_params tp;
	int			 holder;
	int			 filling;	/* decided to fill: rollback */
	int			 filled;
	int			 pruned;
	/* the one-shot of this phase */
	char			 cid[SPACE_RESOURCE_MAX];
	char			 exec_id[EXEC_ID_MAX];
	int			 polls;
	int			 exited, exit_code;
	struct tx_result	 xr;
	int			 have_xr;
	char			 os_code[CTL_CODE_MAX];	/* a failure to answer */
	char			 os_msg[SPACE_DONE_MESSAGE_MAX];
	int			 os_interrupted;
	enum tools_verdict	 verdict;
	/* the files spaced sent */
	struct tv_file		 files[TOOLS_MSG_FILES_MAX];
	size_t			 nfiles;
	/* sweeps and prunes: names or ids to remove */
	char			 stale[TV_STALE_MAX][SPACE_RESOURCE_MAX];
	size_t			 nstale, istale;
	/* the failure being answered, and its rollback */
	int			 rolling_back;
	int			 sweeps;
	int			 uncertain;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
	char			 rb_fail[SPACE_DONE_MESSAGE_MAX];
	char			 rb[3][SPACE_RESOURCE_MAX + 32];	/* paths */
	size_t			 rb_n, rb_i;
	/* list */
	struct tv_vol		*vols;
	size_t			 nvols, ivol;
};

static TAILQ_HEAD(, tv)	 tvs = TAILQ_HEAD_INITIALIZER(tvs);

/* Which volume's turn is whose, in this worker. */
static struct {
	char		 h_volume[TOOLS_MSG_VOLUME_MAX];
	uint32_t	 h_peerid;
} holders[TV_HOLDERS_MAX];

static enum docker_next	tv_fail(struct docker_req *, struct tv *,
			    const char *, const char *, int,
			    struct docker_call *);
static enum docker_next	os_begin(struct docker_req *, struct tv *,
			    enum tv_phase, struct docker_call *);
static enum docker_next	list_next(struct docker_req *, struct tv *,
			    struct docker_call *);
static const struct docker_op	tools_stream_op;

#define call(tv, cl, method, cap, ...) \
	docker_call_fmt((cl), (tv)->api, (method), (cap), __VA_ARGS__)

/* --- the turn of a volume --------------------------------------------- */

static int
turn_take(const char *volume, uint32_t peerid)
{
	size_t	 i, free_slot = TV_HOLDERS_MAX;

	for (i = 0; i < TV_HOLDERS_MAX; i++) {
		if (holders[i].h_peerid == 0) {
			if (free_slot == TV_HOLDERS_MAX)
				free_slot = i;
			continue;
		}
		if (strcmp(holders[i].h_volume, volume) == 0)
			return holders[i].h_peerid == peerid;
	}
	if (free_slot == TV_HOLDERS_MAX)
		return 0;
	strlcpy(holders[free_slot].h_volume, volume,
	    sizeof(holders[free_slot].h_volume));
	holders[free_slot].h_peerid = peerid;
	return 1;
}

static void
turn_release(const char *volume, uint32_t peerid)
{
	size_t	 i;

	for (i = 0; i < TV_HOLDERS_MAX; i++)
		if (holders[i].h_peerid == peerid &&
		    strcmp(holders[i].h_volume, volume) == 0) {
			holders[i].h_peerid = 0;
			holders[i].h_volume[0] = '\0';
		}
}

/* --- small things ----------------------------------------------------- */

/* filters={"label":["a=b",("c=d")]}, encoded. */
static void
filter(char *buf, size_t len, const char *k1, const char *v1, const char *k2,
    const char *v2)
{
	char	 raw[512];
	int	 n;

	if (k2 != NULL)
		n = snprintf(raw, sizeof(raw), "{\"label\":[\"%s=%s\","
		    "\"%s=%s\"]}", k1, v1, k2, v2);
	else
		n = snprintf(raw, sizeof(raw), "{\"label\":[\"%s=%s\"]}", k1,
		    v1);
	if (n < 0 || (size_t)n >= sizeof(raw) ||
	    docker_urlencode(raw, buf, len) == -1)
		fatalx("%s: filter too long", __func__);
}

static json_t *
answer_json(const struct docker_parser *p)
{
	return harden_json_parse(p->dp_body, p->dp_body_len);
}

static int
status_ok(const struct docker_parser *p)
{
	return p->dp_status >= 200 && p->dp_status < 300;
}

/* "<install>:<uid>" to the volume name of key; -1 when not one. */
static int
owner_volume(const char *owner, const char *key, char *buf, size_t len)
{
	char		 install[INSTALL_ID_MAX + 1];
	const char	*colon, *errstr;
	long long	 uid;

	if (!space_owner_valid(owner) || (colon = strchr(owner, ':')) ==
	    NULL || (size_t)(colon - owner) >= sizeof(install))
		return -1;
	memcpy(install, owner, colon - owner);
	install[colon - owner] = '\0';
	uid = strtonum(colon + 1, 0, UINT32_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	return tools_volume_name(buf, len, install, (uid_t)uid, key);
}

static void
reply(struct docker_req *rq, struct tv *tv, const char *code,
    const char *message, int uncertain, int exit_code)
{
	struct tools_done	 td;

	if (tv->holder) {
		turn_release(tv->req.te_volume, tv->peerid);
		tv->holder = 0;
	}
	memset(&td, 0, sizeof(td));
	strlcpy(td.td_done.sd_code, code, sizeof(td.td_done.sd_code));
	if (message != NULL)
		strlcpy(td.td_done.sd_message, message,
		    sizeof(td.td_done.sd_message));
	td.td_done.sd_uncertain = uncertain;
	td.td_done.sd_exit = exit_code;
	strlcpy(td.td_volume, tv->req.te_volume, sizeof(td.td_volume));
	strlcpy(td.td_key, tv->req.te_key, sizeof(td.td_key));
	td.td_filled = tv->filled;
	td.td_pruned = tv->pruned;
	docker_req_reply(rq, &td, sizeof(td));
}

static void
params(struct tv *tv, enum tools_role role)
{
	memset(&tv->tp, 0, sizeof(tv->tp));
	tv->tp.tp_role = role;
	tv->tp.tp_image = tv->req.te_image;
	tv->tp.tp_volume = tv->volume;
	tv->tp.tp_owner = tv->req.te_owner;
	tv->tp.tp_key = tv->key;
	tv->tp.tp_description = tv->desc;
	tv->tp.tp_created = tv->created;
}

/* --- files from spaced ------------------------------------------------ */

void
docker_toolsvol_file(uint32_t peerid, const struct tools_file_msg *tf,
    int fd)
{
	struct tv	*tv;
	struct stat	 sb;
	size_t		 i;

	TAILQ_FOREACH(tv, &tvs, entry)
		if (tv->peerid == peerid && tv->op == IMSG_TOOLS_ENSURE_REQ)
			break;
	/* An ensure that already answered (refused, cancelled). */
	if (tv == NULL || tv->nfiles >= tv->req.te_nfiles ||
	    tv->nfiles >= TOOLS_MSG_FILES_MAX) {
		if (fd != -1)
			close(fd);
		return;
	}
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size != tf->tf_size ||
	    tf->tf_kind < TOOLS_FILE_FILLER || tf->tf_kind > TOOLS_FILE_CA ||
	    (tf->tf_kind == TOOLS_FILE_PACKED &&
	    (tf->tf_index >= tv->req.te_profile.ag_npackages ||
	    tv->req.te_profile.ag_packages[tf->tf_index].ap_tarball[0] ==
	    '\0' || tv->req.te_profile.ag_packages[tf->tf_index].ap_size !=
	    tf->tf_size)) ||
	    (tf->tf_kind == TOOLS_FILE_FILLER && tf->tf_size > TV_FILLER_MAX) ||
	    (tf->tf_kind == TOOLS_FILE_CA && tf->tf_size > TOOLS_CA_MAX)) {
		log_warnx("tools: a file from spaced that is not what it says "
		    "(kind %u)", tf->tf_kind);
		if (fd != -1)
			close(fd);
		return;
	}
	for (i = 0; i < tv->nfiles; i++)
		if (tv->files[i].f_kind == tf->tf_kind &&
		    tv->files[i].f_index == tf->tf_index) {
			close(fd);
			return;
		}
	tv->files[tv->nfiles].f_fd = fd;
	tv->files[tv->nfiles].f_kind = tf->tf_kind;
	tv->files[tv->nfiles].f_index = tf->tf_kind == TOOLS_FILE_PACKED ?
	    tf->tf_index : 0;
	tv->files[tv->nfiles].f_size = tf->tf_size;
	tv->nfiles++;
}

static struct tv_file *
file_find(struct tv *tv, uint32_t kind, uint32_t index)
{
	size_t	 i;

	for (i = 0; i < tv->nfiles; i++)
		if (tv->files[i].f_kind == kind &&
		    (kind != TOOLS_FILE_PACKED || tv->files[i].f_index ==
		    index) && tv->files[i].f_fd != -1)
			return &tv->files[i];
	return NULL;
}

/* All of a file, from offset 0; NULL on a short read. */
static uint8_t *
file_read(const struct tv_file *f)
{
	uint8_t		*buf;
	uint64_t	 off = 0;
	ssize_t		 n;

	if ((buf = malloc(f->f_size + 1)) == NULL)
		return NULL;
	while (off < f->f_size) {
		n = pread(f->f_fd, buf + off, f->f_size - off, (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(buf);
			return NULL;
		}
		off += (uint64_t)n;
	}
	buf[f->f_size] = '\0';
	return buf;
}

/* --- start ------------------------------------------------------------ */

static int
version_call(struct tv *tv, struct docker_call *cl)
{
	tv->step = S_VERSION;
	cl->cl_method = "GET";
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	if (docker_api_cached() != NULL) {
		strlcpy(tv->api, docker_api_cached(), sizeof(tv->api));
		strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	} else
		strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
	return 0;
}

static int
tv_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct tv	*tv = docker_req_state(rq);
	char		 name[TOOLS_MSG_VOLUME_MAX];
	time_t		 now = time(NULL);
	struct tm	 tm;
	size_t		 i;

	memcpy(&tv->req, data, sizeof(tv->req));
	tv->op = docker_req_op(rq)->op_req;
	tv->peerid = docker_req_peerid(rq);
	for (i = 0; i < TOOLS_MSG_FILES_MAX; i++)
		tv->files[i].f_fd = -1;
	TAILQ_INSERT_TAIL(&tvs, tv, entry);
	gmtime_r(&now, &tm);
	strftime(tv->created, sizeof(tv->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* spaced checked all this; a worker trusts its parent, not blindly */
	if (!space_owner_valid(tv->req.te_owner) ||
	    memchr(tv->req.te_image, '\0', sizeof(tv->req.te_image)) == NULL ||
	    memchr(tv->req.te_description, '\0',
	    sizeof(tv->req.te_description)) == NULL ||
	    memchr(tv->req.te_key, '\0', sizeof(tv->req.te_key)) == NULL ||
	    memchr(tv->req.te_volume, '\0', sizeof(tv->req.te_volume)) ==
	    NULL || tv->req.te_reserved != 0 ||
	    tv->req.te_nfiles > TOOLS_MSG_FILES_MAX)
		return -1;
	if (tv->op == IMSG_TOOLS_ENSURE_REQ) {
		if (tv->req.te_image[0] == '\0' ||
		    !tools_key_valid(tv->req.te_key) ||
		    owner_volume(tv->req.te_owner, tv->req.te_key, name,
		    sizeof(name)) == -1 ||
		    strcmp(name, tv->req.te_volume) != 0 ||
		    agent_profile_check(&tv->req.te_profile) != NULL ||
		    tv->req.te_nfiles == 0)
			return -1;
		strlcpy(tv->volume, tv->req.te_volume, sizeof(tv->volume));
		strlcpy(tv->key, tv->req.te_key, sizeof(tv->key));
		strlcpy(tv->desc, tv->req.te_description, sizeof(tv->desc));
	} else if (tv->req.te_image[0] == '\0')
		return -1;
	return version_call(tv, cl);
}

/* --- the one-shot: create, verify, start, exec, stream, exit, remove -- */

static enum docker_next
os_begin(struct docker_req *rq, struct tv *tv, enum tv_phase phase,
    struct docker_call *next)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why = NULL;

	tv->phase = phase;
	params(tv, phase == PH_FILL ? TOOLS_ROLE_FILL : TOOLS_ROLE_CHECK);
	tv->cid[0] = tv->exec_id[0] = '\0';
	tv->os_code[0] = tv->os_msg[0] = '\0';
	tv->have_xr = tv->exited = tv->polls = 0;
	tv->exit_code = -1;
	memset(&tv->xr, 0, sizeof(tv->xr));
	if (harden_tools_name(&tv->tp, name, sizeof(name)) == -1)
		return tv_fail(rq, tv, ERR_INTERNAL, "one-shot name", 0, next);
	tv->step = O_CREATE;
	call(tv, next, "POST", TV_CAP, "/containers/create?name=%s", name);
	if ((next->cl_body = harden_tools_create(&tv->tp, &why)) == NULL)
		return tv_fail(rq, tv, ERR_INTERNAL, why, 0, next);
	return DOCKER_CALL;
}

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
			json_array_append_new(*argv, json_string(check_argv[i]));
		return 0;
	}
	xi->xi_timeout_ms = TV_FILL_MS;
	if ((filler = file_find(tv, TOOLS_FILE_FILLER, 0)) == NULL)
		return -1;
	ca = file_find(tv, TOOLS_FILE_CA, 0);
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
		if ((f = file_find(tv, TOOLS_FILE_PACKED, i)) == NULL)
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
	if ((prog = file_read(filler)) == NULL ||
	    memchr(prog, '\0', filler->f_size) != NULL) {
		free(prog);
		goto bad;
	}
	*argv = json_pack("[s, s, s, s, s, s]", TOOLS_NODE, "-e",
	    (char *)prog, "spaced-filler", TOOLS_DIR, TOOLS_STAGING_DIR);
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

/* The one-shot is gone: what its phase makes of it. */
static enum docker_next
os_done(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX], f[768];

	if (tv->os_code[0] != '\0') {
		if (tv->phase == PH_LIST)
			goto list;
		return tv_fail(rq, tv, tv->os_code, tv->os_msg,
		    tv->os_interrupted, next);
	}
	switch (tv->phase) {
	case PH_CHECK:
		switch (tv->verdict) {
		case TOOLS_VERDICT_FILLED:
			reply(rq, tv, "", NULL, 0, -1);
			return DOCKER_DONE;
		case TOOLS_VERDICT_ABSENT:
		case TOOLS_VERDICT_MISMATCH:
			log_info("tools: %s: %s: removing it to fill again",
			    tv->volume, tools_verdict_name(tv->verdict));
			tv->step = S_VOL_DEL;
			call(tv, next, "DELETE", TV_CAP, "/volumes/%s",
			    tv->volume);
			return DOCKER_CALL;
		default:
			snprintf(msg, sizeof(msg), "the marker of %s could not "
			    "be read (exit %d): the volume is kept", tv->volume,
			    tv->exit_code);
			return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
	case PH_FILL:
		if (tv->exit_code != 0) {
			snprintf(msg, sizeof(msg), "the fill failed at step %s "
			    "(exit %d)%s%s", tools_fill_step(tv->exit_code),
			    tv->exit_code, tv->xr.xr_err[0] != '\0' ? ": " : "",
			    tv->xr.xr_err);
			return tv_fail(rq, tv, ERR_TOOLS_FILL_FAILED, msg, 0,
			    next);
		}
		return os_begin(rq, tv, PH_RECHECK, next);
	case PH_RECHECK:
		if (tv->verdict != TOOLS_VERDICT_FILLED) {
			snprintf(msg, sizeof(msg), "after the fill the marker "
			    "reads as: %s (exit %d)",
			    tools_verdict_name(tv->verdict), tv->exit_code);
			return tv_fail(rq, tv, ERR_TOOLS_FILL_FAILED, msg, 0,
			    next);
		}
		/* Filled: it stays, whatever happens from here. */
		tv->filling = 0;
		tv->filled = 1;
		tv->step = S_PRUNE;
		tools_owner_filter(f, sizeof(f), tv->req.te_owner);
		call(tv, next, "GET", TV_LIST_CAP, "/volumes?filters=%s", f);
		return DOCKER_CALL;
	case PH_LIST:
 list:
		if (tv->os_code[0] != '\0')
			tv->vols[tv->ivol].vi.tv_state = TOOLS_STATE_UNKNOWN;
		else
			switch (tv->verdict) {
			case TOOLS_VERDICT_FILLED:
				tv->vols[tv->ivol].vi.tv_state =
				    TOOLS_STATE_FILLED;
				break;
			case TOOLS_VERDICT_ABSENT:
				tv->vols[tv->ivol].vi.tv_state =
				    TOOLS_STATE_EMPTY;
				break;
			case TOOLS_VERDICT_MISMATCH:
				tv->vols[tv->ivol].vi.tv_state =
				    TOOLS_STATE_MISMATCH;
				break;
			default:
				tv->vols[tv->ivol].vi.tv_state =
				    TOOLS_STATE_UNKNOWN;
				break;
			}
		turn_release(tv->volume, tv->peerid);
		tv->ivol++;
		return list_next(rq, tv, next);
	}
	fatalx("%s: phase %d", __func__, tv->phase);
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
	call(tv, next, "DELETE", TV_CAP, "/containers/%s?force=1", tv->cid);
	return DOCKER_CALL;
}

static enum docker_next
os_answer(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	struct harden_report	 hr;
	struct tx_in		 xi;
	char			 msg[160];
	json_t			*o, *argv;
	const char		*id;
	int			 rv;

	switch (tv->step) {
	case O_CREATE:
		o = answer_json(p);
		harden_report_init(&hr);
		harden_verify_created(o, &hr);
		id = json_string_value(json_object_get(o, "Id"));
		if (p->dp_status == 201 && docker_plain_ref(id))
			strlcpy(tv->cid, id, sizeof(tv->cid));
		json_decref(o);
		if (p->dp_status != 201) {
			engine_message(p, msg, sizeof(msg));
			return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
		/* A warning is a setting the engine dropped. */
		if (hr.hr_n > 0 || tv->cid[0] == '\0') {
			snprintf(msg, sizeof(msg), "the one-shot: %s: %s",
			    hr.hr_n > 0 ? hr.hr_v[0].hv_check : "create_answer",
			    hr.hr_n > 0 ? hr.hr_v[0].hv_message : "no Id");
			return os_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0,
			    next);
		}
		tv->step = O_INSPECT;
		call(tv, next, "GET", TV_CAP, "/containers/%s/json", tv->cid);
		return DOCKER_CALL;
	case O_INSPECT:
		if (p->dp_status != 200)
			return os_fail(rq, tv, ERR_DOCKER_FAILED,
			    "inspect of the one-shot", 0, next);
		o = answer_json(p);
		harden_report_init(&hr);
		harden_verify_tools(o, &tv->tp, &hr);
		json_decref(o);
		if (hr.hr_n > 0) {
			if (snprintf(msg, sizeof(msg), "the %s one-shot: %s: "
			    "%s", tv->phase == PH_FILL ? "fill" : "check",
			    hr.hr_v[0].hv_check, hr.hr_v[0].hv_message) < 0)
				msg[0] = '\0';
			return os_fail(rq, tv, ERR_SPACE_VERIFY_FAILED, msg, 0,
			    next);
		}
		tv->step = O_START;
		call(tv, next, "POST", TV_CAP, "/containers/%s/start", tv->cid);
		return DOCKER_CALL;
	case O_START:
		if (p->dp_status != 204 && p->dp_status != 304) {
			engine_message(p, msg, sizeof(msg));
			return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
		tv->step = O_EXEC;
		call(tv, next, "POST", TV_CAP, "/containers/%s/exec", tv->cid);
		if (stream_input(tv, &xi, &argv, 0) == -1)
			return os_fail(rq, tv, ERR_INTERNAL, "the fill's input "
			    "(a file from spaced is missing or unreadable)", 0,
			    next);
		next->cl_body = docker_exec_body(argv, tv->phase == PH_FILL ?
		    TOOLS_FILL_USER : HARDEN_SPACE_USER, NULL);
		if (next->cl_body == NULL)
			return os_fail(rq, tv, ERR_INTERNAL, "exec body", 0,
			    next);
		return DOCKER_CALL;
	case O_EXEC:
		if (docker_exec_created(p, tv->exec_id,
		    sizeof(tv->exec_id)) == -1) {
			engine_message(p, msg, sizeof(msg));
			return os_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
		if (stream_input(tv, &xi, NULL, 1) == -1)
			return os_fail(rq, tv, ERR_INTERNAL, "the fill's input",
			    0, next);
		tv->step = O_STREAM;
		if (tv->phase == PH_FILL)
			docker_req_deadline(rq, TV_FILL_MS + TV_STEP_MS);
		if (docker_req_spawn(rq, &tools_stream_op, &xi,
		    sizeof(xi)) == -1)
			return os_fail(rq, tv, ERR_INTERNAL, "no stream", 0,
			    next);
		return DOCKER_WAIT;
	case O_EXIT:
		rv = docker_exec_exited(p, &tv->exit_code);
		if (rv == 1) {
			tv->exited = 1;
		} else if (rv == 0 && ++tv->polls <= TV_EXIT_POLLS) {
			call(tv, next, "GET", TV_CAP, "/exec/%s/json",
			    tv->exec_id);
			next->cl_delay_ms = TV_EXIT_POLL_MS;
			return DOCKER_CALL;
		} else
			tv->exit_code = -1;
		if (tv->phase != PH_FILL)
			tv->verdict = tools_marker_verdict(tv->exited,
			    tv->exit_code, tv->xr.xr_out, tv->xr.xr_out_len,
			    tv->xr.xr_truncated, tv->key);
		else if (!tv->exited) {
			strlcpy(tv->os_code, ERR_DOCKER_FAILED,
			    sizeof(tv->os_code));
			strlcpy(tv->os_msg, "the filler's exit code could not "
			    "be read", sizeof(tv->os_msg));
		}
		tv->step = O_DEL;
		call(tv, next, "DELETE", TV_CAP, "/containers/%s?force=1",
		    tv->cid);
		return DOCKER_CALL;
	case O_DEL:
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
	default:
		fatalx("%s: step %d", __func__, tv->step);
	}
}

/* The stream child answered. */
static enum docker_next
tv_child(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

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
	call(tv, next, "GET", TV_CAP, "/exec/%s/json", tv->exec_id);
	return DOCKER_CALL;
}

/* --- the rollback: everything this call's fill made, by name ---------- */

static enum docker_next
rb_next(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	char	 msg[SPACE_DONE_MESSAGE_MAX];

	if (tv->rb_i < tv->rb_n) {
		tv->step = R_DEL;
		call(tv, next, "DELETE", TV_CAP, "%s", tv->rb[tv->rb_i]);
		return DOCKER_CALL;
	}
	if (tv->uncertain && tv->sweeps < 2) {
		/* A late call may still make them: wait, sweep again. */
		tv->sweeps++;
		tv->rb_i = 0;
		tv->rb_fail[0] = '\0';
		tv->step = R_PAUSE;
		call(tv, next, "GET", TV_CAP, "/_ping");
		next->cl_delay_ms = TV_SWEEP_PAUSE_MS;
		return DOCKER_CALL;
	}
	if (tv->rb_fail[0] != '\0') {
		if (snprintf(msg, sizeof(msg), "%s; rollback failures:%s",
		    tv->message, tv->rb_fail) < 0)
			msg[0] = '\0';
		strlcpy(tv->message, msg, sizeof(tv->message));
	}
	reply(rq, tv, tv->code, tv->message, tv->uncertain, tv->exit_code);
	return DOCKER_DONE;
}

static void
rb_add(struct tv *tv, const char *fmt, const char *name, const char *suffix)
{
	if (tv->rb_n >= sizeof(tv->rb) / sizeof(tv->rb[0]))
		return;
	snprintf(tv->rb[tv->rb_n++], sizeof(tv->rb[0]), fmt, name, suffix);
}

static enum docker_next
tv_fail(struct docker_req *rq, struct tv *tv, const char *code,
    const char *message, int interrupted, struct docker_call *next)
{
	if (tv->rolling_back || next == NULL) {
		/* The cleanup itself broke: say so. */
		if (!tv->rolling_back) {
			strlcpy(tv->code, code, sizeof(tv->code));
			strlcpy(tv->message, message != NULL ? message : "",
			    sizeof(tv->message));
		}
		strlcat(tv->message, "; the rollback did not finish",
		    sizeof(tv->message));
		reply(rq, tv, tv->code, tv->message, 1, tv->exit_code);
		return DOCKER_DONE;
	}
	strlcpy(tv->code, code, sizeof(tv->code));
	strlcpy(tv->message, message != NULL ? message : "",
	    sizeof(tv->message));
	tv->uncertain = interrupted;
	tv->rb_n = tv->rb_i = 0;
	tv->rb_fail[0] = '\0';
	log_warnx("tools: %s: %s (%s)%s", tv->req.te_volume, code,
	    tv->message, tv->filling ? ": rolling back" : "");
	if (tv->filling) {
		/* The same call found the names free, or ours: by name. */
		rb_add(tv, "/containers/%s-%s?force=1", tv->req.te_volume,
		    "fill");
		rb_add(tv, "/containers/%s-%s?force=1", tv->req.te_volume,
		    "check");
		rb_add(tv, "/volumes/%s%s", tv->req.te_volume, "");
	} else if (tv->cid[0] != '\0')
		rb_add(tv, "/containers/%s%s?force=1", tv->cid, "");
	else if (tv->rb_n == 0 && !interrupted) {
		reply(rq, tv, code, tv->message, 0, tv->exit_code);
		return DOCKER_DONE;
	}
	tv->rolling_back = 1;
	if (!tv->filling && tv->cid[0] == '\0') {
		/* interrupted, nothing of ours known: a one-shot may be late */
		reply(rq, tv, code, tv->message, interrupted, tv->exit_code);
		return DOCKER_DONE;
	}
	return rb_next(rq, tv, next);
}

static enum docker_next
rb_answer(struct docker_req *rq, struct tv *tv, const struct docker_parser *p,
    struct docker_call *next)
{
	char	 msg[96];

	if (tv->step == R_PAUSE)
		return rb_next(rq, tv, next);
	if (p->dp_status != 204 && p->dp_status != 404) {
		engine_message(p, msg, sizeof(msg));
		strlcat(tv->rb_fail, " ", sizeof(tv->rb_fail));
		strlcat(tv->rb_fail, tv->rb[tv->rb_i], sizeof(tv->rb_fail));
		log_warnx("tools: rollback: DELETE %s: %s", tv->rb[tv->rb_i],
		    msg);
	}
	tv->rb_i++;
	return rb_next(rq, tv, next);
}

/* --- the steps of ensure ---------------------------------------------- */

/* Step 2: one-shots of this key a killed worker left, by label. */
static void
take_stale(struct tv *tv, const struct docker_parser *p)
{
	json_t		*o, *e, *labels;
	const char	*ref;
	size_t		 i;

	tv->nstale = tv->istale = 0;
	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		ref = json_string_value(json_object_get(e, "Id"));
		if (!docker_plain_ref(ref) || tv->nstale >= TV_STALE_MAX ||
		    (tools_labels_check(labels, tv->req.te_owner,
		    TOOLS_ROLE_FILL, tv->key, NULL) != NULL &&
		    tools_labels_check(labels, tv->req.te_owner,
		    TOOLS_ROLE_CHECK, tv->key, NULL) != NULL))
			continue;
		strlcpy(tv->stale[tv->nstale++], ref, sizeof(tv->stale[0]));
	}
	json_decref(o);
}

void
tools_owner_filter(char *buf, size_t len, const char *owner)
{
	filter(buf, len, LABEL_ROLE, "tools", LABEL_OWNER, owner);
}

size_t
tools_prune_list(const struct docker_parser *p, const char *owner,
    const char *keep, char (*names)[SPACE_RESOURCE_MAX], size_t max)
{
	json_t		*o, *e;
	const char	*name;
	size_t		 i, n = 0;

	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;	/* pruning never fails the call */
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		name = json_string_value(json_object_get(e, "Name"));
		if (n >= max || !docker_plain_ref(name) ||
		    strcmp(name, keep) == 0 ||
		    tools_labels_check(json_object_get(e, "Labels"), owner,
		    TOOLS_ROLE_VOLUME, NULL, NULL) != NULL)
			continue;
		strlcpy(names[n++], name, sizeof(names[0]));
	}
	json_decref(o);
	return n;
}

static const char marker_mismatch[] = "the tools volume %s holds "
    "content that cannot be trusted, and spaces made with these tools "
    "still use it: apply or discard the work in those spaces and remove "
    "them, and the next call fills it again";

static enum docker_next
ensure_answer(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char		 msg[SPACE_DONE_MESSAGE_MAX], f[768];
	const char	*why = NULL;
	json_t		*o;

	switch (tv->step) {
	case S_WAIT:
		if (!turn_take(tv->req.te_volume, tv->peerid)) {
			/* Another ensure of this volume runs; ask again. */
			call(tv, next, "GET", TV_CAP, "/_ping");
			next->cl_delay_ms = TV_WAIT_POLL_MS;
			return DOCKER_CALL;
		}
		tv->holder = 1;
		/* Step 1: the volume, by its labels. */
		tv->step = S_VOL_GET;
		call(tv, next, "GET", TV_CAP, "/volumes/%s", tv->volume);
		return DOCKER_CALL;
	case S_VOL_GET:
		if (p->dp_status == 200) {
			o = answer_json(p);
			why = tools_labels_check(json_object_get(o, "Labels"),
			    tv->req.te_owner, TOOLS_ROLE_VOLUME, tv->key, NULL);
			json_decref(o);
			if (why != NULL) {
				snprintf(msg, sizeof(msg), "a volume named %s "
				    "exists and is not this owner's tools "
				    "volume of this key (%s): it is left alone",
				    tv->volume, why);
				reply(rq, tv, ERR_TOOLS_NOT_OURS, msg, 0, -1);
				return DOCKER_DONE;
			}
		} else if (p->dp_status != 404) {
			engine_message(p, msg, sizeof(msg));
			reply(rq, tv, ERR_DOCKER_FAILED, msg, 0, -1);
			return DOCKER_DONE;
		}
		tv->verdict = p->dp_status == 200 ? TOOLS_VERDICT_FILLED :
		    TOOLS_VERDICT_ABSENT;	/* present / absent, for now */
		/* Step 2: one-shots of this key a killed worker left. */
		tv->step = S_SWEEP;
		filter(f, sizeof(f), LABEL_TOOLS_KEY, tv->key, LABEL_OWNER,
		    tv->req.te_owner);
		call(tv, next, "GET", TV_LIST_CAP,
		    "/containers/json?all=1&filters=%s", f);
		return DOCKER_CALL;
	case S_SWEEP:
		take_stale(tv, p);
		tv->step = S_SWEEP_DEL;
		goto sweep;
	case S_SWEEP_DEL:
		/* Refused or gone: the create's name check tells. */
		tv->istale++;
 sweep:
		if (tv->istale < tv->nstale) {
			call(tv, next, "DELETE", TV_CAP,
			    "/containers/%s?force=1", tv->stale[tv->istale]);
			return DOCKER_CALL;
		}
		/* Step 3 or 4. */
		if (tv->verdict == TOOLS_VERDICT_FILLED)
			return os_begin(rq, tv, PH_CHECK, next);
		goto fill;
	case S_VOL_DEL:
		if (p->dp_status == 409) {
			if (snprintf(msg, sizeof(msg), marker_mismatch,
			    tv->volume) < 0)
				msg[0] = '\0';
			reply(rq, tv, ERR_TOOLS_MARKER, msg, 0, -1);
			return DOCKER_DONE;
		}
		if (p->dp_status != 204 && p->dp_status != 404) {
			engine_message(p, msg, sizeof(msg));
			reply(rq, tv, ERR_DOCKER_FAILED, msg, 0, -1);
			return DOCKER_DONE;
		}
 fill:
		/* From here on a failure removes what this call made. */
		tv->filling = 1;
		params(tv, TOOLS_ROLE_VOLUME);
		tv->step = S_VOL_CREATE;
		call(tv, next, "POST", TV_CAP, "/volumes/create");
		if ((next->cl_body = harden_tools_volume_create(&tv->tp,
		    &why)) == NULL)
			return tv_fail(rq, tv, ERR_INTERNAL, why, 0, next);
		return DOCKER_CALL;
	case S_VOL_CREATE:
		if (p->dp_status != 201) {
			engine_message(p, msg, sizeof(msg));
			return tv_fail(rq, tv, ERR_DOCKER_FAILED, msg, 0, next);
		}
		/* An existing name answers 201 too, with its own labels. */
		o = answer_json(p);
		why = tools_labels_check(json_object_get(o, "Labels"),
		    tv->req.te_owner, TOOLS_ROLE_VOLUME, tv->key, NULL);
		json_decref(o);
		if (why != NULL) {
			tv->filling = 0;
			snprintf(msg, sizeof(msg), "a volume named %s appeared "
			    "and is not ours (%s): it is left alone",
			    tv->volume, why);
			reply(rq, tv, ERR_TOOLS_NOT_OURS, msg, 0, -1);
			return DOCKER_DONE;
		}
		return os_begin(rq, tv, PH_FILL, next);
	case S_PRUNE:
		/* Step 5: this owner's tools volumes but this one. */
		tv->nstale = tools_prune_list(p, tv->req.te_owner, tv->volume,
		    tv->stale, TV_STALE_MAX);
		tv->istale = 0;
		tv->step = S_PRUNE_DEL;
		if (tv->istale < tv->nstale) {
			call(tv, next, "DELETE", TV_CAP, "/volumes/%s",
			    tv->stale[tv->istale]);
			return DOCKER_CALL;
		}
		break;
	case S_PRUNE_DEL:
		/* 409: a space still mounts it, and it stays. */
		if (p->dp_status == 204) {
			tv->pruned++;
			log_info("tools: pruned %s", tv->stale[tv->istale]);
		}
		if (++tv->istale < tv->nstale) {
			call(tv, next, "DELETE", TV_CAP, "/volumes/%s",
			    tv->stale[tv->istale]);
			return DOCKER_CALL;
		}
		break;
	default:
		fatalx("%s: step %d", __func__, tv->step);
	}
	reply(rq, tv, "", NULL, 0, -1);
	return DOCKER_DONE;
}

/* --- list: the owner's volumes, the spaces mounting each, their state - */

static int
vol_cmp(const void *a, const void *b)
{
	const struct tv_vol	*x = a, *y = b;

	return strcmp(x->vi.tv_name, y->vi.tv_name);
}

static void
take_volumes(struct tv *tv, const struct docker_parser *p)
{
	json_t		*o, *e, *labels;
	const char	*name, *s;
	struct tv_vol	*v;
	char		 key[TOOLS_LABEL_KEY_LEN + 1];
	size_t		 i;

	if ((o = json_loadb((const char *)p->dp_body, p->dp_body_len,
	    JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		name = json_string_value(json_object_get(e, "Name"));
		labels = json_object_get(e, "Labels");
		if (!docker_plain_ref(name) || strlen(name) >= TOOLS_MSG_VOLUME_MAX ||
		    tv->nvols >= TV_VOLUMES_MAX ||
		    tools_labels_check(labels, tv->req.te_owner,
		    TOOLS_ROLE_VOLUME, NULL, key) != NULL)
			continue;
		if ((v = reallocarray(tv->vols, tv->nvols + 1,
		    sizeof(*v))) == NULL)
			fatal("%s", __func__);
		tv->vols = v;
		v = &tv->vols[tv->nvols++];
		memset(v, 0, sizeof(*v));
		strlcpy(v->vi.tv_name, name, sizeof(v->vi.tv_name));
		strlcpy(v->vi.tv_key, key, sizeof(v->vi.tv_key));
		s = json_string_value(json_object_get(labels,
		    LABEL_TOOLS_DESC));
		if (s != NULL && strlen(s) < sizeof(v->vi.tv_description))
			strlcpy(v->vi.tv_description, s,
			    sizeof(v->vi.tv_description));
		s = json_string_value(json_object_get(labels, LABEL_CREATED));
		if (s != NULL && space_created_valid(s))
			strlcpy(v->vi.tv_created, s, sizeof(v->vi.tv_created));
		v->vi.tv_state = TOOLS_STATE_UNKNOWN;
	}
	json_decref(o);
	if (tv->nvols > 0)
		qsort(tv->vols, tv->nvols, sizeof(*tv->vols), vol_cmp);
}

/* Spaces (label spaced.space.id) that mount a volume at the tools dir. */
static void
take_mounts(struct tv *tv, const struct docker_parser *p)
{
	json_t		*o, *e, *m, *labels;
	const char	*id, *name, *dst;
	struct tools_volume_info *vi;
	size_t		 i, j, k;

	if ((o = json_loadb((const char *)p->dp_body, p->dp_body_len,
	    JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		if (space_labels_check(labels, tv->req.te_owner, NULL,
		    ROLE_SPACE) != NULL)
			continue;
		id = json_string_value(json_object_get(labels, LABEL_ID));
		json_array_foreach(json_object_get(e, "Mounts"), j, m) {
			name = json_string_value(json_object_get(m, "Name"));
			dst = json_string_value(json_object_get(m,
			    "Destination"));
			if (name == NULL || dst == NULL ||
			    strcmp(dst, TOOLS_DIR) != 0)
				continue;
			for (k = 0; k < tv->nvols; k++) {
				vi = &tv->vols[k].vi;
				if (strcmp(vi->tv_name, name) != 0)
					continue;
				if (vi->tv_nmounts < TOOLS_MOUNTS_MAX)
					strlcpy(vi->tv_mounts[vi->tv_nmounts++],
					    id, sizeof(vi->tv_mounts[0]));
				else
					vi->tv_more = 1;
			}
		}
	}
	json_decref(o);
}

static enum docker_next
list_next(struct docker_req *rq, struct tv *tv, struct docker_call *next)
{
	struct tv_vol	*v;

	if (tv->ivol > 0 && tv->ivol <= tv->nvols) {
		v = &tv->vols[tv->ivol - 1];
		docker_req_record(rq, IMSG_TOOLS_VOLUME, &v->vi,
		    sizeof(v->vi));
	}
	while (tv->ivol < tv->nvols) {
		v = &tv->vols[tv->ivol];
		strlcpy(tv->volume, v->vi.tv_name, sizeof(tv->volume));
		strlcpy(tv->key, v->vi.tv_key, sizeof(tv->key));
		strlcpy(tv->desc, v->vi.tv_description, sizeof(tv->desc));
		/* A volume an ensure works on now is not read now. */
		if (turn_take(tv->volume, tv->peerid))
			return os_begin(rq, tv, PH_LIST, next);
		v->vi.tv_state = TOOLS_STATE_UNKNOWN;
		docker_req_record(rq, IMSG_TOOLS_VOLUME, &v->vi,
		    sizeof(v->vi));
		tv->ivol++;
	}
	reply(rq, tv, "", NULL, 0, -1);
	return DOCKER_DONE;
}

static enum docker_next
list_answer(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	char	 f[768];

	if (p->dp_status != 200) {
		reply(rq, tv, ERR_DOCKER_FAILED, "listing the tools volumes",
		    0, -1);
		return DOCKER_DONE;
	}
	if (tv->step == L_VOLS) {
		take_volumes(tv, p);
		tv->step = L_CTRS;
		filter(f, sizeof(f), LABEL_OWNER, tv->req.te_owner, NULL, NULL);
		call(tv, next, "GET", TV_LIST_CAP,
		    "/containers/json?all=1&filters=%s", f);
		return DOCKER_CALL;
	}
	take_mounts(tv, p);
	tv->ivol = 0;
	return list_next(rq, tv, next);
}

/* --- the op table's functions ----------------------------------------- */

static enum docker_next
tv_version(struct docker_req *rq, struct tv *tv,
    const struct docker_parser *p, struct docker_call *next)
{
	struct docker_check_msg	 dc;
	const char		*code;
	char			 use[16], f[768];

	if (p->dp_status != 200) {
		reply(rq, tv, ERR_DOCKER_UNREADABLE, "GET /version failed", 0,
		    -1);
		return DOCKER_DONE;
	}
	if (tv->api[0] == '\0') {
		if ((code = docker_version_parse(p->dp_body, p->dp_body_len,
		    &dc)) != NULL || (code = docker_api_negotiate(
		    dc.dc_api_version, dc.dc_min_api_version, use,
		    sizeof(use))) != NULL) {
			reply(rq, tv, code, "the engine cannot be driven", 0,
			    -1);
			return DOCKER_DONE;
		}
		snprintf(tv->api, sizeof(tv->api), "/v%s", use);
		docker_api_remember(tv->api);
	}
	if (tv->op == IMSG_TOOLS_LIST_REQ) {
		tv->step = L_VOLS;
		filter(f, sizeof(f), LABEL_ROLE, "tools", LABEL_OWNER,
		    tv->req.te_owner);
		call(tv, next, "GET", TV_LIST_CAP, "/volumes?filters=%s", f);
		return DOCKER_CALL;
	}
	tv->step = S_WAIT;
	return ensure_answer(rq, tv, p, next);
}

static enum docker_next
tv_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct tv		*tv = docker_req_state(rq);
	enum docker_next	 nx;

	if (tv->step != O_STREAM)
		docker_req_deadline(rq, TV_STEP_MS);
	if (tv->step == S_VERSION)
		nx = tv_version(rq, tv, p, next);
	else if (tv->step == R_DEL || tv->step == R_PAUSE)
		nx = rb_answer(rq, tv, p, next);
	else if (tv->step >= O_CREATE && tv->step <= O_DEL)
		nx = os_answer(rq, tv, p, next);
	else if (tv->step == L_VOLS || tv->step == L_CTRS)
		nx = list_answer(rq, tv, p, next);
	else
		nx = ensure_answer(rq, tv, p, next);
	(void)status_ok;
	return nx;
}

static enum docker_next
tv_op_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

	return tv_fail(rq, tv, code, NULL, interrupted, next);
}

/* The client left, or spaced's deadline passed: undo what a fill made. */
static enum docker_next
tv_cancel(struct docker_req *rq, struct docker_call *next)
{
	struct tv	*tv = docker_req_state(rq);

	if (tv->rolling_back)
		return DOCKER_WAIT;
	if (!tv->filling && tv->cid[0] == '\0') {
		reply(rq, tv, ERR_CANCELLED, NULL, 0, -1);
		return DOCKER_DONE;
	}
	return tv_fail(rq, tv, ERR_CANCELLED, "the client left", 1, next) ==
	    DOCKER_CALL ? DOCKER_CALL_NEW : DOCKER_DONE;
}

static void
tv_free(void *state)
{
	struct tv	*tv = state;
	size_t		 i;

	/* tv_start may have refused it before it was listed. */
	if (tv->peerid != 0)
		TAILQ_REMOVE(&tvs, tv, entry);
	if (tv->holder)
		turn_release(tv->req.te_volume, tv->peerid);
	if (tv->op == IMSG_TOOLS_LIST_REQ && tv->volume[0] != '\0')
		turn_release(tv->volume, tv->peerid);
	for (i = 0; i < TOOLS_MSG_FILES_MAX; i++)
		if (tv->files[i].f_fd != -1 && i < tv->nfiles)
			close(tv->files[i].f_fd);
	free(tv->vols);
}

/* --- the stream child: stdin in, output frames counted and kept ------- */

struct tx {
	struct tx_in		 in;
	struct frame_reader	 fr;
	int			 begun;
	size_t			 fi;		/* the file being written */
	uint64_t		 foff;
	int			 shut;
	struct tx_result	 res;
	size_t			 err_len;
};

static int
tx_start(struct docker_req *rq, const void *data, size_t len,
    struct docker_call *cl)
{
	struct tx	*tx = docker_req_state(rq);

	memcpy(&tx->in, data, sizeof(tx->in));
	frame_reader_init(&tx->fr);
	docker_req_deadline(rq, tx->in.xi_timeout_ms);
	docker_call_fmt(cl, tx->in.xi_api, "POST", TV_CAP, "/exec/%s/start",
	    tx->in.xi_exec);
	cl->cl_body = json_pack("{s:b, s:b}", "Detach", 0, "Tty", 0);
	cl->cl_upgrade = 1;
	return 0;
}

static void
tx_reply(struct docker_req *rq, struct tx *tx, const char *code,
    int interrupted)
{
	strlcpy(tx->res.xr_code, code, sizeof(tx->res.xr_code));
	tx->res.xr_interrupted = interrupted;
	docker_req_reply(rq, &tx->res, sizeof(tx->res));
}

static enum docker_next
tx_answer(struct docker_req *rq, const struct docker_parser *p,
    struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	if (p->dp_status != 101 || !p->dp_upgraded) {
		tx_reply(rq, tx, ERR_DOCKER_FAILED, 0);
		return DOCKER_DONE;
	}
	return DOCKER_STREAM;
}

/* stdin: the prefix, then each file from its fd, a window at a time. */
static int
tx_pump(struct docker_req *rq, struct tx *tx)
{
	uint8_t		 buf[TV_CHUNK];
	uint64_t	 want;
	ssize_t		 n;

	if (!tx->begun) {
		tx->begun = 1;
		if (tx->in.xi_prefix_len > 0)
			docker_req_stream_write(rq, tx->in.xi_prefix,
			    tx->in.xi_prefix_len);
	}
	while (tx->fi < tx->in.xi_nfds &&
	    docker_req_stream_queued(rq) < TV_QUEUE_HIWAT) {
		want = tx->in.xi_sizes[tx->fi] - tx->foff;
		if (want == 0) {
			tx->fi++;
			tx->foff = 0;
			continue;
		}
		if (want > sizeof(buf))
			want = sizeof(buf);
		n = pread(tx->in.xi_fds[tx->fi], buf, want, (off_t)tx->foff);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			log_warn("tools: reading a file from spaced");
			docker_req_stream_fail(rq, ERR_INTERNAL);
			return 0;
		}
		docker_req_stream_write(rq, buf, n);
		tx->foff += (uint64_t)n;
	}
	if (tx->fi >= tx->in.xi_nfds && !tx->shut) {
		tx->shut = 1;
		docker_req_stream_shutdown(rq);
	}
	return 1;
}

static void
tx_keep_err(struct tx *tx, const uint8_t *data, size_t len)
{
	size_t	 i;
	char	 c;

	/* The last TV_ERR_TAIL printable bytes, for the error's message. */
	for (i = 0; i < len; i++) {
		c = (char)data[i];
		if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			c = '?';
		if (tx->err_len == TV_ERR_TAIL) {
			memmove(tx->res.xr_err, tx->res.xr_err + 1,
			    TV_ERR_TAIL - 1);
			tx->err_len--;
		}
		tx->res.xr_err[tx->err_len++] = c;
		tx->res.xr_err[tx->err_len] = '\0';
	}
}

static int
tx_read(struct docker_req *rq, struct evbuffer *in)
{
	struct tx		*tx = docker_req_state(rq);
	struct evbuffer_iovec	 v;
	const uint8_t		*data;
	size_t			 used, dlen, room;
	uint8_t			 type;
	int			 rv;

	if (!tx->begun && !tx_pump(rq, tx))
		return 0;
	while (evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		rv = frame_feed(&tx->fr, v.iov_base, v.iov_len, &used, &type,
		    &data, &dlen);
		if (rv == -1) {
			log_warnx("tools: %s", tx->fr.fr_errstr);
			docker_req_stream_fail(rq, ERR_DOCKER_UNREADABLE);
			return 0;
		}
		if (rv == 1) {
			tx->res.xr_total += dlen;
			/* The spec's output cap of a fill: 16 MB. */
			if (tx->res.xr_total > TV_OUTPUT_MAX) {
				docker_req_stream_fail(rq,
				    ERR_OUTPUT_TOO_LARGE);
				return 0;
			}
			if (type == FRAME_STDOUT) {
				room = sizeof(tx->res.xr_out) -
				    tx->res.xr_out_len;
				if (dlen > room)
					tx->res.xr_truncated = 1;
				memcpy(tx->res.xr_out + tx->res.xr_out_len,
				    data, dlen < room ? dlen : room);
				tx->res.xr_out_len += dlen < room ? dlen : room;
			} else
				tx_keep_err(tx, data, dlen);
		}
		evbuffer_drain(in, used);
	}
	return 1;
}

static void
tx_drained(struct docker_req *rq)
{
	struct tx	*tx = docker_req_state(rq);

	if (tx->begun)
		(void)tx_pump(rq, tx);
}

static enum docker_next
tx_stream_end(struct docker_req *rq, int error, struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	/* Output cut short is no answer: never read as a marker. */
	if (error != 0 || !frame_at_boundary(&tx->fr)) {
		tx_reply(rq, tx, ERR_DOCKER_UNREADABLE, 1);
		return DOCKER_DONE;
	}
	tx_reply(rq, tx, "", 0);
	return DOCKER_DONE;
}

static enum docker_next
tx_fail(struct docker_req *rq, const char *code, int interrupted,
    struct docker_call *next)
{
	struct tx	*tx = docker_req_state(rq);

	tx_reply(rq, tx, code, interrupted);
	return DOCKER_DONE;
}

static void
tx_free(void *state)
{
	struct tx	*tx = state;
	size_t		 i;

	free(tx->in.xi_prefix);
	for (i = 0; i < tx->in.xi_nfds; i++)
		close(tx->in.xi_fds[i]);
}

static const struct docker_op tools_stream_op = {
	.op_name = "tools-stream",
	.op_len = sizeof(struct tx_in),
	.op_timeout_ms = TV_FILL_MS,
	.op_state_size = sizeof(struct tx),
	.op_start = tx_start,
	.op_answer = tx_answer,
	.op_fail = tx_fail,
	.op_free = tx_free,
	.op_stream_read = tx_read,
	.op_stream_end = tx_stream_end,
	.op_stream_drained = tx_drained,
};

const struct docker_op docker_toolsvol_ops[] = {
	{
		.op_name = "tools-ensure",
		.op_req = IMSG_TOOLS_ENSURE_REQ,
		.op_rep = IMSG_TOOLS_DONE,
		.op_len = sizeof(struct tools_ensure_req),
		.op_fd = 1,
		.op_timeout_ms = TV_STEP_MS,
		.op_state_size = sizeof(struct tv),
		.op_start = tv_start,
		.op_answer = tv_answer,
		.op_fail = tv_op_fail,
		.op_free = tv_free,
		.op_child = tv_child,
		.op_cancel = tv_cancel,
		.op_cleanup_ms = 30000,
	},
	{
		.op_name = "tools-list",
		.op_req = IMSG_TOOLS_LIST_REQ,
		.op_rep = IMSG_TOOLS_DONE,
		.op_len = sizeof(struct tools_ensure_req),
		.op_fd = 1,
		.op_timeout_ms = TV_STEP_MS,
		.op_state_size = sizeof(struct tv),
		.op_start = tv_start,
		.op_answer = tv_answer,
		.op_fail = tv_op_fail,
		.op_free = tv_free,
		.op_child = tv_child,
		.op_cancel = tv_cancel,
		.op_cleanup_ms = 30000,
	},
};
const size_t docker_toolsvol_nops = sizeof(docker_toolsvol_ops) /
    sizeof(docker_toolsvol_ops[0]);
