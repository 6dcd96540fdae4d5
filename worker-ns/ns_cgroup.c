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
#include <time.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "space_limits.h"
#include "ns.h"

/*
 * A row a limit: its controller, its bit, and the file it is set in,
 * there when the host gives it.  A row with sub set is a second limit
 * of the row above's controller (swap, in memory's group); pre_file is
 * set first, to pre_value (the quota's period).
 */
static const struct cg_row {
	const char	*cr_ctl;
	uint8_t		 cr_bit;
	const char	*cr_file;
	int		 cr_sub;
	const char	*cr_pre_file, *cr_pre_value;
} cg_rows[] = {
	{ "memory",	SPACE_LIMIT_MEMORY, "memory.limit_in_bytes", 0,
	    NULL, NULL },
	{ "memory",	SPACE_LIMIT_SWAP, "memory.memsw.limit_in_bytes", 1,
	    NULL, NULL },
	{ "pids",	SPACE_LIMIT_PIDS, "pids.max", 0, NULL, NULL },
	{ "cpu",	SPACE_LIMIT_CPU, "cpu.cfs_quota_us", 0,
	    "cpu.cfs_period_us", "100000" },
};
#define NROWS		(sizeof(cg_rows) / sizeof(cg_rows[0]))

/*
 * A start's join that finds its group taken makes it again, this many
 * times in all before it gives up.
 */
#define CG_TRIES	3
/*
 * A group made (or made again) this many seconds ago or less is never
 * swept: a start joins its groups well within it.
 */
#define CG_YOUNG	10

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
	const struct cg_row	*r;
	char			 path[PATH_MAX];
	uint8_t			 absent = 0, ctl = 0;

	for (r = cg_rows; r < cg_rows + NROWS; r++) {
		if (!r->cr_sub) {
			ctl = r->cr_bit;
			snprintf(path, sizeof(path), "%s/%s", NS_CGROOT,
			    r->cr_ctl);
			mkdir(path, 0755);
			if (cg_path(path, sizeof(path), r->cr_ctl, NULL,
			    NULL) == 0)
				(void)mkdir(path, 0755);
		}
		/* No controller, none of its limits. */
		if ((absent & ctl) || !cg_exists(r->cr_ctl, r->cr_file))
			absent |= r->cr_bit;
	}
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

/* What a row's file is set to for a group's limits. */
static void
cg_value(const struct cg_row *r, const struct ns_cglimits *cl, char *v,
    size_t len)
{
	switch (r->cr_bit) {
	case SPACE_LIMIT_PIDS:
		snprintf(v, len, "%u", cl->cl_pids);
		break;
	case SPACE_LIMIT_CPU:	/* per 100 ms, the period */
		snprintf(v, len, "%" PRId64, cl->cl_cpus / 10000);
		break;
	default:		/* memory, and swap as much */
		snprintf(v, len, "%" PRIu64, cl->cl_memory);
		break;
	}
}

/* A row the group goes without: its limit, or its controller's, skipped. */
static int
cg_skipped(const struct cg_row *r, uint8_t skip)
{
	while (r->cr_sub && r > cg_rows && !(skip & r->cr_bit))
		r--;
	return (skip & r->cr_bit) != 0;
}

/*
 * A group of each controller, with its limits.  0, or -1 when a limit
 * cannot be set (missing names it).
 */
int
ns_cgroup_make(const char *name, const struct ns_cglimits *cl,
    char *missing, size_t len)
{
	const struct cg_row	*r;
	char			 path[PATH_MAX], v[32];
	int			 pass;

	missing[0] = '\0';
	for (r = cg_rows; r < cg_rows + NROWS; r++) {
		if (r->cr_sub || cg_skipped(r, cl->cl_skip))
			continue;
		if (cg_path(path, sizeof(path), r->cr_ctl, name, NULL) == -1 ||
		    (mkdir(path, 0755) == -1 && errno != EEXIST)) {
			strlcpy(missing, r->cr_ctl, len);
			return -1;
		}
		/*
		 * One there already (a stop's that lingered, spent) is
		 * young again: another installation's sweep spares it.
		 */
		if (utimensat(AT_FDCWD, path, NULL, 0) == -1)
			log_debug("utimensat %s: %s", path, strerror(errno));
	}
	/*
	 * Twice, the second must hold: memsw must stay >= memory, so a
	 * memory raised fails until memsw is.
	 */
	for (pass = 0; pass < 2; pass++)
		for (r = cg_rows; r < cg_rows + NROWS; r++) {
			if (cg_skipped(r, cl->cl_skip))
				continue;
			cg_value(r, cl, v, sizeof(v));
			if ((r->cr_pre_file == NULL || cg_write(r->cr_ctl,
			    name, r->cr_pre_file, r->cr_pre_value) == 0) &&
			    cg_write(r->cr_ctl, name, r->cr_file, v) == 0)
				continue;
			if (pass == 1) {
				strlcpy(missing, space_limit_name(r->cr_bit),
				    len);
				return -1;
			}
		}
	return 0;
}

/*
 * In each group there is; a controller the host lacks is no failure.
 * Lacking is the host's (ns_limits_absent's files), never a group
 * that is not there: another installation's sweep may take a spent
 * pair in the moment between a start's make and its join, and a space
 * must not then run outside the limit whose group went.  That is -1
 * with errno ENOENT.
 */
int
ns_cgroup_join(const char *name, pid_t pid)
{
	const struct cg_row	*r;
	char			 v[32];
	int			 n = 0, saved;

	snprintf(v, sizeof(v), "%d", (int)pid);
	for (r = cg_rows; r < cg_rows + NROWS; r++) {
		if (r->cr_sub)
			continue;
		if (cg_write(r->cr_ctl, name, "cgroup.procs", v) == 0) {
			n++;
			continue;
		}
		saved = errno;
		if (cg_exists(r->cr_ctl, r->cr_file)) {
			errno = saved;
			return -1;
		}
	}
	if (n == 0)
		errno = ENOTSUP;	/* no controller at all: not taken */
	return n > 0 ? 0 : -1;
}

/*
 * A start's join (space or gatekeeper, pid not yet let go): a group
 * found taken (ENOENT) is made again and joined, CG_TRIES times in
 * all.  -1 with err saying why, and that another process removed the
 * group when it never stayed.
 */
int
ns_cgroup_enter(const char *name, const struct ns_cglimits *cl, pid_t pid,
    char *err, size_t len)
{
	char	 missing[16];
	int	 i;

	for (i = 0; i < CG_TRIES; i++) {
		if (i > 0 && ns_cgroup_make(name, cl, missing,
		    sizeof(missing)) == -1) {
			snprintf(err, len, "the %s limit cannot be set",
			    missing);
			return -1;
		}
		if (ns_cgroup_join(name, pid) == 0)
			return 0;
		if (errno != ENOENT) {
			snprintf(err, len, "%s", strerror(errno));
			return -1;
		}
		log_info("cgroup %s: removed before the join (%d of %d)",
		    name, i + 1, CG_TRIES);
	}
	snprintf(err, len, "the group %s was removed by another process "
	    "(another spaced-ns's sweep?) each of the %d times it was made",
	    name, CG_TRIES);
	return -1;
}

/*
 * SIGKILL to every process of the group; how many were left.  Any
 * controller's group holds them all: the first one there.
 */
int
ns_cgroup_kill(const char *name)
{
	const struct cg_row	*r;
	char			 buf[8192], *p, *e;
	long			 pid;
	int			 n = 0;

	for (r = cg_rows; r < cg_rows + NROWS; r++)
		if (!r->cr_sub && cg_read(r->cr_ctl, name, "cgroup.procs",
		    buf, sizeof(buf)) == 0)
			break;
	if (r == cg_rows + NROWS)
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
	const struct cg_row	*r;
	char			 path[PATH_MAX];

	for (r = cg_rows; r < cg_rows + NROWS; r++)
		if (!r->cr_sub && cg_path(path, sizeof(path), r->cr_ctl, name,
		    NULL) == 0 && rmdir(path) == -1 && errno != ENOENT)
			log_debug("rmdir %s: %s", path, strerror(errno));
}

/*
 * A group of a pair left for the sweep (1): no process in it in any
 * controller, one held once (pids.peak), and made (its mtime, which
 * ns_cgroup_make sets) more than CG_YOUNG seconds ago.  A group being
 * made has held none yet, or was just made again for a start; without
 * pids.peak nothing says so, and nothing goes.  -1: no such group.
 */
static int
cg_spent(const char *name)
{
	const struct cg_row	*r;
	char			 path[PATH_MAX], buf[64];
	struct stat		 st;

	if (cg_path(path, sizeof(path), "pids", name, NULL) == -1 ||
	    stat(path, &st) == -1)
		return -1;
	if (st.st_mtime > time(NULL) - CG_YOUNG)
		return 0;
	if (cg_read("pids", name, "pids.peak", buf, sizeof(buf)) == -1 ||
	    strtoull(buf, NULL, 10) == 0)
		return 0;
	for (r = cg_rows; r < cg_rows + NROWS; r++)
		if (!r->cr_sub && cg_read(r->cr_ctl, name, "cgroup.procs",
		    buf, sizeof(buf)) == 0 && buf[0] != '\0')
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
	const struct cg_row	*r;
	char			 buf[64];
	uint8_t			 absent = 0;

	for (r = cg_rows; r < cg_rows + NROWS; r++)
		if (cg_read(r->cr_ctl, name, r->cr_file, buf,
		    sizeof(buf)) == -1)
			absent |= r->cr_bit;
	return absent;
}

/*
 * verify: the group's limits, but those of cl_skip, are cl's.  A
 * value 0 in cl (the cpu share, which the record does not keep) asks
 * only that there is a limit.
 */
int
ns_cgroup_check(const char *name, const struct ns_cglimits *cl, char *why,
    size_t len)
{
	const struct cg_row	*r;
	char			 buf[64], v[32];
	long long		 want;

	for (r = cg_rows; r < cg_rows + NROWS; r++) {
		if (cl->cl_skip & r->cr_bit)
			continue;
		cg_value(r, cl, v, sizeof(v));
		want = strtoll(v, NULL, 10);
		if (cg_read(r->cr_ctl, name, r->cr_file, buf,
		    sizeof(buf)) == -1 || (want != 0 &&
		    strtoll(buf, NULL, 10) != want) ||
		    strtoll(buf, NULL, 10) <= 0) {
			strlcpy(why, space_limit_name(r->cr_bit), len);
			return -1;
		}
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
