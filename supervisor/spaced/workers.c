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
 * The children of spaced: fork+exec of each worker with its channel on
 * fd 3, the READY handshake, and what happens when one dies.
 */

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

struct child	 children[PROC_MAX];

/*
 * The workers spaced runs; a gatekeeper runs in its space's place.
 * spaced-ns, last, only as root: namespaces and groups are root's.
 */
static const enum procid worker_ids[] = { PROC_DOCKER, PROC_GIT,
    PROC_JOURNAL, PROC_LAUNCH, PROC_NS };
#define NWORKERS_ALL	(sizeof(worker_ids) / sizeof(worker_ids[0]))
#define NWORKERS	(NWORKERS_ALL - (geteuid() == 0 ? 0 : 1))

static void	workers_dispatch(int, short, void *);
/* Where a worker's messages past READY go (spaced.c says: the router). */
static void	(*workers_route)(enum procid, struct imsg *);
static const char	*workers_conf;	/* spaced.conf: spaced-launch's -c */

/*
 * In the child: /dev/null on stdin, the log pipe on stdout and stderr.
 * A worker never holds spaced's own stderr, the log file, which it could
 * write or truncate (docs/privsep.md, "Logs").  Set here for every
 * worker, so no worker's main needs stdfds_open (common/lib/stdfds.c).
 */
static int
worker_stdio(int null, int logw)
{
	if (dup2(null, STDIN_FILENO) == -1 ||
	    dup2(logw, STDOUT_FILENO) == -1 ||
	    dup2(logw, STDERR_FILENO) == -1)
		return -1;
	return 0;
}

/* What a worker wrote, a line at a time, under its name. */
static void
workers_log_lines(struct child *c, int all)
{
	char	 line[sizeof(c->c_logbuf) + 1];
	char	*nl;
	size_t	 off = 0, len;

	for (;;) {
		nl = memchr(c->c_logbuf + off, '\n', c->c_loglen - off);
		if (nl == NULL && (off == c->c_loglen ||
		    (!all && c->c_loglen < sizeof(c->c_logbuf))))
			break;
		len = nl != NULL ? (size_t)(nl - (c->c_logbuf + off)) :
		    c->c_loglen - off;
		memcpy(line, c->c_logbuf + off, len);
		line[len] = '\0';
		/* Escaped there: a worker forges no line of ours. */
		log_relay(proc_title(c->c_id), line);
		off += len + (nl != NULL);
	}
	memmove(c->c_logbuf, c->c_logbuf + off, c->c_loglen - off);
	c->c_loglen -= off;
}

static void
workers_log_read(int fd, short event, void *arg)
{
	struct child	*c = arg;
	ssize_t		 n;

	(void)event;
	n = read(fd, c->c_logbuf + c->c_loglen,
	    sizeof(c->c_logbuf) - c->c_loglen);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0) {
		c->c_loglen += n;
		workers_log_lines(c, 0);
		return;
	}
	workers_log_lines(c, 1);
	event_del(&c->c_logev);
	close(fd);
}

static pid_t
worker_exec(const struct proc *p, const struct spaced_conf *conf, int fd,
    const char *libexec, int debug, int verbose, int null, int logw)
{
	char	 path[PATH_MAX], binary[NAME_MAX + 1], user[LOGIN_NAME_MAX];
	char	 root[PATH_MAX], store[PATH_MAX], native[PATH_MAX];
	char	 file[PATH_MAX], *argv[16];
	int	 argc = 0, i;
	pid_t	 pid;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", libexec,
	    p->p_binary) >= sizeof(path))
		fatalx("%s: path too long", p->p_binary);
	/* execv takes char *: copies, not casts of our constants */
	strlcpy(binary, p->p_binary, sizeof(binary));
	strlcpy(user, p->p_user != NULL ? p->p_user : "", sizeof(user));
	strlcpy(root, p->p_id == PROC_JOURNAL ? conf->sc_store : conf->sc_empty,
	    sizeof(root));
	strlcpy(store, conf->sc_store, sizeof(store));
	argv[argc++] = binary;
	if (debug)
		argv[argc++] = "-d";
	for (i = 0; i < verbose && i < 3; i++)
		argv[argc++] = "-v";
	if (geteuid() == 0 && p->p_user != NULL) {
		argv[argc++] = "-u";
		argv[argc++] = user;
		if (p->p_chroot) {
			argv[argc++] = "-r";
			argv[argc++] = root;
		}
	}
	if (p->p_id == PROC_JOURNAL) {
		argv[argc++] = "-s";
		argv[argc++] = store;
	}
	/* spaced-launch opens spaced.conf at each reload: spaced cannot. */
	if (p->p_id == PROC_LAUNCH && workers_conf[0] != '\0') {
		strlcpy(file, workers_conf, sizeof(file));
		argv[argc++] = "-c";
		argv[argc++] = file;
	}
	/* spaced-ns keeps its records in the state directory's native/. */
	if (p->p_id == PROC_NS) {
		if ((size_t)snprintf(native, sizeof(native), "%s/native",
		    conf->sc_state) >= sizeof(native))
			fatalx("%s: state directory too long", p->p_binary);
		(void)mkdir(conf->sc_state, 0755);
		if (mkdir(native, 0700) == -1 && errno != EEXIST)
			fatal("%s", native);
		argv[argc++] = "-s";
		argv[argc++] = native;
	}
	argv[argc] = NULL;

	switch (pid = fork()) {
	case -1:
		fatal("fork");
	case 0:
		break;
	default:
		return pid;
	}
	/* The child: die with the parent, channel on fd 3, nothing else. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		_exit(1);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	/* fds 0-2 first: null and logw may be 3, which the channel takes. */
	if (worker_stdio(null, logw) == -1)
		_exit(1);
	if (fd != PROC_PARENT_FD) {
		if (dup2(fd, PROC_PARENT_FD) == -1)
			_exit(1);
	} else if (fcntl(fd, F_SETFD, 0) == -1)
		_exit(1);
	closefrom(PROC_PARENT_FD + 1);
	/* An empty environment: nothing of ours leaks into a worker. */
	execve(path, argv, (char *[]){ NULL });
	dprintf(STDERR_FILENO, "spaced: exec %s: %s\n", path, strerror(errno));
	_exit(127);
}

void
workers_start(const struct spaced_conf *conf, const char *conffile,
    struct event_base *base, const char *libexec, int debug, int verbose,
    void (*route)(enum procid, struct imsg *))
{
	struct child	*c;
	size_t		 i;
	int		 sp[2], lp[2], null;

	workers_route = route;
	workers_conf = conffile;
	if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		fatal("/dev/null");
	for (i = 0; i < NWORKERS; i++) {
		c = &children[worker_ids[i]];
		c->c_id = worker_ids[i];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0, sp) == -1)
			fatal("socketpair");
		if (pipe2(lp, O_CLOEXEC) == -1)
			fatal("pipe2");
		c->c_pid = worker_exec(&procs[c->c_id], conf, sp[1], libexec,
		    debug, verbose, null, lp[1]);
		close(sp[1]);
		close(lp[1]);
		if (fcntl(lp[0], F_SETFL, O_NONBLOCK) == -1)
			fatal("fcntl");
		event_set(&c->c_logev, lp[0], EV_READ | EV_PERSIST,
		    workers_log_read, c);
		event_base_set(base, &c->c_logev);
		event_add(&c->c_logev, NULL);
		imsgev_init(&c->c_iev, base, sp[0], workers_dispatch, c);
		/* One rule for both ends: procs[] (common/lib/proc.c). */
		if (procs[c->c_id].p_fdpass)
			imsgbuf_allow_fdpass(&c->c_iev.ibuf);
		imsg_event_add(&c->c_iev);
		log_debug("started %s, pid %d", procs[c->c_id].p_binary,
		    (int)c->c_pid);
	}
	close(null);
}

int
workers_all_ready(void)
{
	size_t	 i;

	for (i = 0; i < NWORKERS; i++)
		if (!children[worker_ids[i]].c_ready)
			return 0;
	return 1;
}

int
worker_compose(enum procid id, uint32_t type, uint32_t peerid, int fd,
    const void *data, size_t len)
{
	struct child	*c = &children[id];

	if (id >= PROC_MAX || c->c_pid == 0 || !c->c_ready) {
		if (fd != -1)
			close(fd);
		errno = ESRCH;
		return -1;
	}
	return imsg_compose_event(&c->c_iev, type, peerid, 0, fd, data, len);
}

static void
workers_dispatch(int fd, short event, void *arg)
{
	struct imsgev		*iev = arg;
	struct child		*c = iev->data;
	struct imsg		 imsg;
	struct worker_ready_info wi;
	const char		*title = proc_title(c->c_id);
	int			 n;

	if (imsgev_handle(&c->c_iev, event) == -1) {
		/*
		 * EOF: the death itself is reported by the SIGCHLD handler.
		 * A broken channel (an fd where none may come, a bad frame)
		 * is a worker we can no longer trust.
		 */
		if (errno != 0)
			fatal("%s: channel", title);
		event_del(&c->c_iev.ev);
		return;
	}
	for (;;) {
		if ((n = imsgbuf_get(&c->c_iev.ibuf, &imsg)) == -1)
			fatal("%s: bad message from %s", __func__, title);
		if (n == 0)
			break;
		if (imsg_get_type(&imsg) == IMSG_WORKER_READY) {
			if (c->c_ready ||
			    imsg_get_data(&imsg, &wi, sizeof(wi)) == -1 ||
			    memchr(wi.wi_landlock, '\0',
			    sizeof(wi.wi_landlock)) == NULL)
				fatalx("%s: bad READY", title);
			c->c_ready = 1;
			strlcpy(c->c_landlock, wi.wi_landlock,
			    sizeof(c->c_landlock));
			log_debug("%s ready", title);
		} else if (!c->c_ready)
			fatalx("%s: message %u before READY", title,
			    imsg_get_type(&imsg));
		else
			workers_route(c->c_id, &imsg);
		imsg_free(&imsg);
	}
	imsg_event_add(&c->c_iev);
}

int
workers_reaped(pid_t pid, int status)
{
	char	 why[128];
	size_t	 i;
	struct child *c = NULL;

	for (i = 0; i < NWORKERS; i++)
		if (children[worker_ids[i]].c_pid == pid)
			c = &children[worker_ids[i]];
	if (c == NULL)
		return 0;
	c->c_pid = 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
		kmsg_seccomp_syscall(pid, why, sizeof(why));
		log_warnx("%s (pid %d) killed by SIGSYS: seccomp, %s",
		    procs[c->c_id].p_binary, (int)pid, why);
	} else if (WIFSIGNALED(status))
		log_warnx("%s (pid %d) killed by signal %d (%s)",
		    procs[c->c_id].p_binary, (int)pid, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		log_warnx("%s (pid %d) exited with status %d",
		    procs[c->c_id].p_binary, (int)pid, WEXITSTATUS(status));
	return 1;
}

void
workers_stop(void)
{
	size_t	 i;

	for (i = 0; i < NWORKERS; i++) {
		struct child *c = &children[worker_ids[i]];

		if (c->c_pid > 0)
			kill(c->c_pid, SIGTERM);
	}
	for (i = 0; i < NWORKERS; i++) {
		struct child *c = &children[worker_ids[i]];

		if (c->c_pid > 0)
			(void)waitpid(c->c_pid, NULL, 0);
		c->c_pid = 0;
	}
}
