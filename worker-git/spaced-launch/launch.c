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

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/capability.h>

#include <errno.h>
#include <fcntl.h>
#include <event.h>
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
#define PASSWD_FILE		"/etc/passwd"

/* spaced-launch's environment. */
static struct launch_env {
	pid_t		 ln_children[LAUNCH_CHILDREN_MAX];	/* 0: free */
	char		 ln_git_path[PATH_MAX];	/* spaced-git, beside us */
	struct imsgev	*ln_parent;
	struct event	 ln_sigchld;
} env;

/*
 * The capabilities of a launch and no more: the credential change, a
 * look at any directory's inode, and the end of a spaced-git of another
 * uid.  spaced-git lives beside us.
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
	if (geteuid() == 0)
		sandbox_caps_limit(1ULL << CAP_SETUID | 1ULL << CAP_SETGID |
		    1ULL << CAP_DAC_READ_SEARCH | 1ULL << CAP_KILL, 1);
}

static int
child_slot(pid_t pid)
{
	int	 i;

	for (i = 0; i < LAUNCH_CHILDREN_MAX; i++)
		if (env.ln_children[i] == pid)
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

/*
 * A spaced-git is its owner's process: /dev/null on fds 0-2, not our
 * stderr, which spaced reads and logs (docs/privsep.md, "Logs").
 */
static int
child_stdio(void)
{
	int	 null, i;

	if ((null = open("/dev/null", O_RDWR)) == -1)
		return -1;
	for (i = STDIN_FILENO; i <= STDERR_FILENO; i++)
		if (null != i && dup2(null, i) == -1)
			return -1;
	return 0;	/* null itself goes with closefrom */
}

/*
 * The child: the owner's credentials and nothing more, then spaced-git.
 * The change of uid drops our capabilities (launch_prewarm); as uid 0
 * (a repository of root's) the locked NOROOT bit and the empty bounding
 * set keep the exec from granting any.
 */
static __dead void
child_exec(int fd, uid_t uid, gid_t gid, const char *home, const char *dir)
{
	char	 env_home[PATH_MAX + 8], dirbuf[PATH_MAX];
	char	*argv[] = { "spaced-git", "-g", dirbuf, NULL };
	char	*envp[] = { env_home, NULL };

	if (strlcpy(dirbuf, dir, sizeof(dirbuf)) >= sizeof(dirbuf))
		_exit(1);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		_exit(1);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (child_stdio() == -1 || dup2(fd, PROC_PARENT_FD) == -1)
		_exit(1);
	closefrom(PROC_PARENT_FD + 1);
	if (setgroups(1, &gid) == -1 || setresgid(gid, gid, gid) == -1 ||
	    setresuid(uid, uid, uid) == -1)
		_exit(1);
	/* A credential change clears the death signal: again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		_exit(1);
	/* HOME: where libgit2 finds the owner's global config and ignores. */
	snprintf(env_home, sizeof(env_home), "HOME=%s", home);
	execve(env.ln_git_path, argv, envp);
	_exit(127);
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
	if (stat(lg.lg_dir, &sb) == -1 || !S_ISDIR(sb.st_mode)) {
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
	if (owner_lookup(sb.st_uid, &gid, home, sizeof(home)) == -1) {
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_CODE_IN_FAILED,
		    "the owner of %s, uid %u, has no home in " PASSWD_FILE,
		    lg.lg_dir, (unsigned)sb.st_uid);
		return;
	}
	switch (pid = fork()) {
	case -1:
		close(fd);
		reply(iev, peerid, 0, sb.st_uid, ERR_CODE_IN_FAILED,
		    "fork: %s", strerror(errno));
		return;
	case 0:
		child_exec(fd, sb.st_uid, gid, home, lg.lg_dir);
	}
	close(fd);
	env.ln_children[slot] = pid;
	log_debug("spaced-git %d for %s as uid %u", (int)pid, lg.lg_dir,
	    (unsigned)sb.st_uid);
	reply(iev, peerid, pid, sb.st_uid, NULL, NULL);
}

static void
launch_kill(struct imsgev *iev, struct imsg *imsg)
{
	struct launch_exit	 le;

	if (imsg_get_data(imsg, &le, sizeof(le)) == -1)
		fatalx("%s: bad kill request", __func__);
	/* Ours and alive, or nothing: never a pid we did not start. */
	if (le.le_pid > 0 && child_slot(le.le_pid) != -1)
		(void)kill(le.le_pid, SIGKILL);
}

static void
on_sigchld(int sig, short event, void *arg)
{
	struct launch_exit	 le;
	pid_t			 pid;
	int			 status, slot;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if ((slot = child_slot(pid)) == -1)
			continue;
		env.ln_children[slot] = 0;
		le.le_pid = pid;
		le.le_status = status;
		imsg_compose_event(env.ln_parent, IMSG_LAUNCH_EXITED, 0, 0, -1,
		    &le, sizeof(le));
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
