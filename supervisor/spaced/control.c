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
 * The control socket.  SO_PEERCRED says who a client is, and that uid
 * scopes every answer.  A request is one message with a fixed payload,
 * looked up in the operations table spaced.c hands over (ops.c's);
 * anything else gets an error code and the client is closed.  What
 * spaced holds for a client is bounded (CTL_OUT_SOFT, CTL_OUT_HARD,
 * the streams' credit window).
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <event.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "spaced.h"

/*
 * One spacectl is one connection: a user with ten creates and a few
 * execs in flight needs more than a handful, one user never all.  The
 * last CTL_RESERVED are root's and spaced's own user's, so plain users
 * together cannot lock the administrator out.
 */
#define CTL_MAX_CONNS		128
#define CTL_MAX_CONNS_PER_UID	32
#define CTL_RESERVED		16
#define CTL_IDLE_SECONDS	30
/* The largest request payload; anything longer is refused unread. */
#define CTL_MAX_REQUEST		sizeof(struct ctl_exec)
_Static_assert(sizeof(struct ctl_space) <= CTL_MAX_REQUEST,
    "a space request must fit the control channel's cap");
/* A client's stdin chunks (spacectl exec) fit it too: 8 KiB at most. */
_Static_assert(CTL_MAX_REQUEST >= 8192, "stdin chunks must fit");
/* Supplementary groups read from a peer before we give up on them. */
#define CTL_GROUPS_MAX		4096
/*
 * Soft: a few status answers' worth; past it we stop reading requests.
 * Hard: what pending answers and one stream window can reach with the
 * client not reading (CTL_MAX_PENDING answers of a few KiB, plus 1 MiB
 * of stream); only a client that ignores every limit gets there.
 */
#define CTL_OUT_SOFT		(64 * 1024)
#define CTL_OUT_HARD		(4 * 1024 * 1024)
/* A closing client that does not take its last word is let go after. */
#define CTL_LINGER_SECONDS	5

/* The control socket's state: one struct, as relayd's env. */
static struct {
	TAILQ_HEAD(, ctl_conn)	 conns;
	struct event_base	*base;
	struct event		 ev_accept;
	struct event		 ev_pause;	/* after EMFILE */
	int			 fd;
	char			 path[sizeof(((struct sockaddr_un *)0)->
			    sun_path)];
	uint32_t		 next_id;
	size_t			 count;
	const struct ctl_op	*ops;
	size_t			 nops;
	gid_t			 docker_gid;
	int			 docker_known;
} ctl = {
	.conns = TAILQ_HEAD_INITIALIZER(ctl.conns),
	.fd = -1,
	.next_id = 1,
};

static void	control_accept(int, short, void *);
static void	control_dispatch(int, short, void *);
static void	control_free(struct ctl_conn *);

void
control_docker_group(const char *name)
{
	struct group	*gr;

	if ((gr = getgrnam(name)) == NULL) {
		log_info("control: no group %s: space operations are for "
		    "root and uid %u only", name, (unsigned)geteuid());
		return;
	}
	ctl.docker_gid = gr->gr_gid;
	ctl.docker_known = 1;
	log_debug("control: group %s is gid %u", name, (unsigned)gr->gr_gid);
}

/*
 * Is the peer of s in the docker group, by the credentials it connected
 * with: its primary gid (SO_PEERCRED) or one of its supplementary groups
 * (SO_PEERGROUPS), as the kernel recorded them at connect.
 */
static int
control_peer_docker(int s, gid_t primary)
{
	gid_t		 small[64], *groups = small;
	socklen_t	 len = sizeof(small);
	size_t		 i, n;
	int		 member = 0;

	if (!ctl.docker_known)
		return 0;
	if (primary == ctl.docker_gid)
		return 1;
	if (getsockopt(s, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == -1) {
		if (errno != ERANGE || len > CTL_GROUPS_MAX * sizeof(gid_t) ||
		    (groups = malloc(len)) == NULL) {
			log_warn("control: SO_PEERGROUPS");
			return 0;
		}
		if (getsockopt(s, SOL_SOCKET, SO_PEERGROUPS, groups, &len) ==
		    -1) {
			log_warn("control: SO_PEERGROUPS");
			free(groups);
			return 0;
		}
	}
	n = len / sizeof(gid_t);
	for (i = 0; i < n; i++)
		if (groups[i] == ctl.docker_gid)
			member = 1;
	if (groups != small)
		free(groups);
	return member;
}

/*
 * Who may run op: the one rule.  The space operations drive the Docker
 * daemon, which is root on the host: a member of its group may do as
 * much with the docker CLI anyway, and nobody else may, so they are for
 * admins and that group.  Every space is still scoped by the caller's
 * uid (the owner label), group or not.
 */
static int
control_may(const struct ctl_conn *cc, const struct ctl_op *op)
{
	switch (op->op_who) {
	case WHO_ANYONE:
		return 1;
	case WHO_DOCKER:
		return CTL_ADMIN(cc) || cc->cc_docker;
	case WHO_ADMIN:
		return CTL_ADMIN(cc);
	}
	return 0;
}

/*
 * permission_denied with its reason, by the rule control_may applied:
 * spaced alone knows who a request is for, so a client prints these
 * words and keeps no list of its own to drift from the table's.
 */
static void
control_deny(struct ctl_conn *cc, uint32_t peerid, const struct ctl_op *op)
{
	struct ctl_fail_why	 fw;

	memset(&fw, 0, sizeof(fw));
	strlcpy(fw.fw_fail.cf_code, ERR_PERMISSION_DENIED,
	    sizeof(fw.fw_fail.cf_code));
	if (op->op_who == WHO_ADMIN)
		(void)snprintf(fw.fw_message, sizeof(fw.fw_message),
		    "%s is for root and spaced's own user only", op->op_name);
	else
		strlcpy(fw.fw_message, "space operations are for root, "
		    "spaced's own user and members of the docker group",
		    sizeof(fw.fw_message));
	control_send(cc, IMSG_CTL_FAIL, peerid, &fw, sizeof(fw));
}

void
control_listen(const char *path, struct event_base *base,
    const struct ctl_op *ops, size_t nops)
{
	struct sockaddr_un	 sun;
	struct stat		 sb;
	int			 probe;

	ctl.base = base;
	ctl.ops = ops;
	ctl.nops = nops;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		fatalx("control socket path too long: %s", path);
	strlcpy(ctl.path, path, sizeof(ctl.path));

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
	if ((ctl.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1)
		fatal("socket");
	if (bind(ctl.fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("bind %s", path);
	/*
	 * Every user may connect: the peer's uid scopes what it sees, and
	 * what needs root checks for root (STYLE.md 21).
	 */
	if (chmod(path, 0666) == -1)
		fatal("chmod %s", path);
	if (listen(ctl.fd, 16) == -1)
		fatal("listen");
	event_set(&ctl.ev_accept, ctl.fd, EV_READ | EV_PERSIST,
	    control_accept, NULL);
	event_base_set(base, &ctl.ev_accept);
	event_add(&ctl.ev_accept, NULL);
	evtimer_set(&ctl.ev_pause, control_accept, NULL);
	event_base_set(base, &ctl.ev_pause);
	log_info("listening on %s", path);
}

void
control_close(void)
{
	if (ctl.fd == -1)
		return;
	close(ctl.fd);
	ctl.fd = -1;
	(void)unlink(ctl.path);
}

size_t
control_clients(void)
{
	return ctl.count;
}

static void
control_idle(int fd, short event, void *arg)
{
	struct ctl_conn	*cc = arg;

	log_debug("control: connection %u idle, closed", cc->cc_id);
	control_free(cc);
}

/* The idle timer runs only while nothing is pending for the client. */
void
control_busy_changed(struct ctl_conn *cc)
{
	struct timeval	 tv = { CTL_IDLE_SECONDS, 0 };

	if (cc->cc_closing)
		return;		/* the linger timer runs instead */
	if (cc->cc_pending > 0 || cc->cc_streams > 0)
		evtimer_del(&cc->cc_idle);
	else
		evtimer_add(&cc->cc_idle, &tv);
}

/* Who may take the reserved connections. */
static int
control_reserved_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
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
		event_add(&ctl.ev_accept, NULL);
		return;
	}
	if ((s = accept4(ctl.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC))
	    == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			/* Back off instead of spinning on a full table. */
			event_del(&ctl.ev_accept);
			evtimer_add(&ctl.ev_pause, &pause);
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
	TAILQ_FOREACH(o, &ctl.conns, cc_entry)
		if (o->cc_uid == cred.uid)
			same_uid++;
	if (ctl.count >= CTL_MAX_CONNS ||
	    same_uid >= CTL_MAX_CONNS_PER_UID ||
	    (ctl.count >= CTL_MAX_CONNS - CTL_RESERVED &&
	    !control_reserved_uid(cred.uid))) {
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
	cc->cc_id = ctl.next_id++;
	cc->cc_uid = cred.uid;
	cc->cc_pid = cred.pid;
	cc->cc_docker = control_peer_docker(s, cred.gid);
	TAILQ_INIT(&cc->cc_requests);
	imsgev_init(&cc->cc_iev, ctl.base, s, control_dispatch, cc);
	imsgbuf_set_maxsize(&cc->cc_iev.ibuf, IMSG_HEADER_SIZE +
	    CTL_MAX_REQUEST);
	evtimer_set(&cc->cc_idle, control_idle, cc);
	event_base_set(ctl.base, &cc->cc_idle);
	control_busy_changed(cc);
	imsg_event_add(&cc->cc_iev);
	TAILQ_INSERT_TAIL(&ctl.conns, cc, cc_entry);
	ctl.count++;
	log_debug("control: connection %u from uid %u pid %d", cc->cc_id,
	    (unsigned)cc->cc_uid, (int)cc->cc_pid);
}

/* From here on the client gets nothing new, and goes in a while. */
static void
control_start_closing(struct ctl_conn *cc, int linger)
{
	struct timeval	 tv = { linger, 0 };

	cc->cc_closing = 1;
	request_client_gone(cc);
	imsg_event_pause_read(&cc->cc_iev, 1);
	evtimer_add(&cc->cc_idle, &tv);
}

static void
control_free(struct ctl_conn *cc)
{
	request_client_gone(cc);
	TAILQ_REMOVE(&ctl.conns, cc, cc_entry);
	ctl.count--;
	event_del(&cc->cc_iev.ev);
	evtimer_del(&cc->cc_idle);
	imsgbuf_clear(&cc->cc_iev.ibuf);
	close(cc->cc_iev.ibuf.fd);
	free(cc);
}

void
control_output_check(struct ctl_conn *cc)
{
	size_t	 queued = cc->cc_iev.ibuf.outq_bytes;

	if (queued > CTL_OUT_HARD && !cc->cc_closing) {
		log_warnx("control: uid %u pid %d reads nothing: %zu bytes "
		    "queued, closed", (unsigned)cc->cc_uid, (int)cc->cc_pid,
		    queued);
		/* Freed from the timer: callers up the stack still hold cc. */
		imsgbuf_clear(&cc->cc_iev.ibuf);
		control_start_closing(cc, 0);
		return;
	}
	if (!cc->cc_closing)
		imsg_event_pause_read(&cc->cc_iev, queued > CTL_OUT_SOFT);
	imsg_event_add(&cc->cc_iev);
}

void
control_send(struct ctl_conn *cc, uint32_t type, uint32_t peerid,
    const void *data, size_t len)
{
	if (cc->cc_closing)
		return;
	if (imsg_compose(&cc->cc_iev.ibuf, type, peerid, 0, -1, data, len)
	    == -1)
		log_warn("control: answer to uid %u", (unsigned)cc->cc_uid);
	control_output_check(cc);
}

/* Send what is queued, then close: an error's last word. */
void
control_fail_close(struct ctl_conn *cc, uint32_t peerid, const char *code)
{
	if (cc->cc_closing)
		return;
	control_send_fail(cc, peerid, code);
	control_start_closing(cc, CTL_LINGER_SECONDS);
}

/*
 * One error code for the request of peerid.  Its low byte says spaced's
 * version whatever the request said: a FAIL's layout never changes, so a
 * client of another version reads it and can name both.  A build before
 * answers named a version reads only its own peerid back.
 */
void
control_send_fail(struct ctl_conn *cc, uint32_t peerid, const char *code)
{
	struct ctl_fail	 cf;

	memset(&cf, 0, sizeof(cf));
	strlcpy(cf.cf_code, code, sizeof(cf.cf_code));
	if (!CTL_VERSION_ECHOED(CTL_VERSION(peerid)))
		peerid = CTL_PEERID(CTL_TAG(peerid));
	control_send(cc, IMSG_CTL_FAIL, peerid, &cf, sizeof(cf));
}

static const struct ctl_op *
control_op(uint32_t type)
{
	size_t	 i;

	for (i = 0; i < ctl.nops; i++)
		if (ctl.ops[i].op_type == type)
			return &ctl.ops[i];
	return NULL;
}

/* Stream messages carry a stream's id in the peerid, not a version. */
static int
control_stream_type(uint32_t type)
{
	return type == IMSG_STREAM_DATA || type == IMSG_STREAM_CREDIT ||
	    type == IMSG_STREAM_END;
}

/*
 * A message refused before it was whole (over the cap, a bad flag): its
 * header is there, and a version not ours is the cause to name first,
 * so a newer spacectl's large request is told protocol_version, not
 * request_too_large.  Nothing past the header is read.
 */
static void
control_refuse(struct ctl_conn *cc, int error)
{
	struct imsg_hdr	 hdr;

	if (imsgbuf_peek_hdr(&cc->cc_iev.ibuf, &hdr) == 0 &&
	    !control_stream_type(hdr.type) &&
	    CTL_VERSION(hdr.peerid) != CTL_PROTO_VERSION) {
		control_fail_close(cc, hdr.peerid, ERR_PROTOCOL_VERSION);
		return;
	}
	control_fail_close(cc, 0, error == ERANGE ? ERR_REQUEST_TOO_LARGE :
	    ERR_BAD_REQUEST);
}

static void
control_request(struct ctl_conn *cc, struct imsg *imsg)
{
	const struct ctl_op	*op;
	struct request		*r;
	const char		*code;
	uint32_t		 type = imsg_get_type(imsg);
	uint32_t		 peerid = imsg_get_peerid(imsg);

	if (control_stream_type(type)) {
		streams_dispatch(EP_CLIENT(cc), imsg);
		return;
	}
	if (CTL_VERSION(peerid) != CTL_PROTO_VERSION) {
		control_fail_close(cc, peerid, ERR_PROTOCOL_VERSION);
		return;
	}
	if (imsg->fd != -1) {
		control_fail_close(cc, peerid, ERR_BAD_REQUEST);
		return;
	}
	/* Not a request: a word to one of this client's running execs. */
	if (type == IMSG_CTL_EXEC_RESIZE) {
		streams_exec_resize(cc, imsg);
		return;
	}
	if ((op = control_op(type)) == NULL) {
		control_send_fail(cc, peerid, ERR_UNKNOWN_REQUEST);
		return;
	}
	if (imsg_get_len(imsg) != op->op_len) {
		control_fail_close(cc, peerid, ERR_BAD_REQUEST);
		return;
	}
	if (!control_may(cc, op)) {
		control_deny(cc, peerid, op);
		return;
	}
	if (cc->cc_pending >= CTL_MAX_PENDING) {
		control_send_fail(cc, peerid, ERR_BUSY);
		return;
	}
	if ((r = request_new(cc, peerid, op)) == NULL) {
		control_send_fail(cc, peerid, ERR_INTERNAL);
		return;
	}
	if ((code = op->op_start(r, imsg)) != NULL)
		request_fail(r, code);
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
	/* Read only while the client takes its answers (see the top). */
	control_output_check(cc);
	while (!cc->cc_iev.rpaused) {
		if ((n = imsgbuf_get(&cc->cc_iev.ibuf, &imsg)) == -1) {
			control_refuse(cc, errno);
			break;
		}
		if (n == 0)
			break;
		control_request(cc, &imsg);
		imsg_free(&imsg);
		if (cc->cc_closing)
			break;
	}
	if (cc->cc_closing && imsgbuf_queuelen(&cc->cc_iev.ibuf) == 0) {
		control_free(cc);
		return;
	}
	control_output_check(cc);
}
