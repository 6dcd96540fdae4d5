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
 * A space's commands, forked by a helper kept in its group and its
 * namespaces: a join of a cgroup v1 group waits out an RCU grace period,
 * which every exec paid (docs/perf.md).  The helper is spaced-ns's child,
 * root outside the space, never in its pid namespace, and takes orders
 * from spaced-ns alone; each child becomes the space's user (ns_command).
 */

#include <sys/prctl.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <errno.h>
#include <event.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ns.h"

#define NH_RUNS		64	/* commands at once, per space */
#define NH_FDS		4	/* stdin, stdout, stderr, exec -t's socket */

/* spaced-ns to its helper: a command, or the end of one. */
struct nh_req {
	uint32_t	 rq_token;
	uint8_t		 rq_kill;
	uint8_t		 rq_tty;
	uint16_t	 rq_rows;
	uint16_t	 rq_cols;
	uint16_t	 rq_argc;
	char		 rq_argv[SPACE_EXEC_ARGV_MAX];	/* NUL-separated */
};

/* The helper's answer: a command ended, with waitpid's status. */
struct nh_ans {
	uint32_t	 an_token;
	int32_t		 an_status;
};

struct nh_wait {
	uint32_t	  w_token;
	void		(*w_ended)(void *, int);
	void		 *w_arg;
};

struct helper {
	TAILQ_ENTRY(helper)	 h_entry;
	char			 h_id[SPACE_ID_SIZE];
	int			 h_pidfd;	/* the helper's, to kill it */
	pid_t			 h_init;	/* the pid 1 it enters by */
	int			 h_entered;	/* its word came */
	int			 h_sock;
	struct event		 h_ev;
	struct nh_wait		 h_wait[NH_RUNS];
};

static TAILQ_HEAD(, helper)	 helpers = TAILQ_HEAD_INITIALIZER(helpers);
static struct event_base	*nh_base;
static uint32_t			 nh_token;

/* --- the helper's side ------------------------------------------------ */

struct nh_run {
	uint32_t	 r_token;
	pid_t		 r_pid;
	int		 r_life;	/* held until it ends: see ns_command */
};

static volatile sig_atomic_t	 nh_chld;

static void
nh_onchld(int sig)
{
	(void)sig;
	nh_chld = 1;
}

static void
nh_answer(int sock, uint32_t token, int status)
{
	struct nh_ans	 an = { token, status };

	if (send(sock, &an, sizeof(an), MSG_NOSIGNAL) != sizeof(an))
		_exit(1);	/* spaced-ns went: its children follow */
}

static void
nh_reap(int sock, struct nh_run *run)
{
	pid_t	 pid;
	int	 status, i;

	nh_chld = 0;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 0; i < NH_RUNS; i++)
			if (run[i].r_pid == pid) {
				close(run[i].r_life);
				run[i].r_pid = 0;
				nh_answer(sock, run[i].r_token, status);
			}
}

/* A request's argv, checked as spaced-ns checked it: n strings. */
static int
nh_argv(struct nh_req *rq, size_t len, char **argv)
{
	size_t	 i, n = 0, start, end;

	if (len <= offsetof(struct nh_req, rq_argv) ||
	    rq->rq_argc == 0 || rq->rq_argc > SPACE_EXEC_ARGC_MAX)
		return -1;
	end = len - offsetof(struct nh_req, rq_argv);
	if (rq->rq_argv[end - 1] != '\0')
		return -1;
	for (i = start = 0; i < end; i++)
		if (rq->rq_argv[i] == '\0') {
			if (n == rq->rq_argc)
				return -1;
			argv[n++] = rq->rq_argv + start;
			start = i + 1;
		}
	argv[n] = NULL;
	return n == rq->rq_argc ? 0 : -1;
}

static void
nh_start(const struct ns_space *ns, int sock, struct nh_req *rq,
    size_t len, int *fds, int nfds, struct nh_run *run,
    const sigset_t *mask)
{
	char		*argv[SPACE_EXEC_ARGC_MAX + 1];
	struct ns_tty	 tty;
	sigset_t	 term, held;
	int		 life[2], i, slot;
	pid_t		 pid = -1;

	if (nfds != (rq->rq_tty ? 4 : 3) || nh_argv(rq, len, argv) == -1)
		_exit(1);	/* not spaced-ns's: it checked */
	for (slot = 0; slot < NH_RUNS && run[slot].r_pid != 0; slot++)
		;
	life[0] = life[1] = -1;
	/* The keeper's end is its SIGTERM: held from its first instant. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &held);
	if (slot < NH_RUNS && pipe2(life, O_CLOEXEC) == 0)
		pid = fork();
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &held, NULL);
	if (pid == -1) {
		dprintf(fds[2], "spaced-ns: fork: %s\n", slot == NH_RUNS ?
		    "too many commands" : strerror(errno));
		if (life[0] != -1) {
			close(life[0]);
			close(life[1]);
		}
		nh_answer(sock, rq->rq_token, 126 << 8);
		goto done;
	}
	if (pid == 0) {
		/* Its command as spaced-ns's own children: nothing held. */
		close(life[1]);
		if (dup2(fds[0], 0) == -1 || dup2(fds[1], 1) == -1 ||
		    dup2(fds[2], 2) == -1)
			_exit(126);
		tty.sock = rq->rq_tty ? fds[3] : -1;
		tty.rows = rq->rq_rows;
		tty.cols = rq->rq_cols;
		ns_keeper(ns, argv, life[0], rq->rq_tty ? &tty : NULL, mask);
	}
	close(life[0]);
	run[slot].r_token = rq->rq_token;
	run[slot].r_pid = pid;
	run[slot].r_life = life[1];
done:
	for (i = 0; i < nfds; i++)
		close(fds[i]);
}

static void
nh_kill(uint32_t token, struct nh_run *run)
{
	int	 i;

	/*
	 * To its keeper (ns_keeper.c), which ends every process of the
	 * command; still unreaped, so the pid is still that keeper's.
	 */
	for (i = 0; i < NH_RUNS; i++)
		if (run[i].r_pid != 0 && run[i].r_token == token)
			kill(run[i].r_pid, SIGTERM);
}

/*
 * One message of at most len bytes into buf and at most max fds into fds
 * (their count in *nfds).  A message cut short, or with more fds than
 * max, is refused with every fd it brought closed, so the helper holds
 * none that no one will close.  Its length, 0 at EOF, -1 with errno.
 */
ssize_t
ns_helper_recv(int sock, void *buf, size_t len, int *fds, int max,
    int *nfds)
{
	struct msghdr	 msg;
	struct iovec	 iov = { buf, len };
	struct cmsghdr	*c;
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(NH_FDS * sizeof(int))];
	}		 cm;
	int		 fd, i, n, bad;
	ssize_t		 r;

	*nfds = 0;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cm.buf;
	msg.msg_controllen = sizeof(cm.buf);
	if ((r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC)) == -1)
		return -1;
	bad = (msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0;
	for (c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (!bad && *nfds < max)
				fds[(*nfds)++] = fd;
			else {
				close(fd);
				bad = 1;
			}
		}
	}
	if (bad) {
		for (i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
		errno = EBADMSG;
		return -1;
	}
	return r;
}

/* The pidfd of the space's pid 1, spaced-ns's first word; -1 on EOF. */
static int
nh_pidfd(int sock)
{
	pid_t		 init;
	int		 fd, nfds;

	if (ns_helper_recv(sock, &init, sizeof(init), &fd, 1, &nfds) !=
	    sizeof(init) || nfds != 1) {
		if (nfds == 1)
			close(fd);
		return -1;
	}
	return fd;
}

/* One request; EOF or anything malformed ends the helper. */
static void
nh_read(const struct ns_space *ns, int sock, struct nh_run *run,
    const sigset_t *mask)
{
	static struct nh_req	 rq;
	int			 fds[NH_FDS], nfds;
	ssize_t			 n;

	if ((n = ns_helper_recv(sock, &rq, sizeof(rq), fds, NH_FDS,
	    &nfds)) == -1 && errno == EINTR)
		return;
	if (n <= 0)
		_exit(0);
	if (rq.rq_kill && nfds == 0 && (size_t)n ==
	    offsetof(struct nh_req, rq_argv))
		nh_kill(rq.rq_token, run);
	else if (!rq.rq_kill)
		nh_start(ns, sock, &rq, n, fds, nfds, run, mask);
	else
		_exit(1);
}

static __dead void
nh_loop(const struct ns_space *ns, int sock)
{
	static struct nh_run	 run[NH_RUNS];
	struct sigaction	 sa;
	struct pollfd		 pfd;
	sigset_t		 chld, mask, waiting;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, &mask) == -1)
		_exit(1);
	waiting = mask;
	sigdelset(&waiting, SIGCHLD);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nh_onchld;
	if (sigaction(SIGCHLD, &sa, NULL) == -1)
		_exit(1);
	for (;;) {
		pfd.fd = sock;
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (ppoll(&pfd, 1, NULL, &waiting) == -1 && errno != EINTR)
			_exit(1);
		if (nh_chld)
			nh_reap(sock, run);
		if (pfd.revents != 0)
			nh_read(ns, sock, run, &mask);
	}
}

/* --- spaced-ns's side ------------------------------------------------- */

void
ns_helper_base(struct event_base *base)
{
	nh_base = base;
}

/* SIGKILL by its pidfd: a pid reaped meanwhile could be another's. */
static void
helper_signal(struct helper *h)
{
	(void)syscall(SYS_pidfd_send_signal, h->h_pidfd, SIGKILL, NULL, 0);
}

/*
 * Its commands end as killed: the helper, and they with it (their death
 * signal), are gone.  Before it entered, nothing ran: 126, as a failed
 * fork.  SIGKILL too, since a stopped helper never reads its EOF.
 */
static void
helper_drop(struct helper *h)
{
	struct nh_wait	 w;
	size_t		 i;
	int		 status = h->h_entered ? SIGKILL : 126 << 8;

	TAILQ_REMOVE(&helpers, h, h_entry);
	event_del(&h->h_ev);
	close(h->h_sock);
	helper_signal(h);
	close(h->h_pidfd);
	for (i = 0; i < NH_RUNS; i++) {
		w = h->h_wait[i];
		h->h_wait[i].w_ended = NULL;
		if (w.w_ended != NULL)
			w.w_ended(w.w_arg, status);
	}
	free(h);
}

static void
helper_answer(int fd, short ev, void *arg)
{
	struct helper	*h = arg;
	struct nh_ans	 an;
	struct nh_wait	 w;
	ssize_t		 n;
	size_t		 i;

	(void)ev;
	if ((n = recv(fd, &an, sizeof(an), MSG_DONTWAIT)) == -1 &&
	    (errno == EAGAIN || errno == EINTR))
		return;
	if (n != sizeof(an)) {
		helper_drop(h);
		return;
	}
	if (an.an_token == 0) {
		h->h_entered = 1;	/* in the space: its first word */
		return;
	}
	for (i = 0; i < NH_RUNS; i++)
		if (h->h_wait[i].w_ended != NULL &&
		    h->h_wait[i].w_token == an.an_token) {
			w = h->h_wait[i];
			h->h_wait[i].w_ended = NULL;
			w.w_ended(w.w_arg, an.an_status);
			return;
		}
}

/*
 * A helper that joins the space's groups at once and then waits for the
 * pidfd of the pid 1 to enter by (helper_enter): a join of a v1 group
 * waits out an RCU grace period, which create lets run while its
 * gatekeeper starts.  A helper that cannot join or enter says why on
 * spaced-ns's stderr (spaced's log: our words, none of the space's) and
 * exits.
 */
static struct helper *
helper_fork(const struct ns_space *ns, char *err, size_t len)
{
	struct helper	*h;
	const char	*what = "spaced-ns: the cgroup";
	int		 sp[2];
	pid_t		 pid, parent = getpid();
	int		 pidfd;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) == -1) {
		snprintf(err, len, "spaced-ns: socketpair: %s", strerror(errno));
		return NULL;
	}
	if ((pid = fork()) == -1) {
		snprintf(err, len, "spaced-ns: fork: %s", strerror(errno));
		close(sp[0]);
		close(sp[1]);
		return NULL;
	}
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != parent)
			_exit(1);
		ns_close_others(sp[1], -1, -1);
		if (ns_cgroup_join(ns->ns_id, getpid()) == 0) {
			if ((pidfd = nh_pidfd(sp[1])) == -1)
				_exit(0);	/* not wanted after all */
			if (ns_enter_ns(0, pidfd, &what) == 0)
				what = NULL;
			close(pidfd);
		}
		if (what != NULL) {
			dprintf(STDERR_FILENO, "space %s: its exec helper: "
			    "%s: %s\n", ns->ns_id, what, strerror(errno));
			_exit(1);
		}
		if (ns_null_stdio() == -1)
			_exit(1);
		/* Nothing of it for a core file or for /proc's readers. */
		(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		nh_answer(sp[1], 0, 0);
		nh_loop(ns, sp[1]);
	}
	close(sp[1]);
	/* Closing sp[0] ends it (EOF) if anything below fails. */
	if ((h = calloc(1, sizeof(*h))) == NULL ||
	    (h->h_pidfd = ns_pidfd(pid)) == -1) {
		snprintf(err, len, "spaced-ns: %s", strerror(errno));
		free(h);
		close(sp[0]);
		return NULL;
	}
	strlcpy(h->h_id, ns->ns_id, sizeof(h->h_id));
	h->h_sock = sp[0];
	/* An end before it entered is seen too, and lets go of it. */
	event_set(&h->h_ev, h->h_sock, EV_READ | EV_PERSIST, helper_answer, h);
	event_base_set(nh_base, &h->h_ev);
	event_add(&h->h_ev, NULL);
	TAILQ_INSERT_TAIL(&helpers, h, h_entry);
	return h;
}

/*
 * Never waits: a helper that does not read (stopped, say) must not hold
 * spaced-ns's loop and every other space's requests.  -1 with EAGAIN:
 * its socket's buffer is full.
 */
static int
helper_send(struct helper *h, const void *buf, size_t len, const int *fds,
    int nfds)
{
	struct msghdr	 msg;
	struct iovec	 iov = { (void *)(uintptr_t)buf, len };
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(NH_FDS * sizeof(int))];
	}		 cm;
	struct cmsghdr	*c;

	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(h->h_sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) ==
	    (ssize_t)len ? 0 : -1;
}

/*
 * Into the namespaces of init, by a pidfd opened while init is our
 * unreaped child.  Its word that it entered comes through helper_answer;
 * commands sent meanwhile wait in its socket, and if it cannot enter
 * they end with 126 (helper_drop).
 */
static int
helper_enter(struct helper *h, pid_t init, char *err, size_t len)
{
	int	 pidfd;

	if ((pidfd = ns_pidfd(init)) == -1 ||
	    helper_send(h, &init, sizeof(init), &pidfd, 1) == -1) {
		snprintf(err, len, "spaced-ns: the exec helper: %s",
		    strerror(errno));
		if (pidfd != -1)
			close(pidfd);
		helper_drop(h);
		return -1;
	}
	close(pidfd);
	h->h_init = init;
	return 0;
}

static struct helper *
helper_find(const char *id)
{
	struct helper	*h;

	TAILQ_FOREACH(h, &helpers, h_entry)
		if (strcmp(h->h_id, id) == 0)
			return h;
	return NULL;
}

/* The space's helper, made anew when its pid 1 is another. */
static struct helper *
helper_get(const struct ns_space *ns, pid_t init, char *err, size_t len)
{
	struct helper	*h;

	if ((h = helper_find(ns->ns_id)) != NULL && h->h_init == init)
		return h;
	if (h != NULL)
		helper_drop(h);
	if ((h = helper_fork(ns, err, len)) == NULL ||
	    helper_enter(h, init, err, len) == -1)
		return NULL;
	return h;
}

/* The space ends: so does its helper, and what it ran ends as killed. */
void
ns_helper_end(const char *id)
{
	struct helper	*h;

	if ((h = helper_find(id)) != NULL)
		helper_drop(h);
}

/* At create and start, once the groups are made: it joins them meanwhile. */
void
ns_helper_prepare(const struct ns_space *ns)
{
	struct helper	*h;
	char		 err[SPACE_DONE_MESSAGE_MAX];

	if ((h = helper_find(ns->ns_id)) != NULL)
		helper_drop(h);
	if (helper_fork(ns, err, sizeof(err)) == NULL)
		log_warnx("space %s: its exec helper: %s", ns->ns_id, err);
}

/* Once its pid 1 runs: the first exec need not wait for the helper. */
void
ns_helper_spawn(const struct ns_space *ns, pid_t init)
{
	struct helper	*h;
	char		 err[SPACE_DONE_MESSAGE_MAX];

	err[0] = '\0';
	if ((h = helper_find(ns->ns_id)) != NULL && h->h_init == 0)
		(void)helper_enter(h, init, err, sizeof(err));
	else
		(void)helper_get(ns, init, err, sizeof(err));
	if (err[0] != '\0')
		log_warnx("space %s: %s", ns->ns_id, err);
}

/*
 * A command in the space through its helper.  ended(arg, status) comes
 * once, with waitpid's status, unless ns_helper_forget comes first.
 * -1 with err: there is no helper, and nothing runs; -2: its helper
 * takes no more now (busy).
 */
int
ns_helper_exec(const struct ns_space *ns, pid_t init, char *const argv[],
    int fds[3], const struct ns_tty *tty, void (*ended)(void *, int),
    void *arg, uint32_t *token, char *err, size_t errlen)
{
	static struct nh_req	 rq;
	struct helper		*h;
	int			 all[NH_FDS], try, slot;
	size_t			 len = 0, n, i;

	memset(&rq, 0, offsetof(struct nh_req, rq_argv));
	for (i = 0; argv[i] != NULL; i++) {
		n = strlen(argv[i]) + 1;
		if (n > sizeof(rq.rq_argv) - len)
			return -1;	/* spaced-ns checked the same size */
		memcpy(rq.rq_argv + len, argv[i], n);
		len += n;
	}
	rq.rq_argc = i;
	rq.rq_tty = tty != NULL;
	rq.rq_rows = tty != NULL ? tty->rows : 0;
	rq.rq_cols = tty != NULL ? tty->cols : 0;
	memcpy(all, fds, 3 * sizeof(int));
	all[3] = tty != NULL ? tty->sock : -1;
	/* A helper ended under us (its space's memory, say): one more. */
	for (try = 0; try < 2; try++) {
		if ((h = helper_get(ns, init, err, errlen)) == NULL)
			return -1;
		for (slot = 0; slot < NH_RUNS &&
		    h->h_wait[slot].w_ended != NULL; slot++)
			;
		if (slot == NH_RUNS) {
			snprintf(err, errlen, "spaced-ns: too many commands");
			return -1;
		}
		rq.rq_token = ++nh_token;
		if (helper_send(h, &rq, offsetof(struct nh_req, rq_argv) + len,
		    all, tty != NULL ? 4 : 3) == 0) {
			h->h_wait[slot].w_token = rq.rq_token;
			h->h_wait[slot].w_ended = ended;
			h->h_wait[slot].w_arg = arg;
			*token = rq.rq_token;
			return 0;
		}
		if (errno == EAGAIN) {
			snprintf(err, errlen, "spaced-ns: the exec helper "
			    "takes no more commands now");
			return -2;
		}
		helper_drop(h);
	}
	snprintf(err, errlen, "spaced-ns: the exec helper: %s",
	    strerror(errno));
	return -1;
}

static struct helper *
helper_of(uint32_t token, size_t *slot)
{
	struct helper	*h;

	TAILQ_FOREACH(h, &helpers, h_entry)
		for (*slot = 0; *slot < NH_RUNS; (*slot)++)
			if (h->h_wait[*slot].w_ended != NULL &&
			    h->h_wait[*slot].w_token == token)
				return h;
	return NULL;
}

/*
 * SIGKILL to a command.  Its end comes through ended later, never from
 * in here: a helper that cannot be told (gone, or its buffer full) is
 * killed, and its EOF ends its commands as killed.
 */
static void
helper_kill(struct helper *h, uint32_t token)
{
	struct nh_req	 rq;

	memset(&rq, 0, offsetof(struct nh_req, rq_argv));
	rq.rq_token = token;
	rq.rq_kill = 1;
	if (helper_send(h, &rq, offsetof(struct nh_req, rq_argv), NULL,
	    0) == -1)
		helper_signal(h);
}

void
ns_helper_kill(uint32_t token)
{
	struct helper	*h;
	size_t		 slot;

	if ((h = helper_of(token, &slot)) != NULL)
		helper_kill(h, token);
}

/* The exec is gone (cancelled): no word of its end, and it ends. */
void
ns_helper_forget(uint32_t token)
{
	struct helper	*h;
	size_t		 slot;

	if ((h = helper_of(token, &slot)) == NULL)
		return;
	h->h_wait[slot].w_ended = NULL;
	helper_kill(h, token);
}
