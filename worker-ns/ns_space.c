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
 * A space's pid 1 in new user, mount, pid, ipc, uts, cgroup and network
 * namespaces, its gatekeeper beside it, and a command inside either:
 * the same steps as bwrap, done here (docs/privsep.md says why).  Each
 * child dies with spaced-ns, checked after the prctl, never assumed.
 */

#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <net/if.h>
#include <sys/ioctl.h>

#include <linux/capability.h>
#include <linux/sched.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ns.h"

extern char **environ;

static char	 libexec[PATH_MAX];

/* The space's whole environment, as the Docker place's. */
const char *const ns_space_env[] = {
	"HOME=/home/space",
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
	    SPACE_TOOLS_BIN,
	"HTTPS_PROXY=http://gatekeeper:3128",
	"https_proxy=http://gatekeeper:3128",
	"HTTP_PROXY=http://gatekeeper:3128",
	"http_proxy=http://gatekeeper:3128",
	"NO_PROXY=gatekeeper,localhost,127.0.0.1",
	"no_proxy=gatekeeper,localhost,127.0.0.1",
	/* Node 22 ignores the proxy variables without it. */
	"NODE_USE_ENV_PROXY=1",
	NULL
};

void
ns_libexec_set(const char *dir)
{
	strlcpy(libexec, dir, sizeof(libexec));
}

/* In a child: the message goes up the error pipe, then it exits. */
static __dead void
die(int errfd, const char *what)
{
	dprintf(errfd, "%s: %s\n", what, strerror(errno));
	_exit(126);
}

/* No capability left in any set, no way to regain one. */
static int
caps_clear(void)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];
	int				 cap;

	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		(void)prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	return syscall(SYS_capset, &hdr, data) == -1 ? -1 : 0;
}

/* The unprivileged user: uid and gid, no groups, no capability. */
static int
become(uid_t uid)
{
	if (setgroups(0, NULL) == -1 || setresgid(uid, uid, uid) == -1 ||
	    setresuid(uid, uid, uid) == -1 || caps_clear() == -1 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return 0;
}

/*
 * Parent death: the signal first, then a look at a pipe only the parent
 * holds open.  EOF there means it went before the prctl took.
 */
static int
die_with(int lifefd)
{
	struct pollfd	 pfd = { lifefd, POLLIN, 0 };

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return -1;
	if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLHUP))
		return -1;
	return 0;
}


static int
loopback_up(void)
{
	struct ifreq	 ifr;
	int		 s, rv = 0;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strlcpy(ifr.ifr_name, "lo", sizeof(ifr.ifr_name));
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == -1)
		rv = -1;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (rv == 0 && ioctl(s, SIOCSIFFLAGS, &ifr) == -1)
		rv = -1;
	close(s);
	return rv;
}

/*
 * The space's bind table (docs/privsep.md has each row's why).  root
 * is an empty folder of the space's own; the tmpfs over it is the root.
 */
static int
space_mounts(const struct ns_space *ns, const struct ns_launch *nl, int errfd)
{
	char	 root[PATH_MAX], src[PATH_MAX], relay[PATH_MAX];
	char	 hostname[SPACE_ID_SIZE + 1];

	snprintf(hostname, sizeof(hostname), "%s\n", ns->ns_id);
	if (ns_path(root, sizeof(root), ns->ns_id, "root") == -1 ||
	    (mkdir(root, 0700) == -1 && errno != EEXIST))
		die(errfd, "root folder");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1)
		die(errfd, "make / private");
	if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0755,size=1m") == -1)
		die(errfd, "tmpfs root");
	if (ns_binds_system(root) == -1)
		die(errfd, "system binds");
	if (ns_mkdirs(root, "/etc", 0755) == -1 ||
	    ns_write_file(root, "/etc/passwd", "root:x:0:0:root:/root:"
	    "/usr/sbin/nologin\nspace:x:10000:10000:space:/home/space:"
	    "/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:"
	    "/usr/sbin/nologin\n") == -1 ||
	    ns_write_file(root, "/etc/group", "root:x:0:\nspace:x:10000:\n"
	    "nogroup:x:65534:\n") == -1 ||
	    ns_write_file(root, "/etc/hostname", hostname) == -1 ||
	    ns_write_file(root, "/etc/resolv.conf", "") == -1 ||
	    ns_mkdirs(root, "/var/tmp", 0755) == -1 ||
	    ns_mkdirs(root, "/srv", 0755) == -1 ||
	    ns_mkdirs(root, "/mnt", 0755) == -1)
		die(errfd, "/etc");
	if (ns_bind(root, nl->nl_hosts, "/etc/hosts", 0, 0) == -1)
		die(errfd, "/etc/hosts");
	if (ns_dev_fill(root) == -1)
		die(errfd, "/dev");
	if (ns_tmpfs(root, "/tmp", nl->nl_tmp != NULL ? nl->nl_tmp :
	    NS_TMP_OPTS, 0) == -1)
		die(errfd, "/tmp");
	/* The agent's tools: read-only, but to the fill's one-shot. */
	if (nl->nl_tools != NULL && ns_bind(root, nl->nl_tools,
	    SPACE_TOOLS_DIR, nl->nl_tools_rw, 0) == -1)
		die(errfd, SPACE_TOOLS_DIR);
	if (ns_path(src, sizeof(src), ns->ns_id, "work") == -1 ||
	    ns_bind(root, src, "/spaces", 1, 0) == -1)
		die(errfd, "/spaces");
	if (ns_path(src, sizeof(src), ns->ns_id, "home") == -1 ||
	    ns_bind(root, src, "/home/space", 1, 0) == -1)
		die(errfd, "/home/space");
	if (ns_path(src, sizeof(src), ns->ns_id, "sock") == -1 ||
	    ns_bind(root, src, "/run/spaced", 0, 0) == -1)
		die(errfd, "/run/spaced");
	if ((size_t)snprintf(relay, sizeof(relay), "%s/spaced-relay",
	    libexec) >= sizeof(relay) || ns_bind(root, relay, "/opt/spaced/spaced-relay", 0, 0) == -1)
		die(errfd, "the relay");
	if (ns_mkdirs(root, "/proc", 0555) == -1 ||
	    (size_t)snprintf(src, sizeof(src), "%s/proc", root) >=
	    sizeof(src) || mount("proc", src, "proc", MS_NOSUID | MS_NODEV |
	    MS_NOEXEC, NULL) == -1)
		die(errfd, "/proc");
	/* The root itself read-only, last: the binds above are made. */
	if (mount(NULL, root, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
	    MS_NOSUID | MS_NODEV, NULL) == -1)
		die(errfd, "read-only root");
	if (ns_pivot(root) == -1)
		die(errfd, "pivot_root");
	return 0;
}

/*
 * The relay's environment: the space's, then the agent's variables
 * (space_agent_build checked them), as the Docker place's Env.
 */
static char **
agent_environ(const struct space_agent *sa)
{
	static const char	*env[sizeof(ns_space_env) /
				    sizeof(ns_space_env[0]) +
				    SPACE_AGENT_ENVS_MAX];
	const char		*e;
	size_t			 n = 0;
	uint32_t		 i;

	while (ns_space_env[n] != NULL) {
		env[n] = ns_space_env[n];
		n++;
	}
	for (i = 0; sa != NULL && i < SPACE_AGENT_ENVS_MAX &&
	    (e = space_agent_env(sa, i)) != NULL; i++)
		env[n++] = e;
	env[n] = NULL;
	return (char **)(uintptr_t)env;
}

/*
 * pid 1 of the space: reaps, and ends with the relay, whose stderr
 * alone is relayerr (-1: none), where it says each restart.
 */
static __dead void
space_init(const struct ns_space *ns, const struct ns_launch *nl, int lifefd,
    int errfd, int relayerr)
{
	char	 folder[64];
	/* The agent's server as on Docker: the relay's command, kept. */
	char	*argv[] = { "/opt/spaced/spaced-relay", "-w", folder, "--",
	    "/bin/sleep", "infinity", NULL, NULL };
	pid_t	 relay, pid;
	int	 status;

	snprintf(folder, sizeof(folder), "/spaces/%s", ns->ns_id);
	if (nl->nl_agent != NULL && nl->nl_agent->sa_name[0] != '\0') {
		argv[4] = "/bin/sh";
		argv[5] = "-c";
		argv[6] = (char *)(uintptr_t)nl->nl_agent->sa_command;
	}
	/* A change of credentials clears the death signal: again. */
	if (become(NS_SPACE_UID) == -1 || die_with(lifefd) == -1)
		die(errfd, "drop to the space user");
	if (ns_filter_space() == -1)
		die(errfd, "seccomp");
	/* The space's folder, as the Docker place's WorkingDir. */
	if (chdir(folder) == -1 && chdir("/home/space") == -1)
		die(errfd, "chdir");
	switch (relay = fork()) {
	case -1:
		die(errfd, "fork");
	case 0:
		setsid();
		if (relayerr != -1 && dup2(relayerr, STDERR_FILENO) == -1)
			die(errfd, "the relay's stderr");
		environ = agent_environ(nl->nl_agent);
		execv(argv[0], argv);
		die(errfd, "exec spaced-relay");
	}
	close(errfd);
	if (relayerr != -1)
		close(relayerr);
	for (;;) {
		if ((pid = waitpid(-1, &status, 0)) == -1) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (pid == relay)
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
			    128 + WTERMSIG(status));
	}
}

static int
write_map(pid_t pid, const char *file, uid_t inside, uid_t outside)
{
	char	 path[64], map[64];
	int	 fd, rv = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)inside,
	    (unsigned)outside);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	if (write(fd, map, strlen(map)) != (ssize_t)strlen(map))
		rv = -1;
	close(fd);
	return rv;
}

/*
 * The first line a child wrote on its error pipe, or "" when it closed
 * it clean (exec, or its work started).
 */
static void
child_error(int fd, char *err, size_t len)
{
	ssize_t	 n;
	char	*nl;

	err[0] = '\0';
	if ((n = read(fd, err, len - 1)) <= 0) {
		err[0] = '\0';
		return;
	}
	err[n] = '\0';
	if ((nl = strchr(err, '\n')) != NULL)
		*nl = '\0';
}

static pid_t
clone_child(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL,
	    NULL);
}

/*
 * Starts a space's pid 1.  The uid map and the cgroup are the parent's
 * to set; the child waits for a byte on go, and unshares its cgroup
 * namespace once it is in its group, so the group is its root.
 */
pid_t
ns_space_launch(const struct ns_space *ns, const struct ns_launch *nl,
    const struct ns_cglimits *cl, char *err, size_t errlen)
{
	char	 why[SPACE_DONE_MESSAGE_MAX];
	int	 go[2], ask[2], ep[2], relayerr = -1;
	pid_t	 pid;
	char	 c;

	/* The relay's restart lines into relay.err, through spaced-ns. */
	if (nl->nl_restarts && (relayerr = ns_relayerr_open(ns->ns_id)) ==
	    -1) {
		snprintf(err, errlen, "relay.err: %s", strerror(errno));
		return -1;
	}
	if (pipe2(go, O_CLOEXEC) == -1 || pipe2(ask, O_CLOEXEC) == -1 ||
	    pipe2(ep, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(relayerr);	/* -1: EBADF, nothing */
		return -1;
	}
	pid = clone_child(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS | CLONE_NEWNET);
	if (pid == -1) {
		snprintf(err, errlen, "clone: %s", strerror(errno));
		close(go[0]); close(go[1]); close(ask[0]); close(ask[1]);
		close(ep[0]); close(ep[1]); close(relayerr);
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		close(ask[0]);
		close(ep[0]);
		if (die_with(go[0]) == -1 || read(go[0], &c, 1) != 1)
			_exit(1);	/* the parent went, or said no */
		/* nothing of spaced-ns's stays open in the space's pid 1 */
		ns_close_all_but((int[]){ ask[1], go[0], ep[1], relayerr }, 4);
		if (ns_null_stdio() == -1)
			die(ep[1], "/dev/null");
		if (unshare(CLONE_NEWCGROUP) == -1)
			die(ep[1], "cgroup namespace");
		if (sethostname(ns->ns_id, strlen(ns->ns_id)) == -1)
			die(ep[1], "hostname");
		if (loopback_up() == -1)
			die(ep[1], "loopback");
		space_mounts(ns, nl, ep[1]);
		/*
		 * The user namespace last: the mounts above are made as the
		 * host's root and stay locked, since the mount namespace is
		 * not the new user namespace's to change.
		 */
		if (unshare(CLONE_NEWUSER) == -1)
			die(ep[1], "user namespace");
		c = 'u';
		if (write(ask[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		close(ask[1]);
		space_init(ns, nl, go[0], ep[1], relayerr);
	}
	close(go[0]);
	close(ask[1]);
	close(ep[1]);
	close(relayerr);
	if (ns_cgroup_enter(ns->ns_id, cl, pid, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "cgroup: %s", why);
		goto fail;
	}
	c = 1;
	if (write(go[1], &c, 1) != 1)
		log_warn("%s: go", __func__);
	/* The child's user namespace is there: its one uid, mapped. */
	if (read(ask[0], &c, 1) == 1) {
		if (write_map(pid, "uid_map", NS_SPACE_UID, ns->ns_uid) == -1 ||
		    write_map(pid, "gid_map", NS_SPACE_UID, ns->ns_uid) == -1) {
			snprintf(err, errlen, "uid map: %s", strerror(errno));
			goto fail;
		}
		if (write(go[1], &c, 1) != 1)
			log_warn("%s: go", __func__);
	}
	/* The error pipe closes on the relay's exec, or carries why not. */
	child_error(ep[0], err, errlen);
	if (err[0] != '\0')
		goto fail;
	close(ep[0]);
	close(ask[0]);
	close(go[1]);
	return pid;
fail:
	kill(pid, SIGKILL);
	close(ep[0]);
	close(ask[0]);
	close(go[1]);
	return -1;
}

/*
 * The gatekeeper: the host's network (its way out), a mount, pid, ipc
 * and uts namespace of its own in which only the system, its binary,
 * its socket folder and a /tmp exist; its own uid; its own filters.
 */
pid_t
ns_gk_launch(const struct ns_space *ns, const struct ns_cglimits *cl,
    char *err, size_t errlen)
{
	char	 why[SPACE_DONE_MESSAGE_MAX];
	char	 root[PATH_MAX], src[PATH_MAX], bin[PATH_MAX], port[16];
	char	 cg[SPACE_ID_SIZE + 4];
	/* Control on a 0600 socket in its private /tmp: it shares the
	 * host's network, where a loopback port is any local user's. */
	char	*argv[] = { "/usr/libexec/spaced/spaced-gatekeeper", "-u",
	    "/run/spaced", "-k", NS_GK_CTLDIR, "127.0.0.1", "3128", "8080",
	    port, NULL };
	char	*env[] = { "HOME=/tmp", "PATH=/usr/bin:/bin", NULL };
	int	 go[2], ep[2], out, errfd;
	pid_t	 pid;
	char	 c;

	snprintf(port, sizeof(port), "%u", ns->ns_port);
	if (ns_path(root, sizeof(root), ns->ns_id, "gkroot") == -1)
		return -1;
	/* Its stdout through spaced-ns, which keeps gk.log under its cap. */
	if ((out = ns_gklog_open(ns->ns_id, ns->ns_gk_uid)) == -1) {
		snprintf(err, errlen, "gk.log: %s", strerror(errno));
		return -1;
	}
	/* Its stderr too: never spaced-ns's, which is spaced's log. */
	if ((errfd = ns_gkerr_open(ns->ns_id, ns->ns_gk_uid)) == -1) {
		snprintf(err, errlen, "gk.err: %s", strerror(errno));
		close(out);
		return -1;
	}
	if (pipe2(go, O_CLOEXEC) == -1 || pipe2(ep, O_CLOEXEC) == -1) {
		close(out);
		close(errfd);
		return -1;
	}
	pid = clone_child(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS);
	if (pid == -1) {
		snprintf(err, errlen, "clone: %s", strerror(errno));
		close(out);
		close(errfd);
		close(go[0]); close(go[1]); close(ep[0]); close(ep[1]);
		return -1;
	}
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		if (die_with(go[0]) == -1 || read(go[0], &c, 1) != 1)
			_exit(1);
		if (dup2(out, STDOUT_FILENO) == -1 ||
		    dup2(errfd, STDERR_FILENO) == -1)
			_exit(1);
		ns_close_others(go[0], ep[1], -1);
		if (sethostname("gatekeeper", 10) == -1)
			die(ep[1], "hostname");
		if ((mkdir(root, 0700) == -1 && errno != EEXIST) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
		    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV,
		    "mode=0755,size=1m") == -1)
			die(ep[1], "gatekeeper root");
		if (ns_binds_gatekeeper(root) == -1 || ns_dev_fill(root) == -1 ||
		    ns_tmpfs(root, "/tmp", "size=16m,mode=1777", MS_NOEXEC) == -1 ||
		    ns_tmpfs(root, "/usr/libexec", "size=64k,mode=0755", 0) == -1)
			die(ep[1], "gatekeeper binds");
		if ((size_t)snprintf(bin, sizeof(bin), "%s/spaced-gatekeeper",
		    libexec) >= sizeof(bin) || ns_bind(root, bin, argv[0], 0, 0) == -1)
			die(ep[1], "gatekeeper binary");
		if (ns_path(src, sizeof(src), ns->ns_id, "sock") == -1 ||
		    ns_bind(root, src, "/run/spaced", 1, 0) == -1)
			die(ep[1], "gatekeeper sockets");
		if ((size_t)snprintf(src, sizeof(src), "%s/proc", root) >=
		    sizeof(src) || mkdir(src, 0555) == -1 ||
		    mount("proc", src, "proc", MS_NOSUID | MS_NODEV |
		    MS_NOEXEC, NULL) == -1)
			die(ep[1], "gatekeeper /proc");
		if (mount(NULL, root, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
		    MS_NOSUID | MS_NODEV, NULL) == -1 || ns_pivot(root) == -1)
			die(ep[1], "gatekeeper pivot_root");
		if (become(ns->ns_gk_uid) == -1 || die_with(go[0]) == -1)
			die(ep[1], "gatekeeper user");
		if (chdir("/tmp") == -1)
			die(ep[1], "chdir");
		execve(argv[0], argv, env);
		die(ep[1], "exec spaced-gatekeeper");
	}
	close(out);
	close(errfd);
	close(go[0]);
	close(ep[1]);
	snprintf(cg, sizeof(cg), "%s-gk", ns->ns_id);
	if (ns_cgroup_enter(cg, cl, pid, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "gatekeeper cgroup: %s", why);
		kill(pid, SIGKILL);
		close(go[1]);
		close(ep[0]);
		return -1;
	}
	c = 1;
	if (write(go[1], &c, 1) != 1)
		log_warn("%s: go", __func__);
	child_error(ep[0], err, errlen);
	close(ep[0]);
	close(go[1]);
	if (err[0] != '\0') {
		kill(pid, SIGKILL);
		return -1;
	}
	return pid;
}

/*
 * In a child of spaced-ns: the namespaces of a space (target 0) or of
 * its gatekeeper (1), through a pidfd spaced-ns opened while the pid was
 * its unreaped child (a bare pid could be another's by now).  Its
 * children are born in the target's pid namespace; it stays in ours.
 * On -1, what says which step failed, and errno why.
 */
int
ns_enter_ns(int target, int pidfd, const char **what)
{
	int	 flags;

	flags = target ? CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS : CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
	    CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP;
	/* The user namespace last, as the space's pid 1 made it. */
	*what = "spaced-ns: enter the namespaces";
	if (setns(pidfd, flags) == -1 ||
	    (!target && setns(pidfd, CLONE_NEWUSER) == -1))
		return -1;
	return 0;
}

/* A pidfd of a child of ours not yet reaped, or -1. */
int
ns_pidfd(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* The target's group first (its limits), then its namespaces. */
static int
ns_enter(const struct ns_space *ns, int target, int pidfd,
    const char **what)
{
	char	 cg[SPACE_ID_SIZE + 4];

	snprintf(cg, sizeof(cg), "%s%s", ns->ns_id, target ? "-gk" : "");
	*what = "cgroup";
	if (ns_cgroup_join(cg, getpid()) == -1)
		return -1;
	return ns_enter_ns(target, pidfd, what);
}

/*
 * The command's own process, forked after ns_enter with its stdin,
 * stdout and stderr on 0-2: the user, the folder, the terminal, the
 * filter, the exec.  life is the read end of a pipe only its parent
 * holds the other end of.
 */
__dead void
ns_command(const struct ns_space *ns, int target, char *const argv[],
    int life, const struct ns_tty *tty)
{
	char	 cwd[64];

	ns_close_others(life, tty != NULL ? tty->sock : -1, -1);
	if (become(target ? ns->ns_gk_uid : NS_SPACE_UID) == -1)
		die(2, "spaced-ns: drop to the user");
	if (die_with(life) == -1)
		_exit(126);
	snprintf(cwd, sizeof(cwd), "/spaces/%s", ns->ns_id);
	if ((target || chdir(cwd) == -1) &&
	    chdir(target ? "/tmp" : "/") == -1)
		die(2, "spaced-ns: chdir");
	if (tty != NULL && ns_tty_inner(tty) == -1)
		die(2, "spaced-ns: the terminal");
	if (!target && ns_filter_space() == -1)
		die(2, "spaced-ns: seccomp");
	environ = target ? (char *[]){ "HOME=/tmp",
	    "PATH=/usr/bin:/bin", NULL } : tty != NULL ?
	    ns_tty_env(ns_space_env) : (char **)(uintptr_t)ns_space_env;
	execvp(argv[0], argv);
	dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/*
 * A command beside a gatekeeper (a space's go through ns_helper.c):
 * an outer child that enters, and the command forked in there.  fds
 * are the command's stdin, stdout and stderr.  The pid returned is the
 * outer child's; it ends as the command did.
 */
pid_t
ns_enter_exec(const struct ns_space *ns, int target, pid_t target_pid,
    char *const argv[], int fds[3], const struct ns_tty *tty)
{
	const char	*what;
	int		 life[2], status, pidfd;
	pid_t		 pid, inner, parent = getpid();

	if ((pidfd = ns_pidfd(target_pid)) == -1)
		return -1;
	switch (pid = fork()) {
	case -1:
		close(pidfd);
		return -1;
	case 0:
		break;
	default:
		close(pidfd);
		return pid;
	}
	if (dup2(fds[0], 0) == -1 || dup2(fds[1], 1) == -1 ||
	    dup2(fds[2], 2) == -1)
		_exit(126);
	ns_close_others(tty != NULL ? tty->sock : -1, pidfd, -1);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(126);
	if (ns_enter(ns, target, pidfd, &what) == -1)
		die(2, what);
	close(pidfd);
	if (pipe2(life, O_CLOEXEC) == -1)
		_exit(126);
	switch (inner = fork()) {
	case -1:
		die(2, "spaced-ns: fork");
	case 0:
		close(life[1]);
		ns_command(ns, target, argv, life[0], tty);
	}
	close(life[0]);
	if (tty != NULL)
		close(tty->sock);
	close(0);
	close(1);
	close(2);
	while (waitpid(inner, &status, 0) == -1)
		if (errno != EINTR)
			_exit(126);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status));
}

static char	 ns_unavailable[SPACE_DONE_MESSAGE_MAX];

void
ns_unavailable_set(const char *why)
{
	strlcpy(ns_unavailable, why, sizeof(ns_unavailable));
	log_warnx("the native place is absent: %s", why);
}

/*
 * check and create's refusal: the namespaces a space needs, tried in a
 * child that does nothing else.  NULL, or the first line of the error.
 */
const char *
ns_probe(char *err, size_t errlen)
{
	int	 ep[2], status;
	pid_t	 pid;

	if (ns_unavailable[0] != '\0') {
		strlcpy(err, ns_unavailable, errlen);
		return err;
	}
	if (pipe2(ep, O_CLOEXEC) == -1)
		return "pipe";
	pid = clone_child(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID |
	    CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET | CLONE_NEWCGROUP);
	if (pid == -1) {
		snprintf(err, errlen, "clone of the namespaces: %s",
		    strerror(errno));
		close(ep[0]);
		close(ep[1]);
		return err;
	}
	if (pid == 0) {
		close(ep[0]);
		if (mount("tmpfs", "/tmp", "tmpfs", 0, "size=4k") == -1 &&
		    errno != EPERM)
			die(ep[1], "mount in the namespaces");
		_exit(0);
	}
	close(ep[1]);
	child_error(ep[0], err, errlen);
	close(ep[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	return err[0] != '\0' ? err : NULL;
}
