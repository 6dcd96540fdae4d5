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
 * The pump of spaced-relay: one epoll loop splicing each TCP client to
 * a UNIX socket of the gatekeeper through a pipe a direction, at most a
 * pipe's worth held; teardown passed on as it came (EOF, reset).  See
 * docs/notes/spaced-relay-pump.md.
 */

#include <sys/types.h>
#include <sys/epoll.h>
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "relay.h"

#define RELAY_EVENTS		64
#define RELAY_CHUNK		(64 * 1024)	/* a default pipe's worth */
#define RELAY_SPLICE		(SPLICE_F_MOVE | SPLICE_F_NONBLOCK)
#define RELAY_ACCEPT_BACKOFF	1	/* seconds, after EMFILE/ENFILE */

struct relay_conn;

struct relay_side {
	int			 rs_kind;	/* RELAY_EV_SIDE, first */
	struct relay_conn	*rs_conn;
	int			 rs_fd;
	int			 rs_pipe[2];	/* the bytes on their way here */
	size_t			 rs_piped;
	int			 rs_eof;	/* it sent us EOF */
	int			 rs_shut;	/* we shut its writing */
	int			 rs_shut_wanted; /* once its pipe is empty */
	uint32_t		 rs_events;	/* in epoll; 0: not there */
};

struct relay_conn {
	struct relay_side	 rc_side[2];	/* 0 the TCP client, 1 the gatekeeper */
	TAILQ_ENTRY(relay_conn)	 rc_entry;	/* linger or dead list */
	time_t			 rc_deadline;	/* lingering: when it goes */
	int			 rc_lingering;	/* one side is gone */
	int			 rc_rst;	/* close the client with a RST */
	int			 rc_dead;	/* freed after this batch */
};

TAILQ_HEAD(relay_conns, relay_conn);

/* The pump's environment. */
static struct relay_env {
	struct relay_conns	 rv_lingering;
	struct relay_conns	 rv_dead;	/* freed after this batch */
	int			 rv_ep;		/* the epoll fd */
	int			 rv_nconn;
	int			 rv_cap_logged;
	int			 rv_down[RELAY_TARGET_MAX];	/* logged */
	time_t			 rv_accept_resume;	/* 0: accepting */
	volatile sig_atomic_t	 rv_got_chld;
	volatile sig_atomic_t	 rv_pending[NSIG];
} env = {
	.rv_lingering = TAILQ_HEAD_INITIALIZER(env.rv_lingering),
	.rv_dead = TAILQ_HEAD_INITIALIZER(env.rv_dead),
	.rv_ep = -1,
};

void
relay_on_signal(int sig)
{
	if (sig == SIGCHLD)
		env.rv_got_chld = 1;
	else if (sig > 0 && sig < NSIG)
		env.rv_pending[sig] = 1;
}

static time_t
relay_now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int
relay_would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/* Side s's interest: read while nothing waits for the other, write while something waits for s. */
static void
relay_side_update(struct relay_conn *rc, int i)
{
	struct relay_side	*rs = &rc->rc_side[i], *other = &rc->rc_side[!i];
	struct epoll_event	 ev;
	uint32_t		 want = 0;
	int			 op;

	if (rs->rs_fd == -1)
		return;
	if (!rs->rs_eof && !rc->rc_lingering && other->rs_fd != -1 &&
	    other->rs_piped == 0)
		want |= EPOLLIN;
	if (rs->rs_piped > 0)
		want |= EPOLLOUT;
	if (want == rs->rs_events)
		return;
	/*
	 * Out of epoll when nothing is wanted: epoll reports EPOLLHUP and
	 * EPOLLERR whatever the mask, which would spin.
	 */
	if (want == 0)
		op = EPOLL_CTL_DEL;
	else
		op = rs->rs_events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
	memset(&ev, 0, sizeof(ev));
	ev.events = want;
	ev.data.ptr = rs;
	if (epoll_ctl(env.rv_ep, op, rs->rs_fd, &ev) == -1)
		fatal("epoll_ctl");
	rs->rs_events = want;
}

static void
relay_update(struct relay_conn *rc)
{
	if (rc->rc_dead)
		return;
	relay_side_update(rc, 0);
	relay_side_update(rc, 1);
}

static void
relay_side_close(struct relay_side *rs)
{
	/* close() takes the fd out of epoll: it is never dup'ed. */
	if (rs->rs_fd != -1)
		close(rs->rs_fd);
	if (rs->rs_pipe[0] != -1)
		close(rs->rs_pipe[0]);
	if (rs->rs_pipe[1] != -1)
		close(rs->rs_pipe[1]);
	rs->rs_fd = rs->rs_pipe[0] = rs->rs_pipe[1] = -1;
	rs->rs_piped = 0;
	rs->rs_events = 0;
}

/* Gone for good; freed once the events of this batch are handled. */
static void
relay_close(struct relay_conn *rc)
{
	struct linger	 l = { 1, 0 };

	if (rc->rc_dead)
		return;
	if (rc->rc_rst && rc->rc_side[0].rs_fd != -1)
		(void)setsockopt(rc->rc_side[0].rs_fd, SOL_SOCKET, SO_LINGER,
		    &l, sizeof(l));
	relay_side_close(&rc->rc_side[0]);
	relay_side_close(&rc->rc_side[1]);
	if (rc->rc_lingering)
		TAILQ_REMOVE(&env.rv_lingering, rc, rc_entry);
	rc->rc_dead = 1;
	TAILQ_INSERT_TAIL(&env.rv_dead, rc, rc_entry);
	env.rv_nconn--;
}

static void
relay_check_done(struct relay_conn *rc)
{
	if (rc->rc_side[0].rs_eof && rc->rc_side[1].rs_eof &&
	    rc->rc_side[0].rs_shut && rc->rc_side[1].rs_shut)
		relay_close(rc);
}

/*
 * Side i died (an error, a reset): it goes now, and the survivor writes
 * out what is kept for it, then goes too.  A gatekeeper's reset reaches
 * the client as a RST, so a cut is never mistaken for a clean end.
 */
static void
relay_death(struct relay_conn *rc, int i)
{
	struct relay_side	*other = &rc->rc_side[!i];

	if (rc->rc_dead)
		return;
	if (i == 1)
		rc->rc_rst = 1;
	relay_side_close(&rc->rc_side[i]);
	if (rc->rc_lingering || other->rs_fd == -1 || other->rs_piped == 0) {
		relay_close(rc);
		return;
	}
	rc->rc_lingering = 1;
	rc->rc_deadline = relay_now() + RELAY_LINGER_SEC;
	/* One linger time for all: the list stays in deadline order. */
	TAILQ_INSERT_TAIL(&env.rv_lingering, rc, rc_entry);
}

/* Our write side of s is done: tell its peer. */
static void
relay_shut(struct relay_conn *rc, struct relay_side *rs)
{
	if (!rs->rs_shut) {
		(void)shutdown(rs->rs_fd, SHUT_WR);
		rs->rs_shut = 1;
	}
	relay_check_done(rc);
}

/*
 * Write out what is kept for side i.  1: all of it is out; 0: the side
 * takes no more for now; -1: it died.
 */
static int
relay_push(struct relay_side *rs)
{
	ssize_t	 w;

	while (rs->rs_piped > 0) {
		w = splice(rs->rs_pipe[0], NULL, rs->rs_fd, NULL,
		    rs->rs_piped, RELAY_SPLICE);
		if (w == -1)
			return relay_would_block(errno) ? 0 : -1;
		/* An empty pipe with a count left would be our bug. */
		if (w == 0)
			return -1;
		rs->rs_piped -= (size_t)w;
	}
	return 1;
}

/* Side i has taken all that was kept for it. */
static void
relay_flushed(struct relay_conn *rc, int i)
{
	struct relay_side	*rs = &rc->rc_side[i];

	if (rc->rc_lingering) {
		relay_close(rc);
		return;
	}
	if (rs->rs_shut_wanted)
		relay_shut(rc, rs);
}

static void
relay_write(struct relay_conn *rc, int i)
{
	switch (relay_push(&rc->rc_side[i])) {
	case -1:
		relay_death(rc, i);
		break;
	case 1:
		relay_flushed(rc, i);
		break;
	}
}

static void
relay_read(struct relay_conn *rc, int i)
{
	struct relay_side	*rs = &rc->rc_side[i], *other = &rc->rc_side[!i];
	ssize_t			 n;

	n = splice(rs->rs_fd, NULL, other->rs_pipe[1], NULL, RELAY_CHUNK,
	    RELAY_SPLICE);
	if (n == -1) {
		if (!relay_would_block(errno))
			relay_death(rc, i);
		return;
	}
	if (n == 0) {
		rs->rs_eof = 1;
		if (other->rs_piped > 0)
			other->rs_shut_wanted = 1;
		else
			relay_shut(rc, other);
		return;
	}
	other->rs_piped += (size_t)n;
	/* At once: most writes go out whole and nothing stays kept. */
	relay_write(rc, !i);
}

static void
relay_side_event(struct relay_side *rs, uint32_t events)
{
	struct relay_conn	*rc = rs->rs_conn;
	int			 i = rs == &rc->rc_side[0] ? 0 : 1;

	if (rc->rc_dead || rs->rs_fd == -1)
		return;
	/* Errors and hangups surface through the call we wanted anyway. */
	if ((rs->rs_events & EPOLLOUT) &&
	    (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
		relay_write(rc, i);
	if (!rc->rc_dead && rs->rs_fd != -1 && (rs->rs_events & EPOLLIN) &&
	    (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) &&
	    rc->rc_side[!i].rs_piped == 0)
		relay_read(rc, i);
	relay_update(rc);
}

/* The gatekeeper side of a new connection, or -1 (closed at once). */
static int
relay_connect(const struct relay_config *cf, enum relay_target t)
{
	int	 s;

	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1) {
		log_warn("socket");
		return -1;
	}
	/*
	 * Non-blocking: a UNIX connect completes at once or fails (EAGAIN
	 * when the gatekeeper's backlog is full); it never waits, so a
	 * dead, missing or stalled gatekeeper costs the client nothing but
	 * its connection.
	 */
	if (connect(s, (const struct sockaddr *)&cf->rc_target[t],
	    sizeof(cf->rc_target[t])) == -1) {
		/* Once per outage, not once per client. */
		if (!env.rv_down[t])
			log_warn("%s", cf->rc_target[t].sun_path);
		env.rv_down[t] = 1;
		close(s);
		return -1;
	}
	env.rv_down[t] = 0;
	return s;
}

static void
relay_start(const struct relay_config *cf, int cfd, enum relay_target t)
{
	struct relay_conn	*rc;
	int			 one = 1, i, gfd;

	if ((gfd = relay_connect(cf, t)) == -1) {
		close(cfd);
		return;
	}
	if ((rc = calloc(1, sizeof(*rc))) == NULL) {
		log_warn("calloc");
		close(cfd);
		close(gfd);
		return;
	}
	for (i = 0; i < 2; i++) {
		rc->rc_side[i].rs_kind = RELAY_EV_SIDE;
		rc->rc_side[i].rs_conn = rc;
		rc->rc_side[i].rs_pipe[0] = rc->rc_side[i].rs_pipe[1] = -1;
	}
	rc->rc_side[0].rs_fd = cfd;
	rc->rc_side[1].rs_fd = gfd;
	env.rv_nconn++;
	for (i = 0; i < 2; i++)
		if (pipe2(rc->rc_side[i].rs_pipe, O_NONBLOCK | O_CLOEXEC) ==
		    -1) {
			log_warn("pipe2");
			relay_close(rc);
			return;
		}
	/* The writers chose their segments; Nagle would only add delay. */
	(void)setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	relay_update(rc);
}

static void
relay_listeners_arm(struct relay_config *cf, int on)
{
	struct epoll_event	 ev;
	int			 i;

	for (i = 0; i < cf->rc_nlisten; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.events = EPOLLIN;
		ev.data.ptr = &cf->rc_listen[i];
		if (epoll_ctl(env.rv_ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL,
		    cf->rc_listen[i].rl_fd, &ev) == -1)
			fatal("epoll_ctl listener");
	}
}

static void
relay_accept(struct relay_config *cf, struct relay_listener *rl)
{
	int	 fd, n;

	/* A bounded batch, so one listener cannot starve the pumps. */
	for (n = 0; n < RELAY_EVENTS; n++) {
		fd = accept4(rl->rl_fd, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd == -1) {
			if (errno == EMFILE || errno == ENFILE) {
				/* Level-triggered: pause, or it would spin. */
				log_warn("accept");
				relay_listeners_arm(cf, 0);
				env.rv_accept_resume = relay_now() +
				    RELAY_ACCEPT_BACKOFF;
				return;
			}
			/* EAGAIN, or a client gone before it was taken. */
			return;
		}
		if (env.rv_nconn >= cf->rc_cap) {
			/* Closed at once: a client never hangs on a full relay. */
			if (!env.rv_cap_logged)
				log_warnx("%d connections, refusing more",
				    cf->rc_cap);
			env.rv_cap_logged = 1;
			close(fd);
			continue;
		}
		env.rv_cap_logged = 0;
		relay_start(cf, fd, rl->rl_target);
	}
}

static void
relay_expire(struct relay_config *cf, time_t now)
{
	struct relay_conn	*rc;

	while ((rc = TAILQ_FIRST(&env.rv_lingering)) != NULL &&
	    rc->rc_deadline <= now)
		relay_close(rc);
	if (env.rv_accept_resume != 0 && env.rv_accept_resume <= now) {
		env.rv_accept_resume = 0;
		relay_listeners_arm(cf, 1);
	}
}

static int
relay_timeout(time_t now)
{
	struct relay_conn	*rc;
	time_t			 next = 0;

	if ((rc = TAILQ_FIRST(&env.rv_lingering)) != NULL)
		next = rc->rc_deadline;
	if (env.rv_accept_resume != 0 &&
	    (next == 0 || env.rv_accept_resume < next))
		next = env.rv_accept_resume;
	if (next == 0)
		return -1;
	return next <= now ? 0 : (int)(next - now) * 1000;
}

static void
relay_reap_dead(void)
{
	struct relay_conn	*rc;

	while ((rc = TAILQ_FIRST(&env.rv_dead)) != NULL) {
		TAILQ_REMOVE(&env.rv_dead, rc, rc_entry);
		free(rc);
	}
}

/* Signals for the child, passed on as they came; SIGCHLD ends the loop. */
static int
relay_signals(const struct relay_config *cf, int *code)
{
	int	 sig, status;
	pid_t	 pid;

	for (sig = 1; sig < NSIG; sig++) {
		if (!env.rv_pending[sig])
			continue;
		env.rv_pending[sig] = 0;
		if (kill(cf->rc_child, sig) == -1 && errno != ESRCH)
			log_warn("kill %d", sig);
	}
	if (!env.rv_got_chld)
		return 0;
	env.rv_got_chld = 0;
	pid = wait4(cf->rc_child, &status, WNOHANG, NULL);
	if (pid == -1)
		fatal("wait4");
	if (pid != cf->rc_child)
		return 0;
	*code = relay_exit_code(status);
	return 1;
}

/*
 * relay.c: the loop, with signals blocked but while it waits
 * (waitmask); returns the child's exit code once the child is gone.
 */
int
relay_serve(struct relay_config *cf, const sigset_t *waitmask)
{
	struct epoll_event	 evs[RELAY_EVENTS];
	int			 code, i, n, *kind;

	if ((env.rv_ep = epoll_create1(EPOLL_CLOEXEC)) == -1)
		fatal("epoll_create1");
	relay_listeners_arm(cf, 1);
	for (;;) {
		/* Signals are let in only here, so none is missed. */
		n = epoll_pwait(env.rv_ep, evs, RELAY_EVENTS,
		    relay_timeout(relay_now()), waitmask);
		if (n == -1 && errno != EINTR)
			fatal("epoll_pwait");
		if (relay_signals(cf, &code))
			return code;
		for (i = 0; i < n; i++) {
			kind = evs[i].data.ptr;
			if (*kind == RELAY_EV_LISTENER)
				relay_accept(cf,
				    (struct relay_listener *)evs[i].data.ptr);
			else
				relay_side_event(
				    (struct relay_side *)evs[i].data.ptr,
				    evs[i].events);
		}
		relay_expire(cf, relay_now());
		relay_reap_dead();
	}
}
