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
 * Confinement of a process: no_new_privs, then Landlock (a supplement,
 * sandbox_landlock.c), then the seccomp allowlist (sandbox_filter.c);
 * and the probes an audit uses to see what the confinement lets by.
 * The promise groups: docs/privsep.md, "Promise groups".
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "proto.h"
#include "sandbox.h"
#include "sandbox_int.h"

int	 sb_chrooted;

/*
 * no_new_privs, Landlock where the kernel has it, then seccomp; fatal on
 * failure, and fatal where sandbox_fs_unheld() says the process would
 * be held on the filesystem by nothing (no Landlock, no chroot).
 */
void
sandbox_enter(const struct sandbox_spec *spec)
{
	const char	*why;
	int		 abi;

	if (spec == NULL || spec->sb_name == NULL)
		fatalx("%s: no spec", __func__);

	/* Before Landlock and seccomp, which need it without privilege. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		fatal("%s: %s: PR_SET_NO_NEW_PRIVS", __func__, spec->sb_name);
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		fatalx("%s: %s: no_new_privs not set", __func__,
		    spec->sb_name);

	if (!spec->sb_landlock_optional) {
		abi = sb_landlock(spec);
		/*
		 * Without Landlock, a process that may open files by path
		 * could reach anything its uid can: only a chroot holds it
		 * then, and without one it must not run at all.  Best
		 * effort is spaced's: root or the user itself in any case.
		 */
		if ((why = sandbox_fs_unheld(spec->sb_groups, abi,
		    sb_chrooted)) != NULL && !spec->sb_landlock_best_effort)
			fatalx("%s: %s: refusing to run", spec->sb_name, why);
	}

	sb_seccomp(spec);
	log_debug("%s: sandbox entered, groups 0x%x", spec->sb_name,
	    spec->sb_groups);
}

/*
 * execve() that proves the call passed seccomp and the file could be
 * opened for execution (Landlock, permissions), without replacing this
 * process: the kernel opens the file before it reads argv, and an argv
 * pointer into the unmapped first page then fails with EFAULT.
 */
static int
sb_probe_execve(void)
{
	if (syscall(SYS_execve, "/bin/true", (char *const *)(uintptr_t)8,
	    NULL) == -1 && errno == EFAULT)
		return 0;
	if (errno == 0)
		errno = EPERM;
	return -1;
}

static int
sb_probe_connect(void)
{
	struct sockaddr_in	 sin;
	int			 s, rc, saved;

	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(9);	/* discard: usually refused */
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = connect(s, (struct sockaddr *)&sin, sizeof(sin));
	saved = errno;
	close(s);
	/* Refused means the connect reached the network stack. */
	if (rc == 0 || saved == ECONNREFUSED)
		return 0;
	errno = saved;
	return -1;
}

static int
sb_probe_fork(void)
{
	pid_t	 pid;
	int	 status;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0)
		_exit(0);
	(void)waitpid(pid, &status, 0);
	return 0;
}

int
sandbox_probe(int call)
{
	int	 fd;

	switch (call) {
	case PROBE_EXECVE:
		return sb_probe_execve();
	case PROBE_OPEN:
		if ((fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
		close(fd);
		return 0;
	case PROBE_SOCKET:
		if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC,
		    0)) == -1)
			return -1;
		close(fd);
		return 0;
	case PROBE_CONNECT:
		return sb_probe_connect();
	case PROBE_FORK:
		return sb_probe_fork();
	default:
		errno = EINVAL;
		return -1;
	}
}
