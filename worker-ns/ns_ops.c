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
 * The place protocol's operations on native spaces: check, create,
 * list, show, verify, stop, start, remove.  Each runs to its end at
 * once (a space starts in milliseconds); ownership is the record's
 * owner against the request's, on every act.
 */

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "proc.h"
#include "space_limits.h"
#include "space_parse.h"
#include "ns.h"

#define WAIT_STEP_NS	10000000L	/* 10 ms */
#define WAIT_STEPS	300		/* 3 s */

static void
nap(void)
{
	struct timespec	 ts = { 0, WAIT_STEP_NS };

	nanosleep(&ts, NULL);
}

/* 1 when the process the file names runs. */
int
ns_alive(const char *id, const char *leaf)
{
	return ns_pid_read(id, leaf) > 0;
}

/*
 * Ends every process of a space's group and of its gatekeeper's: 0, or
 * -1 (and a line in spaced's log) when one is still there.
 */
int
ns_end_all(const char *id)
{
	char	 gk[SPACE_ID_SIZE + 4];
	int	 i, left = 0;

	ns_helper_end(id);
	snprintf(gk, sizeof(gk), "%s-gk", id);
	for (i = 0; i < WAIT_STEPS; i++) {
		if ((left = ns_cgroup_kill(id) + ns_cgroup_kill(gk)) == 0)
			break;
		ns_reap();
		nap();
	}
	ns_reap();
	/*
	 * Out of the groups is not gone: an exiting pid 1 waits for its
	 * namespace, whose last zombie may wait for us to reap a parent.
	 */
	for (i = 0; i < WAIT_STEPS && (ns_pid_read(id, "init") > 0 ||
	    ns_pid_read(id, "gk") > 0); i++) {
		nap();
		ns_reap();
	}
	if (left > 0 || i == WAIT_STEPS) {
		log_warnx("space %s: a process of it could not be ended", id);
		left = 1;
	}
	ns_cgroup_remove(id);
	ns_cgroup_remove(gk);
	ns_pid_forget(id, "init");
	ns_pid_forget(id, "gk");
	return left > 0 ? -1 : 0;
}

static void
send_info(uint32_t peerid, const struct ns_space *ns)
{
	struct space_info	 si;
	int			 up, gk;

	up = ns_alive(ns->ns_id, "init");
	gk = ns_alive(ns->ns_id, "gk");
	memset(&si, 0, sizeof(si));
	si.si_kind = SPACE_REC_INFO;
	strlcpy(si.si_id, ns->ns_id, sizeof(si.si_id));
	strlcpy(si.si_name, ns->ns_name, sizeof(si.si_name));
	strlcpy(si.si_project, ns->ns_project, sizeof(si.si_project));
	strlcpy(si.si_created, ns->ns_created, sizeof(si.si_created));
	si.si_memory = ns->ns_memory;
	strlcpy(si.si_place, "native", sizeof(si.si_place));
	strlcpy(si.si_state, up ? "running" : "exited", sizeof(si.si_state));
	strlcpy(si.si_gk_state, gk ? "running" : "exited",
	    sizeof(si.si_gk_state));
	if (up && !gk) {
		si.si_damaged = 1;
		si.si_nmissing = 1;
		strlcpy(si.si_missing[0], "gatekeeper_stopped",
		    sizeof(si.si_missing[0]));
	}
	ns_reply(IMSG_SPACE_INFO, peerid, &si, sizeof(si));
}

/* The gatekeeper first, then the space; each with its group. */
int
ns_space_run(const struct ns_space *ns, const struct ns_launch *nl, char *err,
    size_t len)
{
	char		 gk[SPACE_ID_SIZE + 4], missing[16], sock[PATH_MAX];
	struct ns_cglimits gcl, scl;
	pid_t		 gpid, spid;
	int		 i;

	ns_end_all(ns->ns_id);
	/* What the host lacks and spaced.conf accepts; the rest must be. */
	gcl.cl_skip = scl.cl_skip = ns_limits_absent() & nl->nl_accept;
	gcl.cl_memory = NS_GK_MEMORY;
	gcl.cl_cpus = 500000000LL;
	gcl.cl_pids = NS_GK_PIDS_MAX;
	scl.cl_memory = ns->ns_memory;
	scl.cl_cpus = ns->ns_cpus;
	scl.cl_pids = NS_PIDS_MAX;
	snprintf(gk, sizeof(gk), "%s-gk", ns->ns_id);
	if (ns_cgroup_make(gk, &gcl, missing, sizeof(missing)) == -1 ||
	    ns_cgroup_make(ns->ns_id, &scl, missing, sizeof(missing)) == -1) {
		snprintf(err, len, "the %s limit cannot be set", missing);
		return -1;
	}
	/* Its exec helper joins the groups while the gatekeeper starts. */
	ns_helper_prepare(ns);
	if ((gpid = ns_gk_launch(ns, &gcl, err, len)) == -1 ||
	    ns_pid_write(ns->ns_id, "gk", gpid) == -1)
		goto fail;
	/* The gatekeeper's sockets before the relay connects to them. */
	if (ns_path(sock, sizeof(sock), ns->ns_id, "sock/window.sock") == -1)
		goto fail;
	for (i = 0; i < WAIT_STEPS && access(sock, F_OK) == -1; i++) {
		if (!ns_alive(ns->ns_id, "gk")) {
			snprintf(err, len, "the gatekeeper exited: see "
			    "its gk.err");
			goto fail;
		}
		nap();
	}
	if ((spid = ns_space_launch(ns, nl, &scl, err, len)) == -1 ||
	    ns_pid_write(ns->ns_id, "init", spid) == -1)
		goto fail;
	ns_helper_spawn(ns, spid);
	return 0;
fail:
	if (err[0] == '\0')
		snprintf(err, len, "%s", strerror(errno));
	ns_end_all(ns->ns_id);
	return -1;
}

/* A free loopback port for the gatekeeper's control channel. */
static uint32_t
free_port(void)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);
	int			 s;
	uint32_t		 port = 0;

	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return 0;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
	    getsockname(s, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(s);
	return port;
}

int
ns_make_dir(const char *id, const char *leaf, uid_t owner, mode_t mode)
{
	char	 path[PATH_MAX];

	if (ns_path(path, sizeof(path), id, leaf) == -1 ||
	    (mkdir(path, mode) == -1 && errno != EEXIST) ||
	    chown(path, owner, owner) == -1 || chmod(path, mode) == -1)
		return -1;
	return 0;
}

/* 1 when a space's record holds uids from the same 24 bits as id's. */
static int
uid_taken(const char *id)
{
	struct dirent	*de;
	DIR		*d;
	int		 taken = 0;

	if ((d = opendir(ns_state())) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL && !taken)
		taken = space_id_valid(de->d_name) &&
		    strcmp(de->d_name + 6, id + 6) == 0;
	closedir(d);
	return taken;
}

/* The spaces of owner this place holds a record of. */
static size_t
owner_spaces(const char *owner)
{
	struct ns_space	 ns;
	struct dirent	*de;
	DIR		*d;
	size_t		 n = 0;

	if ((d = opendir(ns_state())) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (space_id_valid(de->d_name) &&
		    ns_record_read(de->d_name, &ns) == 0 &&
		    strcmp(ns.ns_owner, owner) == 0)
			n++;
	closedir(d);
	return n;
}

static void
op_check(uint32_t peerid)
{
	struct docker_check_msg	 dc;
	char			 err[256];
	const char		*miss;

	memset(&dc, 0, sizeof(dc));
	dc.dc_available = 1;
	dc.dc_host_isolation = 1;
	strlcpy(dc.dc_version, "native", sizeof(dc.dc_version));
	strlcpy(dc.dc_os, "linux", sizeof(dc.dc_os));
	strlcpy(dc.dc_arch, "x86_64", sizeof(dc.dc_arch));
	if (ns_probe(err, sizeof(err)) != NULL) {
		dc.dc_available = 0;
		strlcpy(dc.dc_code, ERR_SANDBOX_UNAVAILABLE,
		    sizeof(dc.dc_code));
		strlcpy(dc.dc_message, err, sizeof(dc.dc_message));
		log_warnx("namespaces: %s", err);
	} else if ((miss = ns_limits_missing())[0] != '\0')
		snprintf(dc.dc_api_version, sizeof(dc.dc_api_version),
		    "no %s limit", miss);
	ns_reply(IMSG_DOCKER_CHECK_REP, peerid, &dc, sizeof(dc));
}

/*
 * A fresh id whose 24 low bits (its uids) no other space has, and its
 * folders: a space's, or the tools' one-shot's (no record).
 */
int
ns_space_new(struct ns_space *ns, uint64_t memory)
{
	char		 dir[PATH_MAX], work[SPACE_ID_SIZE + 8];
	time_t		 now = time(NULL);
	unsigned long	 low;

	memset(ns, 0, sizeof(*ns));
	do
		space_id_new(ns->ns_id);
	while (uid_taken(ns->ns_id));
	strftime(ns->ns_created, sizeof(ns->ns_created), "%Y-%m-%dT%H:%M:%SZ",
	    gmtime(&now));
	ns->ns_memory = memory != 0 ? memory : NS_MEMORY_DEFAULT;
	ns->ns_cpus = NS_CPUS_DEFAULT;
	low = strtoul(ns->ns_id + 6, NULL, 16) & 0xffffff;
	ns->ns_uid = NS_UID_BASE | low;
	ns->ns_gk_uid = NS_GK_UID_BASE | low;
	/* /spaces is root's, as the Docker place's: only <id> is the space's */
	snprintf(work, sizeof(work), "work/%s", ns->ns_id);
	if ((ns->ns_port = free_port()) == 0 ||
	    ns_path(dir, sizeof(dir), ns->ns_id, NULL) == -1 ||
	    mkdir(dir, 0700) == -1 ||
	    ns_make_dir(ns->ns_id, "work", 0, 0755) == -1 ||
	    ns_make_dir(ns->ns_id, work, ns->ns_uid, 0700) == -1 ||
	    ns_make_dir(ns->ns_id, "home", ns->ns_uid, 0700) == -1 ||
	    ns_make_dir(ns->ns_id, "sock", ns->ns_gk_uid, 0755) == -1)
		return -1;
	return 0;
}

/* How a space of sq runs: its hosts, limits, tools and agent. */
static int
launch_of(const struct space_req *sq, struct ns_launch *nl, char *tools,
    size_t len)
{
	memset(nl, 0, sizeof(*nl));
	nl->nl_hosts = sq->sq_hosts;
	nl->nl_accept = sq->sq_limits_accept;
	nl->nl_restarts = 1;
	if (sq->sq_agent.sa_name[0] == '\0')
		return 0;
	if (space_agent_check(&sq->sq_agent) != NULL ||
	    ns_tools_path(tools, len, sq->sq_agent.sa_tools) == -1)
		return -1;
	nl->nl_tools = tools;
	nl->nl_agent = &sq->sq_agent;
	return 0;
}

static void
op_create(uint32_t peerid, const struct space_req *sq, const char *token)
{
	struct ns_space	 ns;
	struct ns_launch nl;
	char		 err[SPACE_DONE_MESSAGE_MAX], tools[PATH_MAX];
	const char	*miss;
	uint8_t		 absent;
	pid_t		 pid;
	size_t		 n;
	int		 full;

	if (ns_probe(err, sizeof(err)) != NULL) {
		ns_done(peerid, ERR_SANDBOX_UNAVAILABLE, err, -1);
		return;
	}
	/* spaced.conf's "spaces per owner", as the Docker place counts. */
	if (sq->sq_spaces_max > 0 &&
	    (n = owner_spaces(sq->sq_owner)) >= sq->sq_spaces_max) {
		snprintf(err, sizeof(err), "%zu spaces already, %u at most "
		    "(spaces per owner in spaced.conf)", n,
		    (unsigned)sq->sq_spaces_max);
		ns_done(peerid, ERR_TOO_MANY_SPACES, err, -1);
		return;
	}
	absent = ns_limits_absent();
	if ((miss = ns_limit_first(absent & ~sq->sq_limits_accept))[0] !=
	    '\0') {
		snprintf(err, sizeof(err), "no %s limit on this host (see "
		    "spaced.conf's native accept missing limits)", miss);
		ns_done(peerid, ERR_SANDBOX_UNAVAILABLE, err, -1);
		return;
	}
	/* A group is how its processes are found again: one at least. */
	if ((absent & (SPACE_LIMIT_MEMORY | SPACE_LIMIT_PIDS |
	    SPACE_LIMIT_CPU)) == (SPACE_LIMIT_MEMORY | SPACE_LIMIT_PIDS |
	    SPACE_LIMIT_CPU)) {
		ns_done(peerid, ERR_SANDBOX_UNAVAILABLE, "no cgroup controller "
		    "on this host to hold a space's processes", -1);
		return;
	}
	if (launch_of(sq, &nl, tools, sizeof(tools)) == -1) {
		ns_done(peerid, ERR_TOOLS_FILL_FAILED, "the agent's tools are "
		    "not a folder of the native place's", -1);
		return;
	}
	if (ns_space_new(&ns, sq->sq_memory) == 0) {
		strlcpy(ns.ns_owner, sq->sq_owner, sizeof(ns.ns_owner));
		strlcpy(ns.ns_name, sq->sq_name[0] != '\0' ? sq->sq_name :
		    ns.ns_id, sizeof(ns.ns_name));
		strlcpy(ns.ns_project, sq->sq_project, sizeof(ns.ns_project));
		if (sq->sq_cpus != 0)
			ns.ns_cpus = sq->sq_cpus;
	}
	if (ns.ns_id[0] == '\0' || ns.ns_owner[0] == '\0' ||
	    ns_record_write(&ns) == -1) {
		full = errno == ENOSPC || errno == EDQUOT;
		if (full)
			snprintf(err, sizeof(err), "no room left on the disk "
			    "of %s: free some there (a space's files are "
			    "there too: spacectl remove frees them)",
			    ns_state());
		else
			snprintf(err, sizeof(err), "the space's folder: %s",
			    strerror(errno));
		(void)ns_record_remove(ns.ns_id);
		ns_done(peerid, full ? ERR_DISK_FULL : ERR_INTERNAL, err, -1);
		return;
	}
	err[0] = '\0';
	if (ns_space_run(&ns, &nl, err, sizeof(err)) == -1) {
		log_warnx("create %s: %s", ns.ns_id, err);
		(void)ns_record_remove(ns.ns_id);
		ns_done(peerid, ERR_SANDBOX_UNAVAILABLE, err, -1);
		return;
	}
	/* The token into its home, as an exec's stdin: the server waits. */
	if (token[0] != '\0' && ((pid = ns_pid_read(ns.ns_id, "init")) <= 0 ||
	    ns_token_write(&ns, pid, token) == -1)) {
		ns_end_all(ns.ns_id);
		(void)ns_record_remove(ns.ns_id);
		ns_done(peerid, ERR_TOKEN_UNREADABLE, "the token could not be "
		    "written into the space", -1);
		return;
	}
	log_info("space %s created", ns.ns_id);
	send_info(peerid, &ns);
	ns_done(peerid, "", NULL, -1);
}

/*
 * The caller's record of id: 0, or a refusal already sent.  Another
 * owner's space is answered as no space at all: nothing tells it is.
 */
static int
owned(uint32_t peerid, const struct space_req *sq, struct ns_space *ns)
{
	if (ns_record_read(sq->sq_id, ns) == -1 ||
	    strcmp(ns->ns_owner, sq->sq_owner) != 0) {
		ns_done(peerid, ERR_SPACE_NOT_FOUND, NULL, -1);
		return -1;
	}
	return 0;
}

static void
op_list(uint32_t peerid, const struct space_req *sq)
{
	struct ns_space	 ns;
	struct dirent	*de;
	DIR		*d;

	if ((d = opendir(ns_state())) == NULL) {
		ns_done(peerid, ERR_INTERNAL, "the state directory", -1);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!space_id_valid(de->d_name) ||
		    ns_record_read(de->d_name, &ns) == -1 ||
		    strcmp(ns.ns_owner, sq->sq_owner) != 0)
			continue;
		send_info(peerid, &ns);
	}
	closedir(d);
	ns_done(peerid, "", NULL, -1);
}

static void
violation(uint32_t peerid, const char *check, const char *msg, int *n)
{
	struct space_violation	 sv;

	memset(&sv, 0, sizeof(sv));
	sv.sv_kind = SPACE_REC_VIOLATION;
	strlcpy(sv.sv_check, check, sizeof(sv.sv_check));
	strlcpy(sv.sv_message, msg, sizeof(sv.sv_message));
	ns_reply(IMSG_SPACE_VIOLATION, peerid, &sv, sizeof(sv));
	(*n)++;
}

/*
 * Interfaces but loopback in a process's network namespace (-1 when it
 * cannot be read): one made there behind our back is a way out.
 */
static int
net_extra(pid_t pid)
{
	char	 path[64], line[256], *colon;
	FILE	*f;
	int	 n = 0, i = 0;

	snprintf(path, sizeof(path), "/proc/%d/net/dev", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (i++ < 2 || (colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		if (strcmp(line + strspn(line, " "), "lo") != 0)
			n++;
	}
	fclose(f);
	return n;
}

/*
 * 1 when the space's tools mount (if it has one) is not read-only, -1
 * when its mount table cannot be read: what the space runs is ours.
 */
static int
tools_writable(pid_t pid)
{
	char	 path[64], line[1024], *mp, *opts, *sp;
	FILE	*f;
	int	 rw = 0;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		/* id parent major:minor root MOUNTPOINT OPTIONS ... */
		if ((mp = strchr(line, ' ')) == NULL ||
		    (mp = strchr(mp + 1, ' ')) == NULL ||
		    (mp = strchr(mp + 1, ' ')) == NULL ||
		    (mp = strchr(mp + 1, ' ')) == NULL ||
		    (opts = strchr(++mp, ' ')) == NULL)
			continue;
		*opts++ = '\0';
		if ((sp = strchr(opts, ' ')) != NULL)
			*sp = '\0';
		if (strcmp(mp, SPACE_TOOLS_DIR) == 0 &&
		    strncmp(opts, "ro", 2) != 0)
			rw = 1;
	}
	fclose(f);
	return rw;
}

/* Each limit the space runs without, by name. */
static void
absent_limits(uint32_t peerid, uint8_t absent, int *bad)
{
	char	 msg[SPACE_MESSAGE_MAX];
	uint8_t	 bit;

	for (bit = 1; bit <= SPACE_LIMITS_ALL; bit <<= 1) {
		if ((absent & bit) == 0)
			continue;
		snprintf(msg, sizeof(msg), "the space runs without a %s "
		    "limit: this host has none", space_limit_name(bit));
		violation(peerid, space_limit_name(bit), msg, bad);
	}
}

/*
 * What verify demands of a running space, by name.  accepted: the
 * missing limits not to name (start's look at a running space).
 */
static int
verify(uint32_t peerid, const struct ns_space *ns, uint8_t accepted)
{
	char		 why[16], gk[SPACE_ID_SIZE + 4], path[64], self[64];
	char		 theirs[64];
	/* cpu 0: the record keeps no share, a quota must be there */
	struct ns_cglimits scl = { ns->ns_memory, 0, NS_PIDS_MAX, 0 };
	struct ns_cglimits gcl = { NS_GK_MEMORY, 0, NS_GK_PIDS_MAX, 0 };
	pid_t		 pid;
	ssize_t		 n;
	uint8_t		 host;
	int		 bad = 0;

	/* A group lacks a limit's file only for a limit the host lacks. */
	host = ns_limits_absent();
	snprintf(gk, sizeof(gk), "%s-gk", ns->ns_id);
	if ((pid = ns_pid_read(ns->ns_id, "init")) > 0) {
		scl.cl_skip = host & ns_cgroup_absent(ns->ns_id);
		absent_limits(peerid, scl.cl_skip & ~accepted, &bad);
		if (ns_cgroup_check(ns->ns_id, &scl, why, sizeof(why)) == -1)
			violation(peerid, why, "the space's limit is not the "
			    "record's", &bad);
		snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
		if ((n = readlink(path, theirs, sizeof(theirs) - 1)) <= 0 ||
		    (theirs[n] = '\0', (n = readlink("/proc/self/ns/net",
		    self, sizeof(self) - 1)) <= 0) ||
		    (self[n] = '\0', strcmp(self, theirs) == 0))
			violation(peerid, "network", "the space is not in a "
			    "network namespace of its own", &bad);
		else if (net_extra(pid) != 0)
			violation(peerid, "network", "the space's network has "
			    "an interface beside loopback", &bad);
		if (tools_writable(pid) == 1)
			violation(peerid, "tools_writable", "the agent's tools "
			    "are not mounted read-only in the space", &bad);
	}
	gcl.cl_skip = host & ns_cgroup_absent(gk);
	if (ns_alive(ns->ns_id, "gk") && ns_cgroup_check(gk, &gcl, why,
	    sizeof(why)) == -1)
		violation(peerid, "gatekeeper_limits", "the gatekeeper's limit "
		    "is not the record's", &bad);
	return bad;
}

static void
op_start(uint32_t peerid, const struct space_req *sq, struct ns_space *ns)
{
	char		 err[SPACE_DONE_MESSAGE_MAX], tools[PATH_MAX];
	struct ns_launch nl;

	if (ns_alive(ns->ns_id, "init") && ns_alive(ns->ns_id, "gk")) {
		if (verify(peerid, ns, sq->sq_limits_accept) != 0) {
			ns_done(peerid, ERR_SPACE_VERIFY_FAILED, NULL, -1);
			return;
		}
		send_info(peerid, ns);
		ns_done(peerid, "", NULL, -1);
		return;
	}
	err[0] = '\0';
	if (launch_of(sq, &nl, tools, sizeof(tools)) == -1) {
		ns_done(peerid, ERR_TOOLS_FILL_FAILED, "the agent's tools are "
		    "not a folder of the native place's", -1);
		return;
	}
	if (ns_space_run(ns, &nl, err, sizeof(err)) == -1) {
		ns_done(peerid, ERR_SANDBOX_UNAVAILABLE, err, -1);
		return;
	}
	send_info(peerid, ns);
	ns_done(peerid, "", NULL, -1);
}

static void
resource(uint32_t peerid, const char *id, const char *type,
    const char *name, int ok)
{
	struct space_resource	 sr;

	memset(&sr, 0, sizeof(sr));
	sr.sr_kind = SPACE_REC_RESOURCE;
	sr.sr_state = ok ? SPACE_RES_REMOVED : SPACE_RES_FAILED;
	strlcpy(sr.sr_id, id, sizeof(sr.sr_id));
	strlcpy(sr.sr_type, type, sizeof(sr.sr_type));
	strlcpy(sr.sr_name, name, sizeof(sr.sr_name));
	ns_reply(IMSG_SPACE_RESOURCE, peerid, &sr, sizeof(sr));
}

static void
op_remove(uint32_t peerid, const struct space_req *sq)
{
	struct ns_space	 ns;
	char		 path[PATH_MAX];
	uint64_t	 oom = 0, forks;
	int		 ok;

	/* Unknown or another's: nothing removed, nothing failed. */
	if (ns_record_read(sq->sq_id, &ns) == -1 ||
	    strcmp(ns.ns_owner, sq->sq_owner) != 0) {
		ns_done(peerid, "", NULL, -1);
		return;
	}
	/* The kernel's kills for memory, before the group goes. */
	if (sq->sq_oom)
		ns_cgroup_events(ns.ns_id, &oom, &forks);
	ns_end_all(ns.ns_id);
	resource(peerid, ns.ns_id, "process", "space", 1);
	resource(peerid, ns.ns_id, "process", "gatekeeper", 1);
	ns_path(path, sizeof(path), ns.ns_id, NULL);
	ok = ns_rm_tree(path) == 0;
	resource(peerid, ns.ns_id, "folder", "work", ok);
	resource(peerid, ns.ns_id, "folder", "home", ok);
	resource(peerid, ns.ns_id, "folder", "sockets", ok);
	resource(peerid, ns.ns_id, "record", ns.ns_id, ok);
	ns_done(peerid, "", NULL, !sq->sq_oom ? -1 : oom > 255 ? 255 :
	    (int)oom);
}

/*
 * With sq_oom (the end of a start whose server kept dying), the
 * kernel's kills for memory in this run's group, before it goes.
 */
static void
op_stop(uint32_t peerid, const struct space_req *sq, struct ns_space *ns)
{
	uint64_t	 oom = 0, forks;

	if (sq->sq_oom)
		ns_cgroup_events(ns->ns_id, &oom, &forks);
	ns_end_all(ns->ns_id);
	ns_done(peerid, "", NULL, !sq->sq_oom ? -1 : oom > 255 ? 255 :
	    (int)oom);
}

void
ns_op(uint32_t type, uint32_t peerid, struct imsg *imsg)
{
	struct space_create_req	 cq;
	struct space_req	*sq = &cq.cq_space;
	struct ns_space		 ns;
	size_t			 len = imsg_get_len(imsg);
	int			 n;

	if (type == IMSG_DOCKER_CHECK_REQ) {
		op_check(peerid);
		return;
	}
	memset(&cq, 0, sizeof(cq));
	if ((len != sizeof(cq) && len != sizeof(*sq)) ||
	    imsg_get_data(imsg, &cq, len) == -1)
		fatalx("%s: request of %zu bytes", __func__, len);
	if (memchr(sq->sq_owner, '\0', sizeof(sq->sq_owner)) == NULL ||
	    memchr(sq->sq_id, '\0', sizeof(sq->sq_id)) == NULL ||
	    memchr(sq->sq_name, '\0', sizeof(sq->sq_name)) == NULL ||
	    memchr(sq->sq_project, '\0', sizeof(sq->sq_project)) == NULL ||
	    memchr(sq->sq_hosts, '\0', sizeof(sq->sq_hosts)) == NULL ||
	    !space_owner_valid(sq->sq_owner))
		fatalx("%s: malformed request", __func__);
	if (memchr(cq.cq_token, '\0', sizeof(cq.cq_token)) == NULL ||
	    (cq.cq_token[0] != '\0' && !space_token_valid(cq.cq_token,
	    sizeof(cq.cq_token))))
		fatalx("%s: malformed token", __func__);
	if (type == IMSG_SPACE_CREATE_REQ)
		op_create(peerid, sq, cq.cq_token);
	explicit_bzero(cq.cq_token, sizeof(cq.cq_token));
	switch (type) {
	case IMSG_SPACE_CREATE_REQ:
		return;
	case IMSG_SPACE_LIST_REQ:
		op_list(peerid, sq);
		return;
	case IMSG_SPACE_REMOVE_REQ:
		op_remove(peerid, sq);
		return;
	}
	if (owned(peerid, sq, &ns) == -1)
		return;
	switch (type) {
	case IMSG_SPACE_SHOW_REQ:
		send_info(peerid, &ns);
		ns_done(peerid, "", NULL, -1);
		break;
	case IMSG_SPACE_VERIFY_REQ:
		n = verify(peerid, &ns, 0);
		ns_done(peerid, "", NULL, -1);
		(void)n;
		break;
	case IMSG_SPACE_STOP_REQ:
		op_stop(peerid, sq, &ns);
		break;
	case IMSG_SPACE_START_REQ:
		op_start(peerid, sq, &ns);
		break;
	default:
		ns_done(peerid, ERR_BAD_REQUEST, "not an operation of the "
		    "native place", -1);
	}
}

/*
 * At start: what a crashed spaced-ns left.  Its spaces died with it
 * (their pid 1 had its death signal); anything in their groups that did
 * not is ended now, and the records stay for start.
 */
void
ns_sweep(void)
{
	struct dirent	*de;
	DIR		*d;
	int		 n = 0;

	if ((d = opendir(ns_state())) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!space_id_valid(de->d_name))
			continue;
		ns_end_all(de->d_name);
		n++;
	}
	closedir(d);
	if (n > 0)
		log_info("found %d native spaces: stopped, records kept", n);
	ns_cgroup_sweep();
}
