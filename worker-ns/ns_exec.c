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
 * exec in a native space or beside its gatekeeper: the command's three
 * pipes against the two streams of the place protocol, with credit, an
 * output cap and a deadline.  The bytes are never read, only framed.
 */

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "ns.h"

#define EXECS_MAX	32
#define GK_CLIENT	"/usr/libexec/spaced/spaced-gatekeeper"

struct nx {
	uint32_t		 peerid;
	pid_t			 pid;		/* beside a gatekeeper */
	uint32_t		 token;		/* in a space: its helper's */
	int			 status;
	int			 exited;
	int			 fd[3];		/* stdin (ours to write), out, err */
	int			 ptm;		/* exec -t: its pty's master */
	struct event		 ev[3];
	int			 ev_on[3];
	struct evbuffer		*in;
	int			 in_done;
	struct stream_tx	 tx;
	int			 tx_open;
	struct stream_rx	 rx;
	int			 rx_open;
	uint64_t		 out_bytes;
	uint64_t		 out_max;
	struct event		 timer;
	int			 timed_out;
	int			 too_large;
	int			 busy;		/* its helper took no more */
	struct event_base	*base;
	char			 space[SPACE_ID_SIZE];	/* "" beside a gatekeeper */
	uint64_t		 memory;	/* the space's limit */
	uint64_t		 oom, forks;	/* its group's counts at the start */
};

static struct nx	*execs[EXECS_MAX];
static struct event_base *nx_base;

static void	nx_arm(struct nx *);
static void	nx_finish(struct nx *);

/* SIGKILL to the command; its end comes as any end. */
static void
nx_kill(struct nx *x)
{
	if (x->pid > 0)
		kill(x->pid, SIGKILL);
	else if (x->token != 0)
		ns_helper_kill(x->token);
}

static void
nx_close(struct nx *x, int i)
{
	if (x->ev_on[i]) {
		event_del(&x->ev[i]);
		x->ev_on[i] = 0;
	}
	if (x->fd[i] != -1) {
		close(x->fd[i]);
		x->fd[i] = -1;
	}
}

static void
nx_free(struct nx *x)
{
	size_t	 i;

	if (x->token != 0)
		ns_helper_forget(x->token);
	for (i = 0; i < 3; i++)
		nx_close(x, (int)i);
	/*
	 * spaced lets go of both streams at our last word and forwards
	 * nothing more on them: stdin still coming is dropped on the way
	 * (proc.c), never waited for here, nor credited to a stream gone.
	 */
	if (x->tx_open)
		worker_stream_unregister(x->tx.st_id);
	if (x->rx_open)
		worker_stream_unregister(x->rx.sr_id);
	evtimer_del(&x->timer);
	evbuffer_free(x->in);
	if (x->ptm != -1)
		close(x->ptm);
	for (i = 0; i < EXECS_MAX; i++)
		if (execs[i] == x)
			execs[i] = NULL;
	free(x);
}

/* Output: a chunk is one byte of which stream, then the bytes. */
static void
nx_read(int fd, short ev, void *arg)
{
	struct nx	*x = arg;
	uint8_t		 chunk[STREAM_CHUNK];
	size_t		 room = sizeof(chunk) - 1;
	ssize_t		 n;
	int		 i = fd == x->fd[1] ? 1 : 2;

	(void)ev;
	if (x->tx_open) {
		if (stream_tx_avail(&x->tx) <= 1) {
			nx_arm(x);
			return;
		}
		if (room > stream_tx_avail(&x->tx) - 1)
			room = stream_tx_avail(&x->tx) - 1;
	}
	n = read(fd, chunk + 1, room);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		nx_close(x, i);
		nx_finish(x);
		return;
	}
	x->out_bytes += n;
	if (x->out_max > 0 && x->out_bytes > x->out_max) {
		x->too_large = 1;
		nx_kill(x);
		nx_close(x, 1);
		nx_close(x, 2);
		nx_finish(x);
		return;
	}
	if (x->tx_open) {
		chunk[0] = i == 1 ? EXEC_OUT_STDOUT : EXEC_OUT_STDERR;
		if (stream_tx_send(&x->tx, &ns_channel()->ibuf, chunk,
		    n + 1) == -1)
			fatal("%s: stream_tx_send", __func__);
		imsg_event_add(ns_channel());
	}
	nx_arm(x);
}

static void
nx_write(int fd, short ev, void *arg)
{
	struct nx	*x = arg;
	int		 n;

	(void)ev;
	n = evbuffer_write(x->in, fd);
	if (n == -1 && errno != EAGAIN && errno != EINTR) {
		/* The command closed its stdin: drop what it did not take. */
		evbuffer_drain(x->in, evbuffer_get_length(x->in));
		x->in_done = 1;
	}
	if (n > 0 && x->rx_open) {
		if (stream_rx_consumed(&x->rx, &ns_channel()->ibuf, n) == -1)
			fatal("%s: stream_rx_consumed", __func__);
		imsg_event_add(ns_channel());
	}
	nx_arm(x);
}

/* Which pipe waits for what, given credit and what is queued. */
static void
nx_arm(struct nx *x)
{
	int	 want, i;

	for (i = 1; i < 3; i++) {
		want = x->fd[i] != -1 && (!x->tx_open ||
		    stream_tx_avail(&x->tx) > 1);
		if (want && !x->ev_on[i]) {
			event_set(&x->ev[i], x->fd[i], EV_READ | EV_PERSIST,
			    nx_read, x);
			event_base_set(x->base, &x->ev[i]);
			event_add(&x->ev[i], NULL);
			x->ev_on[i] = 1;
		} else if (!want && x->ev_on[i]) {
			event_del(&x->ev[i]);
			x->ev_on[i] = 0;
		}
	}
	if (x->fd[0] == -1)
		return;
	if (evbuffer_get_length(x->in) == 0 && x->in_done) {
		nx_close(x, 0);
		return;
	}
	want = evbuffer_get_length(x->in) > 0;
	if (want && !x->ev_on[0]) {
		event_set(&x->ev[0], x->fd[0], EV_WRITE | EV_PERSIST,
		    nx_write, x);
		event_base_set(x->base, &x->ev[0]);
		event_add(&x->ev[0], NULL);
		x->ev_on[0] = 1;
	} else if (!want && x->ev_on[0]) {
		event_del(&x->ev[0]);
		x->ev_on[0] = 0;
	}
}

/*
 * A limit of the space met while the command ran, in words: what a
 * person sees of it is otherwise a bare 137 or "Cannot fork".
 */
static const char *
nx_limits_met(struct nx *x, char *buf, size_t len)
{
	uint64_t	 oom, forks;

	if (x->space[0] == '\0')
		return NULL;
	ns_cgroup_events(x->space, &oom, &forks);
	if (oom > x->oom)
		snprintf(buf, len, "the space ran out of memory (its limit is "
		    "%llu MiB): the kernel killed a process in it; a space "
		    "made with a larger spacectl create -m has more",
		    (unsigned long long)(x->memory >> 20));
	else if (forks > x->forks)
		snprintf(buf, len, "the space reached its limit of %d "
		    "processes: a fork in it failed; end some of them",
		    NS_PIDS_MAX);
	else
		return NULL;
	return buf;
}

/* Done when the command ended and its output is all out. */
static void
nx_finish(struct nx *x)
{
	char	 why[SPACE_DONE_MESSAGE_MAX];
	int	 code;

	if (!x->exited || x->fd[1] != -1 || x->fd[2] != -1)
		return;
	if (x->tx_open) {
		if (stream_tx_end(&x->tx, &ns_channel()->ibuf,
		    x->timed_out || x->too_large ? -1 : 0) == -1)
			fatal("%s: stream_tx_end", __func__);
		worker_stream_unregister(x->tx.st_id);
		x->tx_open = 0;
	}
	code = WIFEXITED(x->status) ? WEXITSTATUS(x->status) :
	    128 + WTERMSIG(x->status);
	if (x->busy)
		ns_done(x->peerid, ERR_BUSY, "the space's exec helper takes "
		    "no more commands now", -1);
	else if (x->timed_out)
		ns_done(x->peerid, ERR_TIMEOUT, "the command ran past its "
		    "time", -1);
	else if (x->too_large)
		ns_done(x->peerid, ERR_OUTPUT_TOO_LARGE, NULL, -1);
	else
		ns_done(x->peerid, "", nx_limits_met(x, why, sizeof(why)),
		    code);
	nx_free(x);
}

static void
nx_timeout(int fd, short ev, void *arg)
{
	struct nx	*x = arg;

	(void)fd;
	(void)ev;
	x->timed_out = 1;
	nx_kill(x);
	/*
	 * Its first process ended, and with it its keeper: what holds its
	 * output now is no longer known as its.  The time is the limit
	 * all the same: the output is let go, and the exec ends.
	 */
	if (x->exited) {
		nx_close(x, 1);
		nx_close(x, 2);
		nx_finish(x);
	}
}

/*
 * spaced's gauge held each message to the same rules before it came
 * (stream_relay): a failure here is only spaced's bug, never a client's.
 */
static void
nx_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct nx	*x = arg;
	const uint8_t	*data;
	size_t		 len;

	(void)iev;
	if (x->tx_open && imsg_get_peerid(imsg) == x->tx.st_id) {
		if (stream_tx_credit(&x->tx, imsg) == -1)
			fatal("%s: credit", __func__);
		nx_arm(x);
		return;
	}
	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&x->rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		if (x->in_done || x->fd[0] == -1) {
			if (stream_rx_consumed(&x->rx, &ns_channel()->ibuf,
			    len) == -1)
				fatal("%s: consumed", __func__);
			imsg_event_add(ns_channel());
			break;
		}
		if (evbuffer_add(x->in, data, len) == -1)
			fatal("%s: evbuffer_add", __func__);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&x->rx, imsg) == -1)
			fatal("%s: end", __func__);
		worker_stream_unregister(x->rx.sr_id);
		x->rx_open = 0;
		x->in_done = 1;
		break;
	default:
		fatalx("%s: message %u on stdin", __func__,
		    imsg_get_type(imsg));
	}
	nx_arm(x);
}

/* From the SIGCHLD handler: an exec's outer child ended. */
static void
nx_exited(pid_t pid, int status)
{
	size_t	 i;

	for (i = 0; i < EXECS_MAX; i++)
		if (execs[i] != NULL && execs[i]->pid == pid) {
			execs[i]->exited = 1;
			execs[i]->status = status;
			execs[i]->pid = 0;
			nx_finish(execs[i]);
			return;
		}
}

/* From a space's helper: its command ended. */
static void
nx_ended(void *arg, int status)
{
	struct nx	*x = arg;

	x->token = 0;
	x->exited = 1;
	x->status = status;
	nx_finish(x);
}

void
ns_reap(void)
{
	pid_t	 pid;
	int	 status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		nx_exited(pid, status);
}

void
ns_exec_base(struct event_base *base)
{
	nx_base = base;
}

/* exec -t's window: the exec of that peer, when it has a terminal. */
void
ns_exec_resize(uint32_t peerid, uint16_t rows, uint16_t cols)
{
	size_t	 i;

	for (i = 0; i < EXECS_MAX; i++)
		if (execs[i] != NULL && execs[i]->peerid == peerid &&
		    execs[i]->ptm != -1 &&
		    ns_tty_resize(execs[i]->ptm, rows, cols) == -1)
			log_warn("exec: resize");
}

/*
 * exec -t: the master the command sent stands for its stdin and
 * stdout (the output unframed, as the engine's Tty); stderr's pipe
 * carries only what failed before the terminal was there.
 */
static void
tty_take(struct nx *x, int sock)
{
	struct timeval	 tv = { 5, 0 };	/* its first steps take ms */
	int		 ptm;

	if (setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == -1 ||
	    (ptm = ns_tty_master(sock)) == -1)
		return;
	nx_close(x, 0);
	nx_close(x, 1);
	if ((x->fd[0] = dup(ptm)) == -1 || (x->fd[1] = dup(ptm)) == -1 ||
	    fcntl(ptm, F_SETFL, O_NONBLOCK) == -1)
		fatal("%s: dup", __func__);
	x->ptm = ptm;
}

int
ns_exec_cancel(uint32_t peerid)
{
	struct nx	*x;
	size_t		 i;
	int		 n = 0;

	/*
	 * Ended here and now, with no word more on its streams: spaced
	 * lets go of the request and its streams at the acknowledgement.
	 */
	for (i = 0; i < EXECS_MAX; i++) {
		if ((x = execs[i]) == NULL || x->peerid != peerid)
			continue;
		nx_kill(x);
		if (x->tx_open)
			worker_stream_unregister(x->tx.st_id);
		if (x->rx_open)
			worker_stream_unregister(x->rx.sr_id);
		x->tx_open = x->rx_open = 0;
		nx_free(x);
		n++;
	}
	return n;
}

static int
argv_split(struct space_exec_req *se, char **argv, size_t max)
{
	size_t	 i, n = 0, start = 0;

	if (se->se_argc == 0 || se->se_argc >= max ||
	    se->se_argv_len == 0 || se->se_argv_len > SPACE_EXEC_ARGV_MAX ||
	    se->se_argv[se->se_argv_len - 1] != '\0' ||
	    se->se_stdin_len > SPACE_EXEC_STDIN_MAX)
		return -1;
	for (i = 0; i < se->se_argv_len; i++)
		if (se->se_argv[i] == '\0') {
			argv[n++] = se->se_argv + start;
			start = i + 1;
		}
	if (n != se->se_argc)
		return -1;
	argv[n] = NULL;
	return 0;
}

/*
 * A refusal ends the output stream, and both are over here: what the
 * client sent before it heard is dropped (proc.c).  An id registered to
 * another exec is not this request's to end: only a bug sends one.
 */
static void
refuse(const struct space_exec_req *se, uint32_t peerid, const char *code,
    const char *why)
{
	struct stream_tx	 tx;

	if (se->se_out_stream != 0 &&
	    worker_stream_ended(se->se_out_stream) == 0) {
		stream_tx_init(&tx, se->se_out_stream);
		if (stream_tx_end(&tx, &ns_channel()->ibuf, -1) == -1)
			fatal("%s: stream_tx_end", __func__);
	}
	if (se->se_in_stream != 0)
		(void)worker_stream_ended(se->se_in_stream);
	ns_done(peerid, code, why, -1);
}

/*
 * The exec's streams, before anything is made for it.  Neither a full
 * table nor an id in use ends spaced-ns: the request is refused.
 */
static int
nx_streams(struct nx *x, const struct space_exec_req *se, uint32_t peerid)
{
	int	 full;

	if (se->se_out_stream != 0) {
		stream_tx_init(&x->tx, se->se_out_stream);
		if (worker_stream_register(se->se_out_stream, nx_stream,
		    x) == -1)
			goto refused;
		x->tx_open = 1;
	}
	if (se->se_in_stream != 0) {
		stream_rx_init(&x->rx, se->se_in_stream);
		if (worker_stream_register(se->se_in_stream, nx_stream,
		    x) == -1)
			goto refused;
		x->rx_open = 1;
	} else
		x->in_done = 1;
	return 0;
refused:
	full = errno == ENOSPC;
	log_warnx("exec: stream %u or %u: %s", se->se_out_stream,
	    se->se_in_stream, strerror(errno));
	if (x->tx_open)
		worker_stream_unregister(x->tx.st_id);
	x->tx_open = 0;
	refuse(se, peerid, full ? ERR_BUSY : ERR_INTERNAL, full ? "spaced-ns "
	    "carries as many streams as it can now" : NULL);
	return -1;
}

void
ns_exec_start(uint32_t peerid, struct imsg *imsg)
{
	static struct space_exec_req	 se;
	struct ns_space			 ns;
	char				*argv[SPACE_EXEC_ARGC_MAX + 4];
	struct nx			*x;
	int				 in[2], out[2], err[2], fds[3], sp[2];
	int				 rc;
	struct ns_tty			 tty;
	size_t				 i, slot;
	pid_t				 target = 0;
	struct timeval			 tv;
	const char			*why = NULL;
	char				 errmsg[SPACE_DONE_MESSAGE_MAX];

	if (imsg_get_data(imsg, &se, sizeof(se)) == -1 ||
	    memchr(se.se_space.sq_owner, '\0', sizeof(se.se_space.sq_owner)) ==
	    NULL || memchr(se.se_space.sq_id, '\0',
	    sizeof(se.se_space.sq_id)) == NULL ||
	    argv_split(&se, argv, SPACE_EXEC_ARGC_MAX + 1) == -1 ||
	    se.se_target > EXEC_TARGET_GATEKEEPER)
		fatalx("%s: malformed exec", __func__);
	for (slot = 0; slot < EXECS_MAX && execs[slot] != NULL; slot++)
		;
	/* The streams first, whatever the answer: their messages come. */
	if (ns_record_read(se.se_space.sq_id, &ns) == -1)
		why = ERR_SPACE_NOT_FOUND;
	else if (strcmp(ns.ns_owner, se.se_space.sq_owner) != 0)
		why = ERR_SPACE_NOT_FOUND;	/* no space of the caller's */
	else if ((target = ns_pid_read(ns.ns_id, se.se_target ? "gk" :
	    "init")) <= 0)
		why = ERR_SPACE_NOT_RUNNING;
	else if (slot == EXECS_MAX)
		why = ERR_BUSY;
	if (why != NULL) {
		refuse(&se, peerid, why, NULL);
		return;
	}
	/* The control channel is the gatekeeper's private socket here. */
	if (se.se_target && strcmp(argv[0], GK_CLIENT) == 0 &&
	    se.se_argc >= 2 && strcmp(argv[1], "-C") == 0) {
		argv[se.se_argc] = "-k";
		argv[se.se_argc + 1] = NS_GK_CTLDIR;
		argv[se.se_argc + 2] = NULL;
	}
	if ((x = calloc(1, sizeof(*x))) == NULL)
		fatal("%s: calloc", __func__);
	if (nx_streams(x, &se, peerid) == -1) {
		free(x);
		return;
	}
	if ((x->in = evbuffer_new()) == NULL)
		fatal("%s: evbuffer_new", __func__);
	if (pipe2(in, O_CLOEXEC) == -1 || pipe2(out, O_CLOEXEC) == -1 ||
	    pipe2(err, O_CLOEXEC) == -1)
		fatal("%s: pipe2", __func__);
	fds[0] = in[0];
	fds[1] = out[1];
	fds[2] = err[1];
	x->base = nx_base;
	x->ptm = -1;
	x->peerid = peerid;
	x->out_max = se.se_output_max;
	x->fd[0] = in[1];
	x->fd[1] = out[0];
	x->fd[2] = err[0];
	for (i = 0; i < 3; i++)
		if (fcntl(x->fd[i], F_SETFL, O_NONBLOCK) == -1)
			fatal("%s: fcntl", __func__);
	evtimer_set(&x->timer, nx_timeout, x);
	event_base_set(x->base, &x->timer);
	if (!se.se_target) {
		strlcpy(x->space, ns.ns_id, sizeof(x->space));
		x->memory = ns.ns_memory;
		ns_cgroup_events(x->space, &x->oom, &x->forks);
	}
	execs[slot] = x;
	if (se.se_stdin_len > 0 && evbuffer_add(x->in, se.se_stdin,
	    se.se_stdin_len) == -1)
		fatal("%s: evbuffer_add", __func__);
	sp[0] = sp[1] = -1;
	if (se.se_tty && !se.se_target && socketpair(AF_UNIX,
	    SOCK_STREAM | SOCK_CLOEXEC, 0, sp) == -1)
		fatal("%s: socketpair", __func__);
	tty.sock = sp[1];
	tty.rows = se.se_rows;
	tty.cols = se.se_cols;
	if (se.se_target)
		x->pid = ns_enter_exec(&ns, se.se_target, target, argv, fds,
		    sp[1] != -1 ? &tty : NULL);
	else if ((rc = ns_helper_exec(&ns, target, argv, fds, sp[1] != -1 ?
	    &tty : NULL, nx_ended, x, &x->token, errmsg,
	    sizeof(errmsg))) < 0) {
		log_warnx("exec in %s: %s", ns.ns_id, errmsg);
		x->busy = rc == -2;
		x->pid = -1;
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (sp[1] != -1) {
		close(sp[1]);
		if (x->pid != -1)
			tty_take(x, sp[0]);
		close(sp[0]);
	}
	if (x->pid == -1) {
		x->pid = 0;
		x->exited = 1;
		x->status = 126 << 8;
		nx_close(x, 1);
		nx_close(x, 2);
		nx_finish(x);
		return;
	}
	if (se.se_timeout_ms > 0) {
		tv.tv_sec = se.se_timeout_ms / 1000;
		tv.tv_usec = (se.se_timeout_ms % 1000) * 1000;
		evtimer_add(&x->timer, &tv);
	}
	nx_arm(x);
}
