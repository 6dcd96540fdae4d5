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
 * The control socket.  Every local user may connect; SO_PEERCRED says
 * who they are, and that uid scopes every answer.  A request is one
 * message with a fixed payload; a client that sends anything else gets
 * an error code and is closed, and spaced goes on serving the others.
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "spaced.h"

#define CTL_MAX_CONNS		64
#define CTL_MAX_CONNS_PER_UID	8
#define CTL_IDLE_SECONDS	30
/* The largest request payload; anything longer is refused unread. */
#define CTL_MAX_REQUEST		64

/*
 * Who may see and change everything: root, and the user spaced runs as
 * (a plain user's own spaced on a laptop is theirs to audit).
 */
#define CTL_ADMIN(cc)	((cc)->cc_uid == 0 || (cc)->cc_uid == geteuid())

struct ctl_conn {
	TAILQ_ENTRY(ctl_conn)	 cc_entry;
	uint32_t		 cc_id;
	uid_t			 cc_uid;
	pid_t			 cc_pid;
	int			 cc_busy;	/* waiting for a worker */
	int			 cc_closing;	/* close once flushed */
	struct imsgev		 cc_iev;
	struct event		 cc_idle;
};

static TAILQ_HEAD(, ctl_conn) ctl_conns = TAILQ_HEAD_INITIALIZER(ctl_conns);
static struct event_base	*ctl_base;
static struct event		 ctl_ev_accept;
static struct event		 ctl_ev_pause;
static int			 ctl_fd = -1;
static char			 ctl_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
static uint32_t			 ctl_next_id = 1;
static size_t			 ctl_count;

static void	control_accept(int, short, void *);
static void	control_dispatch(int, short, void *);
static void	control_free(struct ctl_conn *);

void
control_listen(const char *path, struct event_base *base)
{
	struct sockaddr_un	 sun;
	struct stat		 sb;
	int			 probe;

	ctl_base = base;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		fatalx("control socket path too long: %s", path);
	strlcpy(ctl_path, path, sizeof(ctl_path));

	/* A socket left by a dead spaced is removed; a live one is not. */
	if (lstat(path, &sb) == 0) {
		if (!S_ISSOCK(sb.st_mode))
			fatalx("%s exists and is not a socket", path);
		if ((probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0))
		    == -1)
			fatal("socket");
		if (connect(probe, (struct sockaddr *)&sun, sizeof(sun)) == 0)
			fatalx("%s: another spaced is running", path);
		close(probe);
		if (unlink(path) == -1)
			fatal("unlink %s", path);
	}
	if ((ctl_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1)
		fatal("socket");
	if (bind(ctl_fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("bind %s", path);
	/*
	 * Every user may connect: the peer's uid scopes what it sees, and
	 * what needs root checks for root (STYLE.md 21).
	 */
	if (chmod(path, 0666) == -1)
		fatal("chmod %s", path);
	if (listen(ctl_fd, 16) == -1)
		fatal("listen");
	event_set(&ctl_ev_accept, ctl_fd, EV_READ | EV_PERSIST,
	    control_accept, NULL);
	event_base_set(base, &ctl_ev_accept);
	event_add(&ctl_ev_accept, NULL);
	evtimer_set(&ctl_ev_pause, control_accept, NULL);
	event_base_set(base, &ctl_ev_pause);
	log_info("listening on %s", path);
}

void
control_close(void)
{
	if (ctl_fd == -1)
		return;
	close(ctl_fd);
	ctl_fd = -1;
	(void)unlink(ctl_path);
}

static void
control_idle(int fd, short event, void *arg)
{
	control_free(arg);
}

static void
control_arm_idle(struct ctl_conn *cc)
{
	struct timeval	 tv = { CTL_IDLE_SECONDS, 0 };

	evtimer_add(&cc->cc_idle, &tv);
}

static void
control_accept(int fd, short event, void *arg)
{
	struct timeval	 pause = { 1, 0 };
	struct ucred	 cred;
	socklen_t	 len = sizeof(cred);
	struct ctl_conn	*cc, *o;
	size_t		 same_uid = 0;
	int		 s;

	if (event & EV_TIMEOUT) {	/* the pause after EMFILE is over */
		event_add(&ctl_ev_accept, NULL);
		return;
	}
	if ((s = accept4(ctl_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC))
	    == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			/* Back off instead of spinning on a full table. */
			event_del(&ctl_ev_accept);
			evtimer_add(&ctl_ev_pause, &pause);
		} else if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("accept");
		return;
	}
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1) {
		log_warn("SO_PEERCRED");
		close(s);
		return;
	}
	TAILQ_FOREACH(o, &ctl_conns, cc_entry)
		if (o->cc_uid == cred.uid)
			same_uid++;
	if (ctl_count >= CTL_MAX_CONNS ||
	    same_uid >= CTL_MAX_CONNS_PER_UID) {
		log_warnx("control: uid %u: too many connections",
		    (unsigned)cred.uid);
		close(s);
		return;
	}
	if ((cc = calloc(1, sizeof(*cc))) == NULL) {
		log_warn("calloc");
		close(s);
		return;
	}
	cc->cc_id = ctl_next_id++;
	if (ctl_next_id == 0)
		ctl_next_id = 1;
	cc->cc_uid = cred.uid;
	cc->cc_pid = cred.pid;
	imsgev_init(&cc->cc_iev, ctl_base, s, control_dispatch, cc);
	imsgbuf_set_maxsize(&cc->cc_iev.ibuf, IMSG_HEADER_SIZE +
	    CTL_MAX_REQUEST);
	evtimer_set(&cc->cc_idle, control_idle, cc);
	event_base_set(ctl_base, &cc->cc_idle);
	control_arm_idle(cc);
	imsg_event_add(&cc->cc_iev);
	TAILQ_INSERT_TAIL(&ctl_conns, cc, cc_entry);
	ctl_count++;
	log_debug("control: connection %u from uid %u pid %d", cc->cc_id,
	    (unsigned)cc->cc_uid, (int)cc->cc_pid);
}

static struct ctl_conn *
control_find(uint32_t id)
{
	struct ctl_conn	*cc;

	TAILQ_FOREACH(cc, &ctl_conns, cc_entry)
		if (cc->cc_id == id)
			return cc;
	return NULL;
}

static void
control_free(struct ctl_conn *cc)
{
	TAILQ_REMOVE(&ctl_conns, cc, cc_entry);
	ctl_count--;
	event_del(&cc->cc_iev.ev);
	evtimer_del(&cc->cc_idle);
	imsgbuf_clear(&cc->cc_iev.ibuf);
	close(cc->cc_iev.ibuf.fd);
	free(cc);
}

/* Send what is queued, then close: an error's last word. */
static void
control_fail_close(struct ctl_conn *cc, const char *code)
{
	struct ctl_fail	 cf;

	memset(&cf, 0, sizeof(cf));
	strlcpy(cf.cf_code, code, sizeof(cf.cf_code));
	imsg_compose_event(&cc->cc_iev, IMSG_CTL_FAIL, cc->cc_id, 0, -1, &cf,
	    sizeof(cf));
	cc->cc_closing = 1;
}

void
control_answer(uint32_t peerid, uint32_t type, const void *data, size_t len)
{
	struct ctl_conn	*cc;

	if ((cc = control_find(peerid)) == NULL)
		return;		/* the client left meanwhile */
	imsg_compose_event(&cc->cc_iev, type, peerid, 0, -1, data, len);
}

void
control_end(uint32_t peerid)
{
	struct ctl_conn	*cc;

	if ((cc = control_find(peerid)) == NULL)
		return;
	cc->cc_busy = 0;
	imsg_compose_event(&cc->cc_iev, IMSG_CTL_END, peerid, 0, -1, NULL, 0);
}

void
control_fail(uint32_t peerid, const char *code)
{
	struct ctl_fail	 cf;
	struct ctl_conn	*cc;

	if ((cc = control_find(peerid)) == NULL)
		return;
	cc->cc_busy = 0;
	memset(&cf, 0, sizeof(cf));
	strlcpy(cf.cf_code, code, sizeof(cf.cf_code));
	imsg_compose_event(&cc->cc_iev, IMSG_CTL_FAIL, peerid, 0, -1, &cf,
	    sizeof(cf));
}

static void
control_status(struct ctl_conn *cc)
{
	struct ctl_proc	 cp;
	enum procid	 id;

	for (id = 0; id < PROC_MAX; id++) {
		if (id == PROC_GATEKEEPER)
			continue;	/* runs in containers, not here */
		memset(&cp, 0, sizeof(cp));
		strlcpy(cp.cp_name, procs[id].p_binary, sizeof(cp.cp_name));
		if (id == PROC_PARENT) {
			strlcpy(cp.cp_state, "running", sizeof(cp.cp_state));
			cp.cp_pid = getpid();
		} else {
			strlcpy(cp.cp_state, children[id].c_ready ? "running" :
			    "starting", sizeof(cp.cp_state));
			cp.cp_pid = children[id].c_pid;
		}
		/* Which pid is which is the operator's business. */
		if (!CTL_ADMIN(cc))
			cp.cp_pid = 0;
		control_answer(cc->cc_id, IMSG_CTL_DATA, &cp, sizeof(cp));
	}
	control_end(cc->cc_id);
}

static void
control_privileges(struct ctl_conn *cc)
{
	struct ctl_privileges	 cv;
	enum procid		 id;

	for (id = 0; id < PROC_MAX; id++) {
		if (id == PROC_GATEKEEPER)
			continue;
		if (id == PROC_PARENT) {
			if (audit_process(procs[id].p_binary, getpid(),
			    "not used", &cv) == -1)
				continue;
		} else if (children[id].c_pid == 0 ||
		    audit_process(procs[id].p_binary, children[id].c_pid,
		    children[id].c_landlock, &cv) == -1)
			continue;
		control_answer(cc->cc_id, IMSG_CTL_DATA, &cv, sizeof(cv));
	}
	control_end(cc->cc_id);
}

static void
control_check(struct ctl_conn *cc)
{
	struct docker_check_msg	 dc;
	int			 s;

	if ((s = docker_connect()) == -1) {
		memset(&dc, 0, sizeof(dc));
		strlcpy(dc.dc_code, ERR_DOCKER_UNREACHABLE, sizeof(dc.dc_code));
		control_answer(cc->cc_id, IMSG_CTL_DATA, &dc, sizeof(dc));
		control_end(cc->cc_id);
		return;
	}
	if (worker_compose(PROC_DOCKER, IMSG_DOCKER_CHECK_REQ, cc->cc_id, s,
	    NULL, 0) == -1) {
		control_fail(cc->cc_id, ERR_WORKER_UNAVAILABLE);
		return;
	}
	cc->cc_busy = 1;
}

static void
control_probe(struct ctl_conn *cc, struct imsg *imsg)
{
	struct probe_msg	 pm;

	if (imsg_get_data(imsg, &pm, sizeof(pm)) == -1) {
		control_fail_close(cc, ERR_BAD_REQUEST);
		return;
	}
	if ((pm.pr_proc != PROC_DOCKER && pm.pr_proc != PROC_GIT &&
	    pm.pr_proc != PROC_JOURNAL) || pm.pr_call < PROBE_EXECVE ||
	    pm.pr_call > PROBE_FORK) {
		control_fail(cc->cc_id, ERR_BAD_REQUEST);
		return;
	}
	log_warnx("control: uid %u probes %s with call %u",
	    (unsigned)cc->cc_uid, proc_title(pm.pr_proc), pm.pr_call);
	if (worker_compose(pm.pr_proc, IMSG_WORKER_PROBE, cc->cc_id, -1, &pm,
	    sizeof(pm)) == -1) {
		control_fail(cc->cc_id, ERR_WORKER_UNAVAILABLE);
		return;
	}
	cc->cc_busy = 1;
}

static void
control_ping(struct ctl_conn *cc, struct imsg *imsg)
{
	struct ping_msg	 pg;

	if (imsg_get_data(imsg, &pg, sizeof(pg)) == -1) {
		control_fail_close(cc, ERR_BAD_REQUEST);
		return;
	}
	if (pg.pg_proc != PROC_DOCKER && pg.pg_proc != PROC_GIT &&
	    pg.pg_proc != PROC_JOURNAL) {
		control_fail(cc->cc_id, ERR_BAD_REQUEST);
		return;
	}
	if (worker_compose(pg.pg_proc, IMSG_WORKER_PING, cc->cc_id, -1, NULL,
	    0) == -1) {
		control_fail(cc->cc_id, ERR_WORKER_UNAVAILABLE);
		return;
	}
	cc->cc_busy = 1;
}

static void
control_request(struct ctl_conn *cc, struct imsg *imsg)
{
	struct ctl_verbose	 cv;
	struct stream_test_msg	 tm;
	const char		*code;
	uint32_t		 type = imsg_get_type(imsg);

	if ((imsg_get_peerid(imsg) & 0xff) != CTL_PROTO_VERSION) {
		control_fail_close(cc, ERR_PROTOCOL_VERSION);
		return;
	}
	if (cc->cc_busy) {
		control_fail(cc->cc_id, ERR_BUSY);
		cc->cc_busy = 1;	/* the first answer is still due */
		return;
	}
	switch (type) {
	case IMSG_CTL_STATUS:
		if (imsg_get_len(imsg) != 0)
			goto bad;
		control_status(cc);
		break;
	case IMSG_CTL_PRIVILEGES:
		if (imsg_get_len(imsg) != 0)
			goto bad;
		if (!CTL_ADMIN(cc))
			goto badcred;
		control_privileges(cc);
		break;
	case IMSG_CTL_CHECK:
		if (imsg_get_len(imsg) != 0)
			goto bad;
		control_check(cc);
		break;
	case IMSG_CTL_VERBOSE:
		if (imsg_get_data(imsg, &cv, sizeof(cv)) == -1)
			goto bad;
		if (!CTL_ADMIN(cc))
			goto badcred;
		log_setverbose(cv.cv_level);
		control_end(cc->cc_id);
		break;
	case IMSG_CTL_PROBE:
		if (!CTL_ADMIN(cc))
			goto badcred;
		control_probe(cc, imsg);
		break;
	case IMSG_CTL_STREAM_TEST:
		if (imsg_get_data(imsg, &tm, sizeof(tm)) == -1)
			goto bad;
		if (!CTL_ADMIN(cc))
			goto badcred;
		if ((code = relay_stream_test(cc->cc_id, &tm)) != NULL)
			control_fail(cc->cc_id, code);
		else
			cc->cc_busy = 1;
		break;
	case IMSG_CTL_PING:
		if (!CTL_ADMIN(cc))
			goto badcred;
		control_ping(cc, imsg);
		break;
	default:
		control_fail(cc->cc_id, ERR_UNKNOWN_REQUEST);
		break;
	}
	return;
 bad:
	control_fail_close(cc, ERR_BAD_REQUEST);
	return;
 badcred:
	control_fail(cc->cc_id, ERR_PERMISSION_DENIED);
}

static void
control_dispatch(int fd, short event, void *arg)
{
	struct imsgev	*iev = arg;
	struct ctl_conn	*cc = iev->data;
	struct imsg	 imsg;
	int		 n;

	if (imsgev_handle(&cc->cc_iev, event) == -1) {
		control_free(cc);
		return;
	}
	if (cc->cc_closing) {
		if (imsgbuf_queuelen(&cc->cc_iev.ibuf) == 0) {
			control_free(cc);
			return;
		}
		imsg_event_add(&cc->cc_iev);
		return;
	}
	control_arm_idle(cc);
	for (;;) {
		if ((n = imsgbuf_get(&cc->cc_iev.ibuf, &imsg)) == -1) {
			control_fail_close(cc, errno == ERANGE ?
			    ERR_REQUEST_TOO_LARGE : ERR_BAD_REQUEST);
			break;
		}
		if (n == 0)
			break;
		control_request(cc, &imsg);
		imsg_free(&imsg);
		if (cc->cc_closing)
			break;
	}
	imsg_event_add(&cc->cc_iev);
}
