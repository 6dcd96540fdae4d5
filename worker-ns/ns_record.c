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
 * The records of native spaces: one folder per space under the state
 * directory, its record written to a temporary file and renamed, so a
 * crash leaves the old record or the new one, never half of one.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"
#include "ns.h"

#define RECORD_MAX	4096

const char *
ns_state(void)
{
	const char	*s = worker_store();

	if (s == NULL)
		fatalx("%s: no state directory (-s)", __func__);
	return s;
}

int
ns_path(char *buf, size_t len, const char *id, const char *leaf)
{
	int	 n;

	if (leaf == NULL)
		n = snprintf(buf, len, "%s/%s", ns_state(), id);
	else
		n = snprintf(buf, len, "%s/%s/%s", ns_state(), id, leaf);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int
field(const char *rec, const char *key, char *out, size_t len)
{
	const char	*p = rec, *e;
	size_t		 klen = strlen(key);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			p += klen + 1;
			if ((e = strchr(p, '\n')) == NULL)
				return -1;
			if ((size_t)(e - p) >= len)
				return -1;
			memcpy(out, p, e - p);
			out[e - p] = '\0';
			return 0;
		}
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	}
	return -1;
}

static int
field_num(const char *rec, const char *key, uint64_t max, uint64_t *v)
{
	char		 buf[32];
	const char	*errstr;

	if (field(rec, key, buf, sizeof(buf)) == -1)
		return -1;
	*v = strtonum(buf, 0, max > LLONG_MAX ? LLONG_MAX : (long long)max,
	    &errstr);
	return errstr == NULL ? 0 : -1;
}

/* 0, or -1 with errno ENOENT when there is no such space. */
int
ns_record_read(const char *id, struct ns_space *ns)
{
	char		 path[PATH_MAX], rec[RECORD_MAX];
	uint64_t	 v;
	ssize_t		 n;
	int		 fd;

	memset(ns, 0, sizeof(*ns));
	if (!space_id_valid(id) || ns_path(path, sizeof(path), id,
	    "record") == -1) {
		errno = ENOENT;
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -1;
	n = read(fd, rec, sizeof(rec) - 1);
	close(fd);
	if (n <= 0)
		goto bad;
	rec[n] = '\0';
	if (field(rec, "id", ns->ns_id, sizeof(ns->ns_id)) == -1 ||
	    strcmp(ns->ns_id, id) != 0 ||
	    field(rec, "owner", ns->ns_owner, sizeof(ns->ns_owner)) == -1 ||
	    field(rec, "name", ns->ns_name, sizeof(ns->ns_name)) == -1 ||
	    field(rec, "project", ns->ns_project,
	    sizeof(ns->ns_project)) == -1 ||
	    field(rec, "created", ns->ns_created,
	    sizeof(ns->ns_created)) == -1)
		goto bad;
	if (field_num(rec, "memory", HARDEN_MEMORY_MAX, &v) == -1)
		goto bad;
	ns->ns_memory = v;
	if (field_num(rec, "cpus", INT64_MAX, &v) == -1)
		goto bad;
	ns->ns_cpus = (int64_t)v;
	if (field_num(rec, "port", 65535, &v) == -1)
		goto bad;
	ns->ns_port = (uint32_t)v;
	if (field_num(rec, "uid", UINT32_MAX, &v) == -1)
		goto bad;
	ns->ns_uid = (uid_t)v;
	if (field_num(rec, "gk_uid", UINT32_MAX, &v) == -1)
		goto bad;
	ns->ns_gk_uid = (uid_t)v;
	return 0;
bad:
	log_warnx("record of %s is unreadable", id);
	errno = EINVAL;
	return -1;
}

int
ns_record_write(const struct ns_space *ns)
{
	char	 path[PATH_MAX], tmp[PATH_MAX];
	FILE	*f;
	int	 fd;

	if (ns_path(path, sizeof(path), ns->ns_id, "record") == -1 ||
	    ns_path(tmp, sizeof(tmp), ns->ns_id, "record.tmp") == -1)
		return -1;
	/* A name is the only free text: no newline may forge a field. */
	if (strchr(ns->ns_name, '\n') != NULL)
		return -1;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	if ((f = fdopen(fd, "w")) == NULL) {
		close(fd);
		return -1;
	}
	fprintf(f, "id=%s\nowner=%s\nname=%s\nproject=%s\ncreated=%s\n"
	    "memory=%" PRIu64 "\ncpus=%" PRId64 "\nport=%u\nuid=%u\n"
	    "gk_uid=%u\n", ns->ns_id, ns->ns_owner, ns->ns_name,
	    ns->ns_project, ns->ns_created, ns->ns_memory, ns->ns_cpus,
	    ns->ns_port, (unsigned)ns->ns_uid, (unsigned)ns->ns_gk_uid);
	if (fflush(f) != 0 || fsync(fileno(f)) == -1) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, path) == -1) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* A folder and all beneath it, without following a link. */
int
ns_rm_tree(const char *path)
{
	struct stat	 st;
	DIR		*d;
	struct dirent	*de;
	char		 sub[PATH_MAX];
	int		 rv = 0;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path,
		    de->d_name) >= sizeof(sub) || ns_rm_tree(sub) == -1)
			rv = -1;
	}
	closedir(d);
	if (rmdir(path) == -1)
		rv = -1;
	return rv;
}

int
ns_record_remove(const char *id)
{
	char	 path[PATH_MAX];

	if (!space_id_valid(id) || ns_path(path, sizeof(path), id,
	    NULL) == -1)
		return -1;
	return ns_rm_tree(path);
}

/*
 * What /proc/PID/stat says after the process's name (which may hold
 * anything, so after its last ')'): " S ppid ...", the state field 3;
 * NULL when it cannot be read.
 */
char *
ns_proc_stat(pid_t pid, char *buf, size_t len)
{
	char	 path[64], *p;
	ssize_t	 n;
	int	 fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return (p = strrchr(buf, ')')) != NULL ? p + 1 : NULL;
}

/* "pid starttime": a pid alone may be another process by now. */
static int
pid_start(pid_t pid, unsigned long long *start)
{
	char	 buf[1024], *p;
	int	 i;

	/* not a zombie's or a dead one's: start field 22 */
	if ((p = ns_proc_stat(pid, buf, sizeof(buf))) == NULL ||
	    p[0] != ' ' || p[1] == 'Z' || p[1] == 'X')
		return -1;
	for (i = 3; i < 22 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p == NULL)
		return -1;
	*start = strtoull(p + 1, NULL, 10);
	return 0;
}

int
ns_pid_write(const char *id, const char *leaf, pid_t pid)
{
	char			 path[PATH_MAX], tmp[PATH_MAX];
	unsigned long long	 start;
	int			 fd;

	if (pid_start(pid, &start) == -1 ||
	    ns_path(path, sizeof(path), id, leaf) == -1 ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -1;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	if (dprintf(fd, "%d %llu\n", (int)pid, start) < 0 || close(fd) == -1 ||
	    rename(tmp, path) == -1) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The pid of a live process the file names, or 0. */
pid_t
ns_pid_read(const char *id, const char *leaf)
{
	char			 path[PATH_MAX], buf[64];
	unsigned long long	 start, now;
	ssize_t			 n;
	int			 fd, pid;

	if (ns_path(path, sizeof(path), id, leaf) == -1 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%d %llu", &pid, &start) != 2 || pid <= 1)
		return 0;
	if (pid_start(pid, &now) == -1 || now != start)
		return 0;
	return pid;
}

void
ns_pid_forget(const char *id, const char *leaf)
{
	char	 path[PATH_MAX];

	if (ns_path(path, sizeof(path), id, leaf) == 0)
		unlink(path);
}
