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
 * spaced-launch: starts one spaced-git for a repository, as its owner,
 * on a channel spaced made: the fork, exec and credential change spaced
 * gave up (docs/privsep.md).  The owner's entry is read from /etc/passwd
 * (no NSS: a module could open sockets); the repository never is.
 */

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/capability.h>

#include <dirent.h>
#include <errno.h>
#include <event.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "git_proto.h"
#include "log.h"
#include "proc.h"
#include "sandbox.h"
#include "launch.h"

#define LAUNCH_CHILDREN_MAX	32	/* spaced keeps fewer instances */
#define LAUNCH_GROUPS_MAX	64	/* a caller's groups we look at */
#define PASSWD_FILE		"/etc/passwd"
#define QR_CAPS	(1ULL << CAP_SETUID | 1ULL << CAP_SETGID | 1ULL << CAP_SYS_CHROOT)
#define GROUP_FILE		"/etc/group"

/* A spaced-git we started, and spaced's id of that instance. */
struct launch_child {
	pid_t		 lc_pid;	/* 0: a free slot */
	uint32_t	 lc_id;
};

/*
 * Where a child got to before spaced-git's exec, and its errno: in a
 * page shared with it (an exec leaves it behind, so spaced-git never
 * sees it), read once the child is reaped.
 */
struct launch_report {
	int32_t		 lp_step;	/* enum launch_step */
	int32_t		 lp_errno;	/* 0: no step failed */
};

/* A caller, as the kernel would judge their look at a directory. */
struct launch_caller {
	uid_t		 lk_uid;
	gid_t		 lk_gids[LAUNCH_GROUPS_MAX];
	size_t		 lk_ngids;
};

/* spaced-launch's environment. */
static struct launch_env {
	struct launch_child ln_children[LAUNCH_CHILDREN_MAX];
	struct launch_report *ln_reports;	/* one a slot, shared */
	char		 ln_git_path[PATH_MAX];	/* spaced-git, beside us */
	struct imsgev	*ln_parent;
	struct event	 ln_sigchld;
} env;

/*
 * The capabilities of a launch and no more: the credential change, a
 * look at any directory's inode (for a plain caller, only where they
 * could look: caller_stat), and the end of a spaced-git of another uid.
 * spaced-git lives beside us.
 */
static void
launch_prewarm(void)
{
	char	 self[PATH_MAX], *slash;
	ssize_t	 n;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		fatal("readlink /proc/self/exe");
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		fatalx("odd path of ourselves: %s", self);
	*slash = '\0';
	if ((size_t)snprintf(env.ln_git_path, sizeof(env.ln_git_path),
	    "%s/spaced-git", self) >= sizeof(env.ln_git_path))
		fatalx("path of spaced-git too long");
	if ((env.ln_reports = mmap(NULL, sizeof(struct launch_report) *
	    LAUNCH_CHILDREN_MAX, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_ANONYMOUS, -1, 0)) == MAP_FAILED)
		fatal("mmap");
	/*
	 * A quarantine's spaced-git gets QR_CAPS, to chroot and drop: they
	 * stay in the bounding set, which a repository's spaced-git loses
	 * again (CAP_SETPCAP, child_exec).
	 */
	if (geteuid() == 0)
		sandbox_caps_limit_pass(QR_CAPS | 1ULL << CAP_SETPCAP |
		    1ULL << CAP_DAC_READ_SEARCH | 1ULL << CAP_KILL, 1, QR_CAPS);
}

static int
child_slot(pid_t pid)
{
	int	 i;

	for (i = 0; i < LAUNCH_CHILDREN_MAX; i++)
		if (env.ln_children[i].lc_pid == pid)
			return i;
	return -1;
}

static void
reply(struct imsgev *iev, uint32_t peerid, pid_t pid, uid_t uid,
    const char *code, const char *fmt, ...)
{
	struct launch_git_rep	 lr;
	va_list			 ap;

	memset(&lr, 0, sizeof(lr));
	lr.lr_pid = pid;
	lr.lr_uid = uid;
	if (code != NULL) {
		strlcpy(lr.lr_code, code, sizeof(lr.lr_code));
		va_start(ap, fmt);
		vsnprintf(lr.lr_message, sizeof(lr.lr_message), fmt, ap);
		va_end(ap);
	}
	imsg_compose_event(iev, IMSG_LAUNCH_GIT_REP, peerid, 0, -1, &lr,
	    sizeof(lr));
}

/* The owner's entry, read from the file each time: users come and go. */
static int
owner_lookup(uid_t uid, gid_t *gid, char *home, size_t homelen)
{
	struct passwd	*pw;
	FILE		*f;
	int		 found = 0;

	if ((f = fopen(PASSWD_FILE, "re")) == NULL)
		return -1;
	while ((pw = fgetpwent(f)) != NULL)
		if (pw->pw_uid == uid) {
			*gid = pw->pw_gid;
			found = strlcpy(home, pw->pw_dir, homelen) < homelen &&
			    home[0] == '/';
			break;
		}
	fclose(f);
	return found ? 0 : -1;
}

/* The caller's primary group and those of /etc/group that name them. */
static void
caller_lookup(uid_t uid, struct launch_caller *lk)
{
	struct passwd	*pw;
	struct group	*gr;
	FILE		*f;
	char		 name[256] = "";
	size_t		 i;

	lk->lk_uid = uid;
	lk->lk_ngids = 0;
	if ((f = fopen(PASSWD_FILE, "re")) == NULL)
		return;
	while ((pw = fgetpwent(f)) != NULL)
		if (pw->pw_uid == uid) {
			lk->lk_gids[lk->lk_ngids++] = pw->pw_gid;
			strlcpy(name, pw->pw_name, sizeof(name));
			break;
		}
	fclose(f);
	if (name[0] == '\0' || (f = fopen(GROUP_FILE, "re")) == NULL)
		return;
	while ((gr = fgetgrent(f)) != NULL &&
	    lk->lk_ngids < LAUNCH_GROUPS_MAX)
		for (i = 0; gr->gr_mem[i] != NULL; i++)
			if (strcmp(gr->gr_mem[i], name) == 0) {
				lk->lk_gids[lk->lk_ngids++] = gr->gr_gid;
				break;
			}
	fclose(f);
}

/* Whether the caller may search the directory (its mode bits). */
static int
caller_searches(const struct launch_caller *lk, const struct stat *sb)
{
	size_t	 i;

	if (sb->st_uid == lk->lk_uid)
		return (sb->st_mode & S_IXUSR) != 0;
	for (i = 0; i < lk->lk_ngids; i++)
		if (sb->st_gid == lk->lk_gids[i])
			return (sb->st_mode & S_IXGRP) != 0;
	return (sb->st_mode & S_IXOTH) != 0;
}

/*
 * The folder a plain caller names, looked at as far as they could look
 * themselves: each folder on the way must be one they may search, and
 * no component a symlink (their client resolved the path), so a folder
 * they cannot reach reads as missing, never as someone's (the oracle
 * of docs/privsep.md).  Component by component, so nothing swapped in
 * behind the walk is followed.  -1: as if missing.
 */
static int
caller_stat(uid_t uid, const char *dir, struct stat *sb)
{
	struct launch_caller	 lk;
	char			 path[GIT_DIR_MAX], *comp, *next;
	int			 fd, nfd;

	if (strlcpy(path, dir, sizeof(path)) >= sizeof(path))
		return -1;
	caller_lookup(uid, &lk);
	if ((fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    fstat(fd, sb) == -1) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	for (comp = path + 1; *comp != '\0'; comp = next) {
		if ((next = strchr(comp, '/')) != NULL)
			*next++ = '\0';
		else
			next = comp + strlen(comp);
		if (!caller_searches(&lk, sb)) {
			close(fd);
			return -1;
		}
		nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		close(fd);
		if ((fd = nfd) == -1 || fstat(fd, sb) == -1) {
			if (fd != -1)
				close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* The folder named, as root sees it or as the caller could. */
static int
folder_stat(const struct launch_git_req *lg, struct stat *sb)
{
	if (lg->lg_any_owner)
		return stat(lg->lg_dir, sb);
	return caller_stat(lg->lg_caller, lg->lg_dir, sb);
}

/*
 * A spaced-git is its owner's process: /dev/null on fds 0-2, not our
 * stderr, which spaced reads and logs (docs/privsep.md, "Logs").  A
 * sanitized build (make SANITIZE=1, tests only) keeps our stderr, so
 * that a report of the runtime's, which ends the process, is seen.
 */
#ifdef __SANITIZE_ADDRESS__
#define CHILD_NULL_LAST	STDOUT_FILENO
#else
#define CHILD_NULL_LAST	STDERR_FILENO
#endif
static int
child_stdio(void)
{
	int	 null, i;

	if ((null = open("/dev/null", O_RDWR)) == -1)
		return -1;
	for (i = STDIN_FILENO; i <= CHILD_NULL_LAST; i++)
		if (null != i && dup2(null, i) == -1)
			return -1;
	return 0;	/* null itself goes with closefrom */
}

/*
 * What each child does first: it dies with spaced-launch, takes the
 * default signal actions and child_stdio, and keeps the channel alone,
 * on fd 3.  -1: the child ends.
 */
static int
child_begin(int fd)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return -1;
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (child_stdio() == -1 || dup2(fd, PROC_PARENT_FD) == -1)
		return -1;
	closefrom(PROC_PARENT_FD + 1);
	return 0;
}

/* Out of the bounding set, for good, in a child about to exec. */
static int
bounding_drop(uint64_t caps)
{
	int	 cap;

	for (cap = 0; cap < 64; cap++)
		if ((caps & 1ULL << cap) != 0 &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
			return -1;
	return 0;
}

/* The child ends at this step, which spaced hears with its errno. */
static __dead void
child_fail(struct launch_report *lp, enum launch_step step)
{
	lp->lp_step = step;
	lp->lp_errno = errno != 0 ? errno : EINVAL;
	_exit(step == LAUNCH_STEP_EXEC ? 127 : 1);
}

/*
 * The child: the owner's credentials and nothing more, then spaced-git.
 * The change of uid drops our capabilities (launch_prewarm); as uid 0
 * (a repository of root's) the locked NOROOT bit and the empty bounding
 * set keep the exec from granting any.
 */
static __dead void
child_exec(int fd, uid_t uid, gid_t gid, const char *home, const char *dir,
    struct launch_report *lp)
{
	char	 env_home[PATH_MAX + 8], dirbuf[PATH_MAX];
	char	*argv[] = { "spaced-git", "-g", dirbuf, NULL };
	char	*envp[] = { env_home, NULL };

	errno = ENAMETOOLONG;
	if (strlcpy(dirbuf, dir, sizeof(dirbuf)) >= sizeof(dirbuf) ||
	    child_begin(fd) == -1)
		child_fail(lp, LAUNCH_STEP_CHANNEL);
	if (geteuid() == 0 && (bounding_drop(QR_CAPS) == -1 ||
	    bounding_drop(1ULL << CAP_SETPCAP) == -1))
		child_fail(lp, LAUNCH_STEP_BOUNDING);
	/*
	 * A plain spaced's child is its user already (launch_git): it has
	 * no right to set groups, and setgroups failing ended every code in.
	 */
	if (geteuid() == 0 && (setgroups(1, &gid) == -1 ||
	    setresgid(gid, gid, gid) == -1 || setresuid(uid, uid, uid) == -1))
		child_fail(lp, LAUNCH_STEP_CREDENTIALS);
	/* A credential change clears the death signal: again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		child_fail(lp, LAUNCH_STEP_DEATHSIG);
	/* HOME: where libgit2 finds the owner's global config and ignores. */
	snprintf(env_home, sizeof(env_home), "HOME=%s", home);
	execve(env.ln_git_path, argv, envp);
	child_fail(lp, LAUNCH_STEP_EXEC);
}

static void
launch_git(struct imsgev *iev, struct imsg *imsg)
{
	struct launch_git_req	 lg;
	struct stat		 sb;
	char			 home[PATH_MAX];
	uint32_t		 peerid = imsg_get_peerid(imsg);
	gid_t			 gid;
	pid_t			 pid;
	int			 fd = imsg_get_fd(imsg), slot;

	if (fd == -1 || imsg_get_data(imsg, &lg, sizeof(lg)) == -1 ||
	    memchr(lg.lg_dir, '\0', sizeof(lg.lg_dir)) == NULL ||
	    lg.lg_dir[0] != '/' || lg.lg_any_owner > 1)
		fatalx("%s: bad launch request", __func__);
	if ((slot = child_slot(0)) == -1) {
		close(fd);
		reply(iev, peerid, 0, 0, ERR_BUSY, "too many spaced-git");
		return;
	}
	if (folder_stat(&lg, &sb) == -1 || !S_ISDIR(sb.st_mode)) {
		close(fd);
		reply(iev, peerid, 0, 0, ERR_PROJECT_FOLDER_MISSING,
		    "%s is not a folder", lg.lg_dir);
		return;
	}
	if (!lg.lg_any_owner && sb.st_uid != lg.lg_caller) {
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_REPOSITORY_NOT_OWNED,
		    "%s belongs to uid %u: bring in only your own "
		    "repositories", lg.lg_dir, (unsigned)sb.st_uid);
		return;
	}
	if (geteuid() != 0 && sb.st_uid != geteuid()) {
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_REPOSITORY_NOT_OWNED,
		    "%s belongs to uid %u: spaced runs as uid %u, and a plain "
		    "user's spaced brings in only that user's repositories",
		    lg.lg_dir, (unsigned)sb.st_uid, (unsigned)geteuid());
		return;
	}
	if (owner_lookup(sb.st_uid, &gid, home, sizeof(home)) == -1) {
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_CODE_IN_FAILED,
		    "the owner of %s, uid %u, has no home in " PASSWD_FILE,
		    lg.lg_dir, (unsigned)sb.st_uid);
		return;
	}
	memset(&env.ln_reports[slot], 0, sizeof(env.ln_reports[slot]));
	switch (pid = fork()) {
	case -1:
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_CODE_IN_FAILED,
		    "fork: %s", strerror(errno));
		return;
	case 0:
		child_exec(fd, sb.st_uid, gid, home, lg.lg_dir,
		    &env.ln_reports[slot]);
	}
	close(fd);
	env.ln_children[slot].lc_pid = pid;
	env.ln_children[slot].lc_id = peerid;
	log_debug("spaced-git %d for %s as uid %u", (int)pid, lg.lg_dir,
	    (unsigned)sb.st_uid);
	reply(iev, peerid, pid, sb.st_uid, NULL, NULL);
}

/* The quarantine's user, from the file (no NSS); a plain spaced's own. */
static int
quarantine_ids(uid_t *uid, gid_t *gid)
{
	struct passwd	*pw;
	FILE		*f;
	int		 found = 0;

	if (geteuid() != 0) {
		*uid = getuid();
		*gid = getgid();
		return 0;
	}
	if ((f = fopen(PASSWD_FILE, "re")) == NULL)
		return -1;
	while ((pw = fgetpwent(f)) != NULL)
		if (strcmp(pw->pw_name, QUARANTINE_USER) == 0) {
			*uid = pw->pw_uid;
			*gid = pw->pw_gid;
			found = pw->pw_uid != 0;
			break;
		}
	fclose(f);
	return found ? 0 : -1;
}

/* A space id: twelve lowercase hex digits, nothing else. */
static int
qr_space_valid(const char *id)
{
	size_t	 i;

	for (i = 0; id[i] != '\0'; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		    (id[i] >= 'a' && id[i] <= 'f')))
			return 0;
	return i == 12;
}

static void
qr_req_take(struct imsg *imsg, struct launch_qr_req *lq)
{
	if (imsg_get_data(imsg, lq, sizeof(*lq)) == -1 ||
	    memchr(lq->lq_space, '\0', sizeof(lq->lq_space)) == NULL ||
	    memchr(lq->lq_state, '\0', sizeof(lq->lq_state)) == NULL ||
	    lq->lq_state[0] != '/' || !qr_space_valid(lq->lq_space))
		fatalx("%s: bad quarantine request", __func__);
}

/*
 * The quarantine's folder, its group the quarantine's (made with that
 * gid: no chown), entered: no link followed on the way.  -1: errno.
 */
static int
qr_enter(const struct launch_qr_req *lq)
{
	int	 sfd, qfd, fd;

	if ((sfd = open(lq->lq_state, O_PATH | O_DIRECTORY | O_CLOEXEC)) ==
	    -1)
		return -1;
	(void)mkdirat(sfd, QUARANTINE_DIR, 0711);
	qfd = openat(sfd, QUARANTINE_DIR, O_PATH | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	close(sfd);
	if (qfd == -1)
		return -1;
	(void)mkdirat(qfd, lq->lq_space, 0770);
	fd = openat(qfd, lq->lq_space, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	close(qfd);
	if (fd == -1)
		return -1;
	if (fchmod(fd, 0770) == -1 && errno != EPERM) {
		close(fd);
		return -1;
	}
	if (fchdir(fd) == -1) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The child: the quarantine's gid, its folder as the working
 * directory, and (as root) the three capabilities spaced-git needs to
 * chroot there and become the quarantine's uid; no HOME, no config.
 */
static __dead void
qr_child_exec(int fd, const struct launch_qr_req *lq, uid_t uid, gid_t gid,
    struct launch_report *lp)
{
	char	 uids[16], gids[16];
	char	*argv[] = { "spaced-git", "-Q", uids, gids, NULL };
	char	*envp[] = { NULL };

	snprintf(uids, sizeof(uids), "%u", (unsigned)uid);
	snprintf(gids, sizeof(gids), "%u", (unsigned)gid);
	if (child_begin(fd) == -1)
		child_fail(lp, LAUNCH_STEP_CHANNEL);
	if (geteuid() == 0 && (setgroups(1, &gid) == -1 ||
	    setresgid(gid, gid, gid) == -1))
		child_fail(lp, LAUNCH_STEP_CREDENTIALS);
	if (qr_enter(lq) == -1)
		child_fail(lp, LAUNCH_STEP_QR_FOLDER);
	if (geteuid() == 0 && sandbox_caps_hand(QR_CAPS) == -1)
		child_fail(lp, LAUNCH_STEP_QR_CAPS);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		child_fail(lp, LAUNCH_STEP_DEATHSIG);
	execve(env.ln_git_path, argv, envp);
	child_fail(lp, LAUNCH_STEP_EXEC);
}

static void
launch_quarantine(struct imsgev *iev, struct imsg *imsg)
{
	struct launch_qr_req	 lq;
	uint32_t		 peerid = imsg_get_peerid(imsg);
	uid_t			 uid;
	gid_t			 gid;
	pid_t			 pid;
	int			 fd = imsg_get_fd(imsg), slot;

	if (fd == -1)
		fatalx("%s: no channel", __func__);
	qr_req_take(imsg, &lq);
	if ((slot = child_slot(0)) == -1) {
		close(fd);
		reply(iev, peerid, 0, 0, ERR_BUSY, "too many spaced-git");
		return;
	}
	if (quarantine_ids(&uid, &gid) == -1) {
		close(fd);
		reply(iev, peerid, 0, 0, ERR_CODE_OUT_FAILED, "no user "
		    QUARANTINE_USER " in " PASSWD_FILE);
		return;
	}
	memset(&env.ln_reports[slot], 0, sizeof(env.ln_reports[slot]));
	switch (pid = fork()) {
	case -1:
		close(fd);
		reply(iev, peerid, 0, uid, ERR_CODE_OUT_FAILED, "fork: %s",
		    strerror(errno));
		return;
	case 0:
		qr_child_exec(fd, &lq, uid, gid, &env.ln_reports[slot]);
	}
	close(fd);
	env.ln_children[slot].lc_pid = pid;
	env.ln_children[slot].lc_id = peerid;
	log_debug("spaced-git %d in the quarantine of %s", (int)pid,
	    lq.lq_space);
	reply(iev, peerid, pid, uid, NULL, NULL);
}

/* rm -r of what fd holds, by the quarantine's own uid (a child). */
static int
qr_empty(int dfd, int depth)
{
	DIR		*d;
	struct dirent	*de;
	int		 fd, rc = 0;

	if (depth > 64 || (d = fdopendir(dfd)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			continue;
		if ((fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1 || qr_empty(fd, depth + 1) ==
		    -1 || unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) == -1)
			rc = -1;
	}
	closedir(d);
	return rc;
}

/*
 * remove: the space's quarantine goes.  Its contents belong to the
 * quarantine's uid: a child of that uid empties it, then the folder
 * (root's) goes.  Nothing to answer: a remove does not wait for it.
 */
static void
launch_quarantine_remove(struct imsg *imsg)
{
	struct launch_qr_req	 lq;
	char			 path[PATH_MAX];
	uid_t			 uid;
	gid_t			 gid;
	pid_t			 pid;
	int			 status, fd;

	qr_req_take(imsg, &lq);
	if (quarantine_ids(&uid, &gid) == -1 ||
	    (size_t)snprintf(path, sizeof(path), "%s/" QUARANTINE_DIR "/%s",
	    lq.lq_state, lq.lq_space) >= sizeof(path))
		return;
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return;
	switch (pid = fork()) {
	case -1:
		close(fd);
		return;
	case 0:
		if (geteuid() == 0 && (setgroups(1, &gid) == -1 ||
		    setresgid(gid, gid, gid) == -1 ||
		    setresuid(uid, uid, uid) == -1))
			_exit(1);
		_exit(qr_empty(fd, 0) == 0 ? 0 : 1);
	}
	close(fd);
	/* A few files of git's: this is short, and nothing else waits. */
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (rmdir(path) == -1)
		log_warn("quarantine %s", lq.lq_space);
}

static void
launch_kill(struct imsgev *iev, struct imsg *imsg)
{
	struct launch_exit	 le;
	int			 slot;

	if (imsg_get_data(imsg, &le, sizeof(le)) == -1)
		fatalx("%s: bad kill request", __func__);
	/*
	 * Ours and not reaped (alive or a zombie), of the instance spaced
	 * names, or nothing: never a pid we did not start, nor its reuse.
	 */
	if (le.le_pid > 0 && (slot = child_slot(le.le_pid)) != -1 &&
	    env.ln_children[slot].lc_id == imsg_get_peerid(imsg))
		(void)kill(le.le_pid, SIGKILL);
}

static void
on_sigchld(int sig, short event, void *arg)
{
	struct launch_exit	 le;
	pid_t			 pid;
	uint32_t		 id;
	int			 status, slot;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if ((slot = child_slot(pid)) == -1)
			continue;
		id = env.ln_children[slot].lc_id;
		env.ln_children[slot].lc_pid = 0;
		memset(&le, 0, sizeof(le));
		le.le_pid = pid;
		le.le_status = status;
		/* A step it failed at; after the exec, spaced-git's own end. */
		if (env.ln_reports[slot].lp_errno != 0) {
			le.le_step = env.ln_reports[slot].lp_step;
			le.le_errno = env.ln_reports[slot].lp_errno;
		}
		/* Its instance's id: spaced counts it until this word. */
		imsg_compose_event(env.ln_parent, IMSG_LAUNCH_EXITED, id, 0,
		    -1, &le, sizeof(le));
	}
}

static void
launch_dispatch(struct imsgev *iev, struct imsg *imsg)
{
	env.ln_parent = iev;
	switch (imsg_get_type(imsg)) {
	case IMSG_LAUNCH_GIT_REQ:
		launch_git(iev, imsg);
		break;
	case IMSG_LAUNCH_KILL:
		launch_kill(iev, imsg);
		break;
	case IMSG_LAUNCH_QR_REQ:
		launch_quarantine(iev, imsg);
		break;
	case IMSG_LAUNCH_QR_REMOVE:
		launch_quarantine_remove(imsg);
		break;
	case IMSG_LAUNCH_CONF_REQ:
		launch_conf(iev, imsg);
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__,
		    imsg_get_type(imsg));
	}
}

static void
launch_serve(struct event_base *base)
{
	signal_set(&env.ln_sigchld, SIGCHLD, on_sigchld, NULL);
	event_base_set(base, &env.ln_sigchld);
	signal_add(&env.ln_sigchld, NULL);
}

static const struct worker launch_worker = {
	.w_id = PROC_LAUNCH,
	.w_sandbox = &launch_sandbox,
	.w_prewarm = launch_prewarm,
	.w_dispatch = launch_dispatch,
	.w_serve = launch_serve,
};

int
main(int argc, char *argv[])
{
	worker_main(argc, argv, &launch_worker);
}
