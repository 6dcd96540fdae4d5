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
 * The agent's tools on the native place: a folder per tools volume name
 * under <state>/tools, root's and world-readable, filled by a one-shot
 * made like a space (its own gatekeeper, whose allowlist is the npm
 * registry) that runs the Docker place's filler under the host's node.
 * The fill runs in a child of spaced-ns, so exec streams go on meanwhile.
 */

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "ns.h"
#include "tools_frame.h"
#include "tools_key.h"

#define FILL_FILES_MAX		(AGENT_PACKAGES_MAX + 2)
#define FILL_WAITERS		16
#define FILL_FILLER_MAX		(120 * 1024)	/* one argv string */
#define FILL_TIMEOUT_S		(30 * 60)	/* the spec's, as Docker's */
/* The whole child: the one-shot's start and end beside the filler. */
#define FILL_ALARM_S		(FILL_TIMEOUT_S + 5 * 60)
#define FILL_LOG_MAX		(1 << 20)	/* fill.log, then fill.log.1 */
#define FILL_LOG_PIPE		(1 << 20)
#define FILL_CHUNK		65536
#define FILL_GK_CLIENT		"/usr/libexec/spaced/spaced-gatekeeper"
#define FILL_NODE		"/usr/bin/node"	/* the host's, from Debian */

struct fill_file {
	int		 fd;
	uint32_t	 kind;
	uint32_t	 index;
	uint64_t	 size;
};

struct fill_result {
	char		 code[CTL_CODE_MAX];
	char		 msg[SPACE_DONE_MESSAGE_MAX];
	int32_t		 pruned;	/* old folders the child removed */
};

/* One ensure at a time; calls for the same volume wait on it. */
static struct {
	int			 busy;
	struct tools_ensure_req	 te;
	uint32_t		 peers[FILL_WAITERS];
	size_t			 npeers;
	struct fill_file	 files[FILL_FILES_MAX];
	uint32_t		 nfiles;
	int			 answer;	/* the child's pipe */
	pid_t			 child;
	struct ns_space		 oneshot;	/* made before the fork */
	struct event		 ev;
} fl = { .answer = -1 };
static struct event_base	*fl_base;

void
ns_tools_base(struct event_base *base)
{
	fl_base = base;
}

/* The marker rule of the check one-shot, read without following links. */
static enum tools_verdict
marker_read(const char *volume, const char *key)
{
	char	 path[PATH_MAX];
	uint8_t	 buf[TOOLS_MARKER_OUT_MAX + 1];
	ssize_t	 n;
	int	 fd;

	if (ns_tools_path(path, sizeof(path), volume) == -1 ||
	    strlcat(path, "/" SPACE_TOOLS_SUBDIR "/" TOOLS_MARKER, sizeof(path)) >=
	    sizeof(path))
		return TOOLS_VERDICT_REJECT;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK)) == -1)
		return errno == ENOENT ? TOOLS_VERDICT_ABSENT :
		    TOOLS_VERDICT_MISMATCH;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return tools_marker_verdict(1, n < 0 ? 1 : 0, buf, n < 0 ? 0 :
	    (size_t)n, n > TOOLS_MARKER_OUT_MAX, key);
}

static const struct fill_file *
file_find(uint32_t kind, uint32_t index)
{
	uint32_t	 i;

	for (i = 0; i < fl.nfiles; i++)
		if (fl.files[i].kind == kind && fl.files[i].index == index)
			return &fl.files[i];
	return NULL;
}

/* size bytes of fd from its start into out. */
static int
copy_fd(int fd, uint64_t size, int out)
{
	char		 buf[64 * 1024];
	uint64_t	 off = 0;
	ssize_t		 n, w;

	while (off < size) {
		n = pread(fd, buf, size - off < sizeof(buf) ? size - off :
		    sizeof(buf), (off_t)off);
		if (n <= 0)
			return -1;
		off += n;
		for (w = 0; w < n; ) {
			ssize_t	 k = write(out, buf + w, n - w);

			if (k == -1 && errno == EINTR)
				continue;
			if (k <= 0)
				return -1;
			w += k;
		}
	}
	return 0;
}

/* The framed stdin of spaced-filler.js, as spaced-docker sends it. */
static int
frame_send(int out)
{
	const struct agent_profile	*ag = &fl.te.te_profile;
	const struct fill_file		*f, *ca = file_find(TOOLS_FILE_CA, 0);
	char				 pkg[TOOLS_PACKAGE_JSON_MAX + 1];
	char				*hdr;
	size_t				 hlen;
	uint32_t			 i;
	int				 plen, rv;

	if ((plen = tools_package_json(ag, TOOLS_STAGING_DIR, pkg,
	    sizeof(pkg))) == -1 || (hdr = tools_frame_header(ag, fl.te.te_key,
	    (size_t)plen, ca != NULL ? ca->size : 0, &hlen)) == NULL)
		return -1;
	rv = write(out, hdr, hlen) == (ssize_t)hlen &&
	    write(out, pkg, plen) == plen ? 0 : -1;
	free(hdr);
	for (i = 0; rv == 0 && i < ag->ag_npackages; i++) {
		if (ag->ag_packages[i].ap_tarball[0] == '\0')
			continue;
		if ((f = file_find(TOOLS_FILE_PACKED, i)) == NULL ||
		    copy_fd(f->fd, f->size, out) == -1)
			rv = -1;
	}
	if (rv == 0 && ca != NULL)
		rv = copy_fd(ca->fd, ca->size, out);
	return rv;
}

/* The one-shot's gatekeeper lets the corridor reach the registry only. */
static int
registry_only(const struct ns_space *ns)
{
	char *const	 argv[] = { FILL_GK_CLIENT, "-C", "POST", "/network",
	    "-k", NS_GK_CTLDIR, NULL };
	const char	*body = "{\"mode\":\"allowlist\",\"domains\":[\""
	    NS_FILL_REGISTRY "\"]}";
	pid_t		 gk;

	if ((gk = ns_pid_read(ns->ns_id, "gk")) <= 0)
		return -1;
	return ns_run_stdin(ns, EXEC_TARGET_GATEKEEPER, gk, argv, body,
	    strlen(body));
}

/* The filler's last line of output, for the error's message. */
static void
last_line(const char *path, char *out, size_t len)
{
	char	 buf[4096], *s, *e;
	ssize_t	 n;
	off_t	 end;
	int	 fd;

	out[0] = '\0';
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return;
	end = lseek(fd, 0, SEEK_END);
	n = pread(fd, buf, sizeof(buf) - 1, end > (off_t)sizeof(buf) - 1 ?
	    end - (off_t)sizeof(buf) + 1 : 0);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	s = (e = strrchr(buf, '\n')) != NULL ? e + 1 : buf;
	for (e = s; *e != '\0'; e++)
		if (*e < ' ' || *e > '~')
			*e = '?';
	strlcpy(out, s, len);
}

/* fill.log: the filler's output, turned over once at 1 MiB as gk.err. */
struct fill_log {
	const char	*path;
	int		 fd;
	off_t		 size;
};

static void
log_copy(struct fill_log *lg, const char *buf, size_t n)
{
	char	 old[PATH_MAX];

	if (lg->size + (off_t)n > FILL_LOG_MAX) {
		close(lg->fd);
		if ((size_t)snprintf(old, sizeof(old), "%s.1", lg->path) <
		    sizeof(old))
			(void)rename(lg->path, old);
		lg->fd = open(lg->path, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC | O_NOFOLLOW, 0600);
		lg->size = 0;
	}
	if (lg->fd != -1 && write(lg->fd, buf, n) == (ssize_t)n)
		lg->size += n;
}

/* The filler's end, its output copied meanwhile: its exit code, or -1. */
static int
fill_wait(pid_t pid, int rfd, struct fill_log *lg)
{
	char		 buf[FILL_CHUNK];
	struct pollfd	 pfd = { rfd, POLLIN, 0 };
	struct timespec	 start, now;
	ssize_t		 n;
	int		 status, eof = 0;

	(void)fcntl(rfd, F_SETFL, O_NONBLOCK);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (!eof && poll(&pfd, 1, 100) == 1)
			while ((n = read(rfd, buf, sizeof(buf))) > 0)
				log_copy(lg, buf, n);
		else
			n = -1;
		if (n == 0)
			eof = 1;
		else if (eof)
			usleep(100000);
		if (waitpid(pid, &status, WNOHANG) == pid) {
			while (!eof && (n = read(rfd, buf, sizeof(buf))) > 0)
				log_copy(lg, buf, n);
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= FILL_TIMEOUT_S)
			break;
	}
	kill(pid, SIGKILL);
	(void)waitpid(pid, &status, 0);
	return -1;
}

/* The filler in the one-shot: its exit code, or -1. */
static int
filler(const struct ns_space *ns, const char *logpath)
{
	const struct fill_file	*prog = file_find(TOOLS_FILE_FILLER, 0);
	char			 src[FILL_FILLER_MAX + 1];
	char			*argv[] = { FILL_NODE, "-e", src,
	    "spaced-filler", TOOLS_ROOT, TOOLS_STAGING_DIR, NULL };
	struct fill_log		 lg = { logpath, -1, 0 };
	int			 o[2], fds[3], wr, rc;
	pid_t			 pid, init;
	ssize_t			 n;

	if (prog == NULL || prog->size > FILL_FILLER_MAX ||
	    (n = pread(prog->fd, src, prog->size, 0)) != (ssize_t)prog->size ||
	    memchr(src, '\0', n) != NULL)
		return -1;
	src[n] = '\0';
	if ((init = ns_pid_read(ns->ns_id, "init")) <= 0 ||
	    (lg.fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	if (pipe2(o, O_CLOEXEC) == -1) {
		close(lg.fd);
		return -1;
	}
	/* Room for what it says while we write its stdin, as gk.log's. */
	(void)fcntl(o[0], F_SETPIPE_SZ, FILL_LOG_PIPE);
	if (ns_stdin_fds(o[1], fds, &wr) == -1) {
		close(o[0]);
		close(lg.fd);
		return -1;
	}
	pid = ns_enter_exec(ns, EXEC_TARGET_SPACE, init, argv, fds, NULL);
	close(fds[0]);
	close(fds[1]);
	if (pid == -1 || frame_send(wr) == -1)
		log_warnx("tools: the filler's stdin was cut");
	close(wr);
	rc = pid == -1 ? -1 : fill_wait(pid, o[0], &lg);
	close(o[0]);
	if (lg.fd != -1)
		close(lg.fd);
	return rc;
}

static void
fill_fail(struct fill_result *res, const char *code, const char *fmt,
    const char *arg)
{
	strlcpy(res->code, code, sizeof(res->code));
	snprintf(res->msg, sizeof(res->msg), fmt, arg);
}

/* The whole fill, in the child: the one-shot run and gone, then a prune. */
static void
fill_run(struct fill_result *res)
{
	struct ns_space	*nsp = &fl.oneshot;
	struct ns_launch nl;
	char		 final[PATH_MAX], staging[PATH_MAX], hosts[PATH_MAX];
	char		 logpath[PATH_MAX], dir[PATH_MAX], line[160];
	char		 why[SPACE_DONE_MESSAGE_MAX];
	int		 rc;

	memset(res, 0, sizeof(*res));
	if (ns_tools_path(final, sizeof(final), fl.te.te_volume) == -1 ||
	    (size_t)snprintf(staging, sizeof(staging), "%s.fill", final) >=
	    sizeof(staging)) {
		fill_fail(res, ERR_INTERNAL, "the one-shot's folders: %s",
		    strerror(errno));
		if (ns_path(dir, sizeof(dir), nsp->ns_id, NULL) == 0)
			(void)ns_rm_tree(dir);	/* spaced-ns made it */
		return;
	}
	(void)ns_rm_tree(staging);
	(void)ns_path(hosts, sizeof(hosts), nsp->ns_id, "hosts");
	(void)ns_path(logpath, sizeof(logpath), nsp->ns_id, "fill.log");
	memset(&nl, 0, sizeof(nl));
	nl.nl_hosts = hosts;
	nl.nl_tools = staging;
	nl.nl_tools_rw = 1;
	nl.nl_tmp = NS_FILL_TMP;
	why[0] = '\0';
	/* The fill goes in its subfolder, as on Docker (SPACE_TOOLS_ROOT). */
	if (strlcpy(dir, staging, sizeof(dir)) >= sizeof(dir) ||
	    strlcat(dir, "/" SPACE_TOOLS_SUBDIR, sizeof(dir)) >= sizeof(dir) ||
	    mkdir(staging, 0755) == -1 || mkdir(dir, 0700) == -1 ||
	    chown(dir, nsp->ns_uid, nsp->ns_uid) == -1 ||
	    ns_write_file("", hosts, "127.0.0.1\tlocalhost gatekeeper\n"
	    "::1\tlocalhost\n") == -1)
		fill_fail(res, ERR_INTERNAL, "the one-shot's folders: %s",
		    strerror(errno));
	else if (ns_space_run(nsp, &nl, why, sizeof(why)) == -1)
		fill_fail(res, ERR_TOOLS_FILL_FAILED, "the fill's one-shot: %s",
		    why);
	else if (registry_only(nsp) == -1)
		fill_fail(res, ERR_TOOLS_FILL_FAILED, "%s", "the one-shot's "
		    "gatekeeper refused the registry's allowlist");
	else if ((rc = filler(nsp, logpath)) != 0) {
		last_line(logpath, line, sizeof(line));
		snprintf(why, sizeof(why), "the filler failed at %s (exit "
		    "%d): %s", tools_fill_step(rc), rc, line);
		fill_fail(res, ERR_TOOLS_FILL_FAILED, "%s", why);
	}
	/*
	 * Nothing of the fill may run while its tree becomes root's: one
	 * that could swap a folder for a link would aim the walk at the host.
	 */
	if (ns_end_all(nsp->ns_id) == -1 && res->code[0] == '\0')
		fill_fail(res, ERR_INTERNAL, "%s", "the fill's processes "
		    "could not all be ended");
	/* A folder without the key's marker (a fill cut short) goes. */
	if (res->code[0] == '\0')
		(void)ns_rm_tree(final);
	if (res->code[0] == '\0' && (ns_own_tree(staging) == -1 ||
	    rename(staging, final) == -1))
		fill_fail(res, ERR_INTERNAL, "the tools' folder: %s",
		    strerror(errno));
	if (res->code[0] == '\0' && marker_read(fl.te.te_volume,
	    fl.te.te_key) != TOOLS_VERDICT_FILLED)
		fill_fail(res, ERR_TOOLS_FILL_FAILED, "%s", "the filled "
		    "folder holds no marker of its key");
	if (res->code[0] != '\0')
		(void)ns_rm_tree(staging);
	if (ns_path(dir, sizeof(dir), nsp->ns_id, NULL) == 0)
		(void)ns_rm_tree(dir);
	/* Here, not in spaced-ns's loop: a tree is thousands of unlinks. */
	if (res->code[0] == '\0')
		res->pruned = ns_tools_prune(fl.te.te_volume,
		    fl.te.te_key, &fl.te.te_keep);
}

static void
answer(const char *code, const char *msg, int filled, int pruned)
{
	struct tools_done	 td;
	size_t			 i;

	memset(&td, 0, sizeof(td));
	td.td_pruned = pruned;
	strlcpy(td.td_done.sd_code, code, sizeof(td.td_done.sd_code));
	strlcpy(td.td_done.sd_message, msg, sizeof(td.td_done.sd_message));
	td.td_done.sd_exit = -1;
	if (code[0] == '\0') {
		strlcpy(td.td_volume, fl.te.te_volume, sizeof(td.td_volume));
		strlcpy(td.td_key, fl.te.te_key, sizeof(td.td_key));
		td.td_filled = filled;
	}
	for (i = 0; i < fl.npeers; i++)
		ns_reply(IMSG_TOOLS_DONE, fl.peers[i], &td, sizeof(td));
	for (i = 0; i < fl.nfiles; i++)
		close(fl.files[i].fd);
	fl.nfiles = 0;
	fl.npeers = 0;
	fl.busy = 0;
	fl.child = 0;
	if (fl.answer != -1)
		close(fl.answer);
	fl.answer = -1;
}

/*
 * The one-shot of a fill child that died before its own cleanup (its
 * alarm, a kill): its processes, cgroups, folder and staging; its uid free.
 */
static void
oneshot_gone(void)
{
	char	 dir[PATH_MAX];

	if (fl.oneshot.ns_id[0] == '\0')
		return;
	(void)ns_end_all(fl.oneshot.ns_id);
	if (ns_path(dir, sizeof(dir), fl.oneshot.ns_id, NULL) == 0)
		(void)ns_rm_tree(dir);
	if (ns_tools_path(dir, sizeof(dir), fl.te.te_volume) == 0 &&
	    strlcat(dir, ".fill", sizeof(dir)) < sizeof(dir))
		(void)ns_rm_tree(dir);	/* its staging */
	memset(&fl.oneshot, 0, sizeof(fl.oneshot));
}

static void
fill_answer(int fd, short ev, void *arg)
{
	struct fill_result	 res;

	(void)ev;
	(void)arg;
	memset(&res, 0, sizeof(res));
	if (read(fd, &res, sizeof(res)) != (ssize_t)sizeof(res) ||
	    memchr(res.code, '\0', sizeof(res.code)) == NULL ||
	    memchr(res.msg, '\0', sizeof(res.msg)) == NULL ||
	    res.pruned < 0) {
		log_warnx("tools: %s: the fill ended without a word",
		    fl.te.te_volume);
		oneshot_gone();
		answer(ERR_TOOLS_FILL_FAILED, "the fill ended without a word",
		    0, 0);
		return;
	}
	memset(&fl.oneshot, 0, sizeof(fl.oneshot));
	if (res.code[0] != '\0') {
		log_warnx("tools: %s: %s", fl.te.te_volume, res.msg);
		answer(res.code, res.msg, 1, 0);
		return;
	}
	log_info("tools: %s filled, %d old folders pruned", fl.te.te_volume,
	    (int)res.pruned);
	answer(res.code, res.msg, 1, res.pruned);
}

/*
 * The fill's child keeps nothing of spaced-ns's but its answer pipe and
 * the fill's files: no exec's stdin or terminal (their EOF would wait
 * for the fill), no channel to spaced, no signal handler or event loop
 * of the parent's (a shared epoll set would take in the child's fds).
 * Its own loop (poll: no fd of its own) is never run.
 */
static int
fill_child_alone(int out)
{
	struct event_config	*cfg;
	struct event_base	*base = NULL;
	int			 keep[1 + FILL_FILES_MAX];
	size_t			 n = 0, i;
	sigset_t		 alrm;

	keep[n++] = out;
	for (i = 0; i < fl.nfiles; i++)
		keep[n++] = fl.files[i].fd;
	ns_close_all_but(keep, n);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, SIG_DFL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	if ((cfg = event_config_new()) != NULL &&
	    event_config_avoid_method(cfg, "epoll") == 0)
		base = event_base_new_with_config(cfg);
	if (cfg != NULL)
		event_config_free(cfg);
	if (base == NULL)
		return -1;
	ns_exec_base(base);
	ns_helper_base(base);
	ns_gklog_base(base);
	ns_tools_base(base);
	return 0;
}

/* All files are in: the folder as it is, or a fill in a child. */
static void
fill_start(void)
{
	struct fill_result	 res;
	char			 dir[PATH_MAX];
	int			 p[2];
	pid_t			 parent;

	if (marker_read(fl.te.te_volume, fl.te.te_key) ==
	    TOOLS_VERDICT_FILLED) {
		answer("", "", 0, 0);
		return;
	}
	if (file_find(TOOLS_FILE_FILLER, 0) == NULL ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/%s", ns_state(),
	    NS_TOOLS_DIR) >= sizeof(dir) ||
	    (mkdir(dir, 0755) == -1 && errno != EEXIST) ||
	    pipe2(p, O_CLOEXEC) == -1) {
		answer(ERR_TOOLS_FILL_FAILED, "the fill cannot start", 0, 0);
		return;
	}
	/* Made here, so a child that dies early leaves nothing behind. */
	if (ns_space_new(&fl.oneshot, NS_FILL_MEMORY) == -1) {
		close(p[0]);
		close(p[1]);
		oneshot_gone();
		answer(ERR_INTERNAL, "the one-shot's folders", 0, 0);
		return;
	}
	log_info("tools: filling %s", fl.te.te_volume);
	parent = getpid();
	switch (fl.child = fork()) {
	case -1:
		close(p[0]);
		close(p[1]);
		oneshot_gone();
		answer(ERR_INTERNAL, "fork", 0, 0);
		return;
	case 0:
		close(p[0]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != parent || fill_child_alone(p[1]) == -1)
			_exit(1);
		/* A time cap on all of it: its one-shot dies with it. */
		alarm(FILL_ALARM_S);
		fill_run(&res);
		_exit(write(p[1], &res, sizeof(res)) == (ssize_t)sizeof(res) ?
		    0 : 1);
	}
	close(p[1]);
	fl.answer = p[0];
	event_set(&fl.ev, fl.answer, EV_READ, fill_answer, NULL);
	event_base_set(fl_base, &fl.ev);
	event_add(&fl.ev, NULL);
}

/* Another volume's fill runs: this one is asked again later. */
static void
busy(uint32_t peerid)
{
	struct tools_done	 td;

	memset(&td, 0, sizeof(td));
	strlcpy(td.td_done.sd_code, ERR_BUSY, sizeof(td.td_done.sd_code));
	strlcpy(td.td_done.sd_message, "another tools fill of the native "
	    "place runs", sizeof(td.td_done.sd_message));
	td.td_done.sd_exit = -1;
	ns_reply(IMSG_TOOLS_DONE, peerid, &td, sizeof(td));
}

void
ns_tools_ensure(uint32_t peerid, struct imsg *imsg)
{
	struct tools_ensure_req	 te;

	if (imsg_get_data(imsg, &te, sizeof(te)) == -1 ||
	    memchr(te.te_volume, '\0', sizeof(te.te_volume)) == NULL ||
	    memchr(te.te_key, '\0', sizeof(te.te_key)) == NULL ||
	    !tools_key_valid(te.te_key) || te.te_nfiles == 0 ||
	    te.te_nfiles > FILL_FILES_MAX ||
	    tools_keep_valid(&te.te_keep) == -1 ||
	    agent_profile_check(&te.te_profile) != NULL)
		fatalx("%s: malformed tools request", __func__);
	if (fl.busy) {
		if (strcmp(te.te_volume, fl.te.te_volume) != 0 ||
		    fl.npeers == FILL_WAITERS) {
			busy(peerid);
			return;
		}
		fl.peers[fl.npeers++] = peerid;	/* its files are dropped */
		return;
	}
	fl.busy = 1;
	fl.te = te;
	fl.peers[0] = peerid;
	fl.npeers = 1;
	fl.nfiles = 0;
}

void
ns_tools_file(uint32_t peerid, struct imsg *imsg)
{
	struct tools_file_msg	 tf;
	struct stat		 sb;
	int			 fd = imsg_get_fd(imsg);

	if (imsg_get_data(imsg, &tf, sizeof(tf)) == -1)
		fatalx("%s: bad tools file message", __func__);
	/* A waiter's files, or a refused call's: the leader's will do. */
	if (!fl.busy || fl.child != 0 || peerid != fl.peers[0]) {
		if (fd != -1)
			close(fd);
		return;
	}
	if (fd == -1 || fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size != tf.tf_size ||
	    fl.nfiles == FILL_FILES_MAX) {
		if (fd != -1)
			close(fd);
		answer(ERR_TOOLS_FILL_FAILED, "a file of the fill is not "
		    "what spaced hashed", 0, 0);
		return;
	}
	fl.files[fl.nfiles].fd = fd;
	fl.files[fl.nfiles].kind = tf.tf_kind;
	fl.files[fl.nfiles].index = tf.tf_index;
	fl.files[fl.nfiles++].size = tf.tf_size;
	if (fl.nfiles == fl.te.te_nfiles)
		fill_start();
}

/* A folder's state, as the Docker place reads a volume's marker. */
static uint32_t
folder_state(const char *volume, const char *key)
{
	if (fl.busy && strcmp(fl.te.te_volume, volume) == 0)
		return TOOLS_STATE_UNKNOWN;	/* a fill works on it */
	switch (marker_read(volume, key)) {
	case TOOLS_VERDICT_FILLED:
		return TOOLS_STATE_FILLED;
	case TOOLS_VERDICT_ABSENT:
		return TOOLS_STATE_EMPTY;
	case TOOLS_VERDICT_MISMATCH:
		return TOOLS_STATE_MISMATCH;
	default:
		return TOOLS_STATE_UNKNOWN;
	}
}

/*
 * spacectl tools: the owner's tools folders (spaced-tools-<install>-
 * <uid>-<key>, as tools_volume_name makes them), with their state.
 * Which spaces mount one is not kept: none is named.
 */
void
ns_tools_list(uint32_t peerid, struct imsg *imsg)
{
	struct tools_ensure_req		 te;
	struct tools_volume_info	 vi;
	struct tools_done		 td;
	char				 dir[PATH_MAX], prefix[TOOLS_MSG_VOLUME_MAX];
	char				*c;
	const char			*key;
	struct dirent			*de;
	struct stat			 st;
	DIR				*d;

	if (imsg_get_data(imsg, &te, sizeof(te)) == -1 ||
	    memchr(te.te_owner, '\0', sizeof(te.te_owner)) == NULL ||
	    (c = strchr(te.te_owner, ':')) == NULL)
		fatalx("%s: malformed tools list request", __func__);
	*c = '-';
	if ((size_t)snprintf(prefix, sizeof(prefix), "spaced-tools-%s-",
	    te.te_owner) >= sizeof(prefix) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/%s", ns_state(),
	    NS_TOOLS_DIR) >= sizeof(dir))
		fatalx("%s: owner", __func__);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 ||
			    strlen(de->d_name) >= sizeof(vi.tv_name) ||
			    !tools_key_valid(key = de->d_name +
			    strlen(prefix)) || fstatat(dirfd(d), de->d_name,
			    &st, AT_SYMLINK_NOFOLLOW) == -1 ||
			    !S_ISDIR(st.st_mode))
				continue;
			memset(&vi, 0, sizeof(vi));
			strlcpy(vi.tv_name, de->d_name, sizeof(vi.tv_name));
			strlcpy(vi.tv_key, key, sizeof(vi.tv_key));
			strftime(vi.tv_created, sizeof(vi.tv_created),
			    "%Y-%m-%dT%H:%M:%SZ", gmtime(&st.st_mtime));
			vi.tv_state = folder_state(vi.tv_name, key);
			ns_reply(IMSG_TOOLS_VOLUME, peerid, &vi, sizeof(vi));
		}
		closedir(d);
	}
	memset(&td, 0, sizeof(td));
	td.td_done.sd_exit = -1;
	ns_reply(IMSG_TOOLS_DONE, peerid, &td, sizeof(td));
}
