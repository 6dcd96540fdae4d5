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
 * Limits through cgroup v1 controllers, one group per space and per
 * gatekeeper under spaced-ns/ in memory, pids and cpu: what this
 * machine and CI have.  Each group is also how a space's every process
 * is found again and ended, whoever forked it.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "space_limits.h"
#include "ns.h"

static const char *const controllers[] = { "memory", "pids", "cpu" };
#define NCONTROLLERS	(sizeof(controllers) / sizeof(controllers[0]))

static int
cg_path(char *buf, size_t len, const char *ctl, const char *name,
    const char *file)
{
	int	 n;

	n = snprintf(buf, len, "%s/%s/%s%s%s%s%s", NS_CGROOT, ctl, NS_CGNAME,
	    name != NULL ? "/" : "", name != NULL ? name : "",
	    file != NULL ? "/" : "", file != NULL ? file : "");
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int
cg_write(const char *ctl, const char *name, const char *file,
    const char *value)
{
	char	 path[PATH_MAX];
	int	 fd, rv = 0;

	if (cg_path(path, sizeof(path), ctl, name, file) == -1)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	if (write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		rv = -1;
	close(fd);
	return rv;
}

static int
cg_read(const char *ctl, const char *name, const char *file, char *buf,
    size_t len)
{
	char	 path[PATH_MAX];
	ssize_t	 n;
	int	 fd;

	if (cg_path(path, sizeof(path), ctl, name, file) == -1 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int
cg_exists(const char *ctl, const char *file)
{
	char	 path[PATH_MAX];

	return cg_path(path, sizeof(path), ctl, NULL, file) == 0 &&
	    access(path, F_OK) == 0;
}

/* The limits this host cannot give a space, as a set. */
uint8_t
ns_limits_absent(void)
{
	char	 path[PATH_MAX];
	uint8_t	 absent = 0;
	size_t	 i;

	for (i = 0; i < NCONTROLLERS; i++) {
		snprintf(path, sizeof(path), "%s/%s", NS_CGROOT,
		    controllers[i]);
		mkdir(path, 0755);
		if (cg_path(path, sizeof(path), controllers[i], NULL, NULL) ==
		    0)
			(void)mkdir(path, 0755);
	}
	if (!cg_exists("memory", "memory.limit_in_bytes"))
		absent |= SPACE_LIMIT_MEMORY | SPACE_LIMIT_SWAP;
	if (!cg_exists("memory", "memory.memsw.limit_in_bytes"))
		absent |= SPACE_LIMIT_SWAP;
	if (!cg_exists("pids", "pids.max"))
		absent |= SPACE_LIMIT_PIDS;
	if (!cg_exists("cpu", "cpu.cfs_quota_us"))
		absent |= SPACE_LIMIT_CPU;
	return absent;
}

/* The first limit of a set by name, "" for none. */
const char *
ns_limit_first(uint8_t set)
{
	uint8_t	 bit;

	for (bit = 1; bit <= SPACE_LIMITS_ALL; bit <<= 1)
		if (set & bit)
			return space_limit_name(bit);
	return "";
}

const char *
ns_limits_missing(void)
{
	return ns_limit_first(ns_limits_absent());
}

/* The controller a limit is set in; its group holds the processes. */
static int
ctl_usable(size_t i, uint8_t skip)
{
	static const uint8_t	 bits[] = { SPACE_LIMIT_MEMORY,
	    SPACE_LIMIT_PIDS, SPACE_LIMIT_CPU };

	return (skip & bits[i]) == 0;
}

/*
 * A group of each controller, with its limits.  0, or -1 when a limit
 * cannot be set (missing names it).
 */
int
ns_cgroup_make(const char *name, uint64_t memory, int64_t cpus,
    uint32_t pids, uint8_t skip, char *missing, size_t len)
{
	char	 path[PATH_MAX], v[32];
	size_t	 i;

	missing[0] = '\0';
	for (i = 0; i < NCONTROLLERS; i++) {
		if (!ctl_usable(i, skip))
			continue;
		if (cg_path(path, sizeof(path), controllers[i], name,
		    NULL) == -1 || (mkdir(path, 0755) == -1 &&
		    errno != EEXIST)) {
			strlcpy(missing, controllers[i], len);
			return -1;
		}
	}
	snprintf(v, sizeof(v), "%" PRIu64, memory);
	/* memsw must stay >= memory: lower memory first, then memsw. */
	if ((skip & SPACE_LIMIT_MEMORY) == 0)
		(void)cg_write("memory", name, "memory.limit_in_bytes", v);
	if ((skip & (SPACE_LIMIT_MEMORY | SPACE_LIMIT_SWAP)) == 0 &&
	    cg_write("memory", name, "memory.memsw.limit_in_bytes", v) == -1) {
		strlcpy(missing, "swap", len);
		return -1;
	}
	if ((skip & SPACE_LIMIT_MEMORY) == 0 &&
	    cg_write("memory", name, "memory.limit_in_bytes", v) == -1) {
		strlcpy(missing, "memory", len);
		return -1;
	}
	snprintf(v, sizeof(v), "%u", pids);
	if ((skip & SPACE_LIMIT_PIDS) == 0 &&
	    cg_write("pids", name, "pids.max", v) == -1) {
		strlcpy(missing, "pids", len);
		return -1;
	}
	snprintf(v, sizeof(v), "%" PRId64, cpus / 10000);	/* per 100 ms */
	if ((skip & SPACE_LIMIT_CPU) == 0 &&
	    (cg_write("cpu", name, "cpu.cfs_period_us", "100000") == -1 ||
	    cg_write("cpu", name, "cpu.cfs_quota_us", v) == -1)) {
		strlcpy(missing, "cpu", len);
		return -1;
	}
	return 0;
}

/*
 * In each group there is; a controller the host lacks is no failure.
 * Lacking is the host's (ns_limits_absent's files), never a group
 * that is not there: another installation's sweep may take a spent
 * pair in the moment between a start's make and its join, and a space
 * must not then run outside the limit whose group went.
 */
int
ns_cgroup_join(const char *name, pid_t pid)
{
	static const char *const limit_file[] = { "memory.limit_in_bytes",
	    "pids.max", "cpu.cfs_quota_us" };
	char	 v[32];
	size_t	 i;
	int	 n = 0;

	snprintf(v, sizeof(v), "%d", (int)pid);
	for (i = 0; i < NCONTROLLERS; i++) {
		if (cg_write(controllers[i], name, "cgroup.procs", v) == 0)
			n++;
		else if (cg_exists(controllers[i], limit_file[i]))
			return -1;
	}
	return n > 0 ? 0 : -1;
}

/*
 * SIGKILL to every process of the group; how many were left.  Any
 * controller's group holds them all: the first one there.
 */
int
ns_cgroup_kill(const char *name)
{
	static const char *const order[] = { "pids", "memory", "cpu" };
	char	 buf[8192], *p, *e;
	long	 pid;
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < NCONTROLLERS; i++)
		if (cg_read(order[i], name, "cgroup.procs", buf,
		    sizeof(buf)) == 0)
			break;
	if (i == NCONTROLLERS)
		return 0;
	for (p = buf; *p != '\0'; p = e) {
		pid = strtol(p, &e, 10);
		if (e == p)
			break;
		if (pid > 1 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
		while (*e == '\n')
			e++;
	}
	return n;
}

void
ns_cgroup_remove(const char *name)
{
	char	 path[PATH_MAX];
	size_t	 i;

	for (i = 0; i < NCONTROLLERS; i++)
		if (cg_path(path, sizeof(path), controllers[i], name,
		    NULL) == 0 && rmdir(path) == -1 && errno != ENOENT)
			log_debug("rmdir %s: %s", path, strerror(errno));
}

/*
 * A group of a pair left for the sweep (1): no process in it in any
 * controller, and one held once (pids.peak).  A group being made has
 * held none yet; without pids.peak nothing says so, and nothing goes.
 * -1: no such group.
 */
static int
cg_spent(const char *name)
{
	char	 path[PATH_MAX], buf[64];
	size_t	 i;

	if (cg_path(path, sizeof(path), "pids", name, NULL) == -1 ||
	    access(path, F_OK) == -1)
		return -1;
	if (cg_read("pids", name, "pids.peak", buf, sizeof(buf)) == -1 ||
	    strtoull(buf, NULL, 10) == 0)
		return 0;
	for (i = 0; i < NCONTROLLERS; i++)
		if (cg_read(controllers[i], name, "cgroup.procs", buf,
		    sizeof(buf)) == 0 && buf[0] != '\0')
			return 0;
	return 1;
}

/* The space a group is of: ID, or ID-gk for its gatekeeper. */
static int
cg_space_of(const char *name, char id[SPACE_ID_SIZE])
{
	size_t	 n = strlen(name);

	if (n == SPACE_ID_LEN + 3 && strcmp(name + SPACE_ID_LEN, "-gk") == 0)
		n = SPACE_ID_LEN;
	if (n != SPACE_ID_LEN)
		return -1;
	memcpy(id, name, n);
	id[n] = '\0';
	return space_id_valid(id) ? 0 : -1;
}

/*
 * At start: the groups a crashed spaced-ns left whose state is gone
 * (a suite's temp folder, a removed install), which no spaced-ns will
 * end.  Every spaced-ns of the host shares spaced-ns/, so only a pair
 * all spent goes, of a space with no record here: a live space has a
 * process in its pair (both groups are made before either's first
 * process), one being made a group that never held one, and the
 * kernel refuses to remove a group with a process.
 */
void
ns_cgroup_sweep(void)
{
	char		 path[PATH_MAX], id[SPACE_ID_SIZE];
	char		 gk[SPACE_ID_SIZE + 4];
	struct dirent	*de;
	DIR		*d;
	int		 a, b, n = 0;

	if (cg_path(path, sizeof(path), "pids", NULL, NULL) == -1 ||
	    (d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (cg_space_of(de->d_name, id) == -1 ||
		    (size_t)snprintf(gk, sizeof(gk), "%s-gk", id) >=
		    sizeof(gk) || ns_path(path, sizeof(path), id, NULL) == -1 ||
		    access(path, F_OK) == 0)
			continue;
		a = cg_spent(id);
		b = cg_spent(gk);
		if (a == 0 || b == 0 || (a == -1 && b == -1))
			continue;
		ns_cgroup_remove(id);
		ns_cgroup_remove(gk);
		n++;
	}
	closedir(d);
	if (n > 0)
		log_info("removed the groups a crashed spaced-ns left of %d "
		    "spaces it had no record of", n);
}

/* The limits a group has no file for: the host did not give them. */
uint8_t
ns_cgroup_absent(const char *name)
{
	char	 buf[64];
	uint8_t	 absent = 0;

	if (cg_read("memory", name, "memory.limit_in_bytes", buf,
	    sizeof(buf)) == -1)
		absent |= SPACE_LIMIT_MEMORY;
	if (cg_read("memory", name, "memory.memsw.limit_in_bytes", buf,
	    sizeof(buf)) == -1)
		absent |= SPACE_LIMIT_SWAP;
	if (cg_read("pids", name, "pids.max", buf, sizeof(buf)) == -1)
		absent |= SPACE_LIMIT_PIDS;
	if (cg_read("cpu", name, "cpu.cfs_quota_us", buf, sizeof(buf)) == -1)
		absent |= SPACE_LIMIT_CPU;
	return absent;
}

/* verify: the group's limits, but those of skip, are the record's. */
int
ns_cgroup_check(const char *name, uint64_t memory, uint32_t pids,
    uint8_t skip, char *why, size_t len)
{
	char	 buf[64];

	if ((skip & SPACE_LIMIT_MEMORY) == 0 && (cg_read("memory", name,
	    "memory.limit_in_bytes", buf, sizeof(buf)) == -1 ||
	    strtoull(buf, NULL, 10) != memory)) {
		strlcpy(why, "memory", len);
		return -1;
	}
	if ((skip & SPACE_LIMIT_SWAP) == 0 && (cg_read("memory", name,
	    "memory.memsw.limit_in_bytes", buf, sizeof(buf)) == -1 ||
	    strtoull(buf, NULL, 10) != memory)) {
		strlcpy(why, "swap", len);
		return -1;
	}
	if ((skip & SPACE_LIMIT_PIDS) == 0 && (cg_read("pids", name,
	    "pids.max", buf, sizeof(buf)) == -1 ||
	    strtoul(buf, NULL, 10) != pids)) {
		strlcpy(why, "pids", len);
		return -1;
	}
	if ((skip & SPACE_LIMIT_CPU) == 0 && (cg_read("cpu", name,
	    "cpu.cfs_quota_us", buf, sizeof(buf)) == -1 ||
	    strtol(buf, NULL, 10) <= 0)) {
		strlcpy(why, "cpu", len);
		return -1;
	}
	return 0;
}

/*
 * What the kernel counted of a group's limits met: processes it killed
 * for memory (memory.oom_control's oom_kill) and forks it refused
 * (pids.events' max); 0 where the host keeps no such count.
 */
void
ns_cgroup_events(const char *name, uint64_t *oom, uint64_t *forks)
{
	char		 buf[256];
	const char	*p;

	*oom = *forks = 0;
	if (cg_read("memory", name, "memory.oom_control", buf,
	    sizeof(buf)) == 0 && (p = strstr(buf, "oom_kill ")) != NULL)
		*oom = strtoull(p + strlen("oom_kill "), NULL, 10);
	if (cg_read("pids", name, "pids.events", buf, sizeof(buf)) == 0 &&
	    strncmp(buf, "max ", 4) == 0)
		*forks = strtoull(buf + 4, NULL, 10);
}
