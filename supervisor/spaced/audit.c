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
 * The audit table: what the kernel says about each process of ours, read
 * from /proc, never what the process says about itself (but Landlock,
 * which /proc does not show: that comes from the worker's READY).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

#define STATUS_MAX	8192

/*
 * The workers' root directories, read once at start (audit_note_root).
 * readlink of /proc/<pid>/root passes ptrace_may_access, which spaced
 * no longer does once it serves: it holds no CAP_SYS_PTRACE, and
 * Landlock refuses ptrace access to processes outside its domain.  A
 * confined worker cannot chroot again, so the start's answer stays true.
 */
static struct {
	pid_t	 ar_pid;
	char	 ar_root[sizeof(((struct ctl_privileges *)0)->cv_root)];
} audit_roots[PROC_MAX];

void
audit_note_root(pid_t pid)
{
	char	 path[64];
	size_t	 i;
	ssize_t	 n;

	for (i = 0; i < PROC_MAX; i++)
		if (audit_roots[i].ar_pid == 0 || audit_roots[i].ar_pid == pid)
			break;
	if (i == PROC_MAX)
		return;
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if ((n = readlink(path, audit_roots[i].ar_root,
	    sizeof(audit_roots[i].ar_root) - 1)) == -1) {
		/*
		 * A plain user's spaced may not read spaced-git's, which is
		 * not dumpable: no fault, and it chroots nothing (privileges
		 * says "?").  A warning at each start said otherwise.
		 */
		if (errno == EACCES && geteuid() != 0)
			log_debug("%s: not readable as a plain user", path);
		else
			log_warn("%s", path);
		return;
	}
	audit_roots[i].ar_root[n] = '\0';
	audit_roots[i].ar_pid = pid;
}

static int
audit_root(pid_t pid, char *buf, size_t len)
{
	char	 path[64];
	size_t	 i;
	ssize_t	 n;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if ((n = readlink(path, buf, len - 1)) != -1) {
		buf[n] = '\0';
		return 0;
	}
	for (i = 0; i < PROC_MAX; i++)
		if (audit_roots[i].ar_pid == pid && pid != 0) {
			strlcpy(buf, audit_roots[i].ar_root, len);
			return 0;
		}
	return -1;
}

int
audit_process(const char *name, pid_t pid, const char *landlock,
    struct ctl_privileges *cv)
{
	char		 path[64], buf[STATUS_MAX];
	ssize_t		 n;
	DIR		*dir;
	struct dirent	*de;
	int		 fd;

	memset(cv, 0, sizeof(*cv));
	strlcpy(cv->cv_name, name, sizeof(cv->cv_name));
	strlcpy(cv->cv_landlock, landlock, sizeof(cv->cv_landlock));
	cv->cv_pid = pid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || audit_parse_status(buf, n, cv) == -1) {
		log_warnx("%s: unreadable", path);
		return -1;
	}

	if (audit_root(pid, cv->cv_root, sizeof(cv->cv_root)) == -1)
		strlcpy(cv->cv_root, "?", sizeof(cv->cv_root));

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	cv->cv_nfds = -1;
	if ((dir = opendir(path)) != NULL) {
		cv->cv_nfds = 0;
		while ((de = readdir(dir)) != NULL)
			if (de->d_name[0] != '.')
				cv->cv_nfds++;
		closedir(dir);
		if (pid == getpid())
			cv->cv_nfds--;	/* the directory we just read */
	}
	return 0;
}
