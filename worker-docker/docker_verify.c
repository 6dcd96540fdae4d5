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
 * The checkers of the containers: read an inspect answer and name every
 * way it differs from what docker_harden.c asks for (the list of checks:
 * docs/notes/spaced-docker-verify.md).  The report, the JSON readers and
 * the network, volume and create-answer checks: docker_verify_res.c.
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "docker_harden.h"
#include "docker_verify.h"

#define GK_PREFIX	"gatekeeper_"

/* What differs between the two containers' checks. */
struct expect {
	const char		*ex_prefix;
	enum space_role		 ex_role;
	const char		*ex_image;
	int64_t			 ex_memory;
	int64_t			 ex_cpus;
	const char		*ex_tmpfs;
	const char *const	*ex_health;
	const char		*ex_user;
	int			 ex_nproc;	/* 0: no nproc limit */
	int			 ex_oom_adj;
};

/*
 * What Engine 20.10 masks and makes read-only by default: a container
 * must have at least these (newer engines add to them).
 */
static const char *const masked_paths[] = {
	"/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys",
	"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
	"/proc/sched_debug", "/proc/scsi", "/sys/firmware", NULL
};
static const char *const readonly_paths[] = {
	"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
	"/proc/sysrq-trigger", NULL
};

/* An array of exactly these strings, in this order. */
static int
strings_eq(const json_t *a, const char *const *want)
{
	size_t	 i;

	if (!json_is_array(a))
		return 0;
	for (i = 0; want[i] != NULL; i++) {
		const char *s = json_string_value(json_array_get(a, i));
		if (s == NULL || strcmp(s, want[i]) != 0)
			return 0;
	}
	return json_array_size(a) == i;
}

/* Any string entry of a equal to s. */
static int
has_string(const json_t *a, const char *s)
{
	size_t	 i;
	json_t	*v;

	json_array_foreach(a, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
			return 1;
	return 0;
}

/* Every string of want is an entry of a. */
static int
has_all(const json_t *a, const char *const *want)
{
	size_t	 i;

	for (i = 0; want[i] != NULL; i++)
		if (!has_string(a, want[i]))
			return 0;
	return 1;
}

/* A capability as the kernel names it: upper case, no CAP_. */
static void
cap_norm(const char *in, char *out, size_t len)
{
	size_t	 i;

	if (strncasecmp(in, "CAP_", 4) == 0)
		in += 4;
	for (i = 0; in[i] != '\0' && i < len - 1; i++)
		out[i] = toupper((unsigned char)in[i]);
	out[i] = '\0';
}

static int
mentions_socket(const char *s)
{
	return s != NULL && (strstr(s, "docker.sock") != NULL ||
	    strstr(s, "containerd.sock") != NULL ||
	    strstr(s, "podman.sock") != NULL || strstr(s, "crio.sock") != NULL);
}

/* Is entry i of the array a the string s? */
static int
arg_is(const json_t *a, size_t i, const char *s)
{
	const char	*v = json_string_value(json_array_get(a, i));

	return v != NULL && strcmp(v, s) == 0;
}

static void
check_config(const json_t *c, const struct harden_params *p,
    const struct expect *ex, struct harden_report *r)
{
	const char	*pf = ex->ex_prefix;
	const json_t	*hc = json_object_get(c, "Healthcheck");
	const json_t	*ep = json_object_get(c, "Entrypoint");
	const json_t	*env = json_object_get(c, "Env");
	const json_t	*v;
	char		 folder[HARDEN_FOLDER_MAX];
	size_t		 i, n = 0, off;

	verify_labels(json_object_get(c, "Labels"), p, ex->ex_role, pf,
	    "labels", r);
	if (!verify_streq(c, "Image", ex->ex_image))
		verify_add(r, pf, "image", "not the image asked for");
	if (!verify_streq(c, "User", ex->ex_user))
		verify_add(r, pf, "user", "not %s", ex->ex_user);

	/*
	 * The space: relay, -w and its folder, "--", then the argv (a
	 * space made before the relay made its folder has no -w); the
	 * gatekeeper: its argv.
	 */
	if (ex->ex_role == ROLE_SPACE) {
		for (i = 0; p->hp_argv[i] != NULL; i++)
			n++;
		off = arg_is(ep, 1, "-w") ? HARDEN_RELAY_ARGS : 2;
		if (harden_space_folder(folder, sizeof(folder),
		    &p->hp_meta) == -1 ||
		    !json_is_array(ep) || json_array_size(ep) != n + off ||
		    !arg_is(ep, 0, HARDEN_RELAY) ||
		    (off == HARDEN_RELAY_ARGS && !arg_is(ep, 2, folder)) ||
		    !arg_is(ep, off - 1, "--"))
			verify_add(r, pf, "command", "not under the relay");
		else
			for (i = 0; i < n; i++) {
				const char *s = json_string_value(
				    json_array_get(ep, i + off));
				if (s == NULL || strcmp(s, p->hp_argv[i]) != 0)
					verify_add(r, pf, "command",
					    "not the command asked for");
			}
	} else if (!strings_eq(ep, p->hp_gk_argv))
		verify_add(r, pf, "command", "not the gatekeeper's command");
	if (!verify_empty(json_object_get(c, "Cmd")))
		verify_add(r, pf, "command", "a Cmd beside the entrypoint");

	/* Secrets never; ours all present; the gatekeeper nothing else. */
	if (!json_is_array(env) && !json_is_null(env) && env != NULL)
		verify_add(r, pf, "env", "not a list");
	json_array_foreach(env, i, v) {
		const char *s = json_string_value(v);
		if (s == NULL || harden_env_secret(s))
			verify_add(r, pf, "env", "a secret-looking variable");
		else if (ex->ex_role == ROLE_GATEKEEPER &&
		    strcmp(s, HARDEN_GK_ENV) != 0 && strncmp(s, "PATH=", 5) != 0)
			verify_add(r, pf, "env", "a variable beyond HOME");
	}
	if (ex->ex_role == ROLE_SPACE) {
		for (i = 0; harden_space_env[i] != NULL; i++)
			if (!has_string(env, harden_space_env[i]))
				verify_add(r, pf, "env", "%.40s missing",
				    harden_space_env[i]);
		for (i = 0; p->hp_env != NULL && p->hp_env[i] != NULL; i++)
			if (!has_string(env, p->hp_env[i]))
				verify_add(r, pf, "env", "an asked-for variable missing");
	} else if (!has_string(env, HARDEN_GK_ENV))
		verify_add(r, pf, "env", "HOME=/tmp missing");

	if (!json_is_object(hc) ||
	    !strings_eq(json_object_get(hc, "Test"), ex->ex_health) ||
	    !verify_inteq(hc, "Interval", HARDEN_HEALTH_INTERVAL) ||
	    !verify_inteq(hc, "Timeout", HARDEN_HEALTH_TIMEOUT) ||
	    !verify_inteq(hc, "StartPeriod", HARDEN_HEALTH_START) ||
	    !verify_inteq(hc, "Retries", HARDEN_HEALTH_RETRIES))
		verify_add(r, pf, "healthcheck", "not the health check asked for");
}

static void
check_security_opt(const json_t *hc, const char *pf, struct harden_report *r)
{
	/*
	 * The engine adds label=disable itself to a privileged container
	 * or one that shares the host's pid or ipc namespace: the cause
	 * has its own name, so the consequence is not named twice.
	 */
	int		 caused = !json_is_false(json_object_get(hc,
			    "Privileged")) || !verify_streq(hc, "PidMode", "") ||
			    verify_streq(hc, "IpcMode", "host");
	const json_t	*so = json_object_get(hc, "SecurityOpt");
	const json_t	*v;
	int		 nnp = 0;
	size_t		 i;

	if (!json_is_array(so) && !verify_empty(so))
		verify_add(r, pf, "security_opt", "not a list");
	json_array_foreach(so, i, v) {
		const char *s = json_string_value(v);
		if (s == NULL)
			verify_add(r, pf, "security_opt", "not a string");
		else if (strcmp(s, "no-new-privileges") == 0 ||
		    strcmp(s, "no-new-privileges=true") == 0 ||
		    strcmp(s, "no-new-privileges:true") == 0)
			nnp = 1;
		else if (strncmp(s, "no-new-privileges", 17) == 0)
			verify_add(r, pf, "no_new_privileges", "%.60s", s);
		else if (strncmp(s, "seccomp", 7) == 0)
			verify_add(r, pf, "seccomp", "%.60s", s);
		else if (caused && strcmp(s, "label=disable") == 0)
			continue;
		else
			verify_add(r, pf, "security_opt", "%.60s", s);
	}
	if (!nnp)
		verify_add(r, pf, "no_new_privileges", "no no-new-privileges");
}

static void
check_caps(const json_t *hc, const char *pf, struct harden_report *r)
{
	const json_t	*v;
	char		 cap[64];
	int		 all = 0;
	size_t		 i;

	json_array_foreach(json_object_get(hc, "CapDrop"), i, v) {
		if (!json_is_string(v))
			continue;
		cap_norm(json_string_value(v), cap, sizeof(cap));
		if (strcmp(cap, "ALL") == 0)
			all = 1;
	}
	if (!all)
		verify_add(r, pf, "cap_drop", "ALL not dropped");
	if (!verify_empty(json_object_get(hc, "CapAdd")))
		verify_add(r, pf, "cap_add", "capabilities added back");
}

/* One entry of Ulimits: name's soft and hard both v. */
static int
ulimit_is(const json_t *u, const char *name, json_int_t v)
{
	const json_t	*e;
	size_t		 i;

	json_array_foreach(u, i, e)
		if (verify_streq(e, "Name", name))
			return verify_inteq(e, "Soft", v) &&
			    verify_inteq(e, "Hard", v);
	return 0;
}

/* Ulimits exactly ours, the OOM score, no extra group. */
static void
check_limits(const json_t *hc, const struct expect *ex,
    struct harden_report *r)
{
	const char	*pf = ex->ex_prefix;
	const json_t	*u = json_object_get(hc, "Ulimits");

	if (!json_is_array(u) || json_array_size(u) != (ex->ex_nproc ? 3 : 2) ||
	    !ulimit_is(u, "core", 0) || !ulimit_is(u, "nofile", HARDEN_NOFILE) ||
	    (ex->ex_nproc && !ulimit_is(u, "nproc", ex->ex_nproc)))
		verify_add(r, pf, "ulimits", "not core 0 and our limits");
	if (!verify_inteq(hc, "OomScoreAdj", ex->ex_oom_adj))
		verify_add(r, pf, "oom_score_adj", "not %d", ex->ex_oom_adj);
	if (!verify_empty(json_object_get(hc, "GroupAdd")))
		verify_add(r, pf, "group_add", "groups added");
}

static void
check_host(const json_t *hc, const struct harden_params *p,
    const struct expect *ex, struct harden_report *r)
{
	const char	*pf = ex->ex_prefix;
	const json_t	*v, *lc, *rp;
	json_int_t	 mem, swap;
	const char	*s;

	if (!verify_is_true(hc, "Init"))
		verify_add(r, pf, "init", "no init");
	if (!verify_is_true(hc, "ReadonlyRootfs"))
		verify_add(r, pf, "readonly_rootfs", "the root is writable");
	v = json_object_get(hc, "Tmpfs");
	if (!json_is_object(v) || json_object_size(v) != 1 ||
	    !verify_streq(v, HARDEN_TMP, ex->ex_tmpfs))
		verify_add(r, pf, "tmpfs", "not exactly /tmp with %s", ex->ex_tmpfs);
	if (!json_is_false(json_object_get(hc, "Privileged")))
		verify_add(r, pf, "privileged", "privileged");
	/* Privileged drops the masks too; its own name says so. */
	else if (!has_all(json_object_get(hc, "MaskedPaths"), masked_paths) ||
	    !has_all(json_object_get(hc, "ReadonlyPaths"), readonly_paths))
		verify_add(r, pf, "masked_paths", "/proc and /sys unmasked");
	check_caps(hc, pf, r);
	check_security_opt(hc, pf, r);
	check_limits(hc, ex, r);

	if (!verify_inteq(hc, "PidsLimit", HARDEN_PIDS_LIMIT))
		verify_add(r, pf, "pids_limit", "not %d", HARDEN_PIDS_LIMIT);
	mem = json_integer_value(json_object_get(hc, "Memory"));
	if (!verify_inteq(hc, "Memory", ex->ex_memory))
		verify_add(r, pf, "memory", "not %" PRId64 " bytes", ex->ex_memory);
	/* 0 is the engine's "twice the memory"; -1 unlimited. */
	swap = json_integer_value(json_object_get(hc, "MemorySwap"));
	if (!json_is_integer(json_object_get(hc, "MemorySwap")))
		swap = -1;
	if (swap == 0)
		swap = 2 * mem;
	/* No memory limit at all is "memory"'s to name. */
	if (mem > 0 && swap != mem)
		verify_add(r, pf, "memory_swap", "swap beside the memory");
	if (verify_is_true(hc, "OomKillDisable"))
		verify_add(r, pf, "oom_kill_disable", "the memory killer is off");
	if (!verify_inteq(hc, "NanoCpus", ex->ex_cpus) ||
	    !verify_inteq(hc, "CpuShares", HARDEN_CPU_SHARES))
		verify_add(r, pf, "cpu", "not the CPU limit asked for");
	if (!verify_inteq(hc, "ShmSize", HARDEN_SHM_SIZE))
		verify_add(r, pf, "shm_size", "not 64 MiB");
	if (!verify_streq(hc, "IpcMode", "private"))
		verify_add(r, pf, "ipc", "not private");
	if (!verify_streq(hc, "CgroupnsMode", "private"))
		verify_add(r, pf, "cgroupns", "not private");
	if (!verify_streq(hc, "PidMode", ""))
		verify_add(r, pf, "pid_mode", "shared");
	if (!verify_streq(hc, "UTSMode", ""))
		verify_add(r, pf, "uts_mode", "shared");
	if (!verify_streq(hc, "UsernsMode", ""))
		verify_add(r, pf, "userns_mode", "shared");
	if (!verify_empty(json_object_get(hc, "CgroupParent")))
		verify_add(r, pf, "cgroup_parent", "a cgroup parent");
	if (!verify_empty(json_object_get(hc, "PortBindings")) ||
	    !json_is_false(json_object_get(hc, "PublishAllPorts")))
		verify_add(r, pf, "ports", "published ports");
	if (!verify_empty(json_object_get(hc, "Devices")) ||
	    !verify_empty(json_object_get(hc, "DeviceRequests")) ||
	    !verify_empty(json_object_get(hc, "DeviceCgroupRules")))
		verify_add(r, pf, "devices", "devices");
	if (!verify_empty(json_object_get(hc, "Sysctls")))
		verify_add(r, pf, "sysctls", "sysctls");
	if (!verify_streq(hc, "Runtime", HARDEN_RUNTIME))
		verify_add(r, pf, "runtime", "not %s", HARDEN_RUNTIME);
	rp = json_object_get(hc, "RestartPolicy");
	s = verify_str(rp, "Name");
	if (!json_is_object(rp) || s == NULL ||
	    (strcmp(s, "") != 0 && strcmp(s, "no") != 0) ||
	    !verify_empty(json_object_get(rp, "MaximumRetryCount")))
		verify_add(r, pf, "restart_policy", "a restart policy");
	lc = json_object_get(hc, "LogConfig");
	v = json_object_get(lc, "Config");
	if (!verify_streq(lc, "Type", HARDEN_LOG_DRIVER) || !json_is_object(v) ||
	    json_object_size(v) != 3 ||
	    !verify_streq(v, "max-size", HARDEN_LOG_MAX_SIZE) ||
	    !verify_streq(v, "max-file", HARDEN_LOG_MAX_FILE) ||
	    !verify_streq(v, "compress", HARDEN_LOG_COMPRESS))
		verify_add(r, pf, "log_config", "not the capped local log");
	(void)p;
}

/*
 * Mounts, as the engine reports them (.Mounts, with Binds and
 * VolumesFrom beside).  want[] is what must be there, each exactly once.
 */
struct want_mount {
	const char	*wm_dest;
	const char	*wm_name;	/* a volume's name; a bind's source */
	int		 wm_rw;
	const char	*wm_check;
	int		 wm_seen;
	int		 wm_bind;	/* a host file, not a volume */
};

static void
check_mounts(const json_t *c, struct want_mount *want, size_t nwant,
    const char *pf, struct harden_report *r)
{
	const json_t	*hc = json_object_get(c, "HostConfig");
	const json_t	*mounts = json_object_get(c, "Mounts");
	const json_t	*m, *v;
	const char	*type, *dest, *name;
	size_t		 i, j;

	if (!json_is_array(mounts) && !verify_empty(mounts))
		verify_add(r, pf, "mounts", "not a list");
	json_array_foreach(json_object_get(hc, "Binds"), i, v)
		if (mentions_socket(json_string_value(v)))
			verify_add(r, pf, "runtime_socket", "the engine's socket");
		else
			verify_add(r, pf, "mounts", "a bind");
	if (!verify_empty(json_object_get(hc, "VolumesFrom")))
		verify_add(r, pf, "mounts", "volumes from another container");
	json_array_foreach(mounts, i, m) {
		type = verify_str(m, "Type");
		dest = verify_str(m, "Destination");
		name = verify_str(m, "Name");
		if (mentions_socket(verify_str(m, "Source")) ||
		    mentions_socket(dest)) {
			verify_add(r, pf, "runtime_socket", "the engine's socket");
			continue;
		}
		for (j = 0; j < nwant; j++)
			if (dest != NULL && strcmp(dest, want[j].wm_dest) == 0)
				break;
		if (j == nwant) {
			verify_add(r, pf, "mounts", "%.60s", dest ? dest : "?");
			continue;
		}
		if (want[j].wm_seen++ > 0 || type == NULL ||
		    (want[j].wm_bind ? strcmp(type, "bind") != 0 ||
		    !verify_streq(m, "Source", want[j].wm_name) ||
		    !verify_streq(m, "Propagation", "rprivate") :
		    strcmp(type, "volume") != 0 || name == NULL ||
		    strcmp(name, want[j].wm_name) != 0 ||
		    !verify_streq(m, "Driver", "local")) ||
		    (want[j].wm_rw ? !verify_is_true(m, "RW") :
		    !json_is_false(json_object_get(m, "RW"))))
			verify_add(r, pf, want[j].wm_check, "%s", want[j].wm_dest);
	}
	for (j = 0; j < nwant; j++)
		if (want[j].wm_seen != 1)
			verify_add(r, pf, want[j].wm_check, "%s missing",
			    want[j].wm_dest);
}

/*
 * Networks, in both places the engine shows them: the gatekeeper's is
 * exactly its bridge; a space has none at all (net NULL): mode "none",
 * the network disabled, not one network attached.
 */
static void
check_network(const json_t *c, const char *net, const char *pf,
    struct harden_report *r)
{
	const json_t	*hc = json_object_get(c, "HostConfig");
	const json_t	*nets;

	nets = json_object_get(json_object_get(c, "NetworkSettings"),
	    "Networks");
	if (net == NULL) {
		if (!verify_streq(hc, "NetworkMode", "none") ||
		    !verify_is_true(json_object_get(c, "Config"), "NetworkDisabled") ||
		    !verify_empty(nets))
			verify_add(r, pf, "network", "not disabled");
		return;
	}
	if (!verify_streq(hc, "NetworkMode", net) || !json_is_object(nets) ||
	    json_object_size(nets) != 1 || json_object_get(nets, net) == NULL)
		verify_add(r, pf, "network", "not only %s", net);
}

static int
check_container(const json_t *c, const struct harden_params *p,
    const struct expect *ex, struct harden_report *r)
{
	char		 want[SPACE_RESOURCE_MAX + 1];
	const json_t	*cfg, *hc;

	cfg = json_object_get(c, "Config");
	hc = json_object_get(c, "HostConfig");
	if (!json_is_object(c) || !json_is_object(cfg) || !json_is_object(hc)) {
		verify_add(r, ex->ex_prefix, "inspect", "not a container's inspect");
		return -1;
	}
	want[0] = '/';
	if (space_resource_name(want + 1, sizeof(want) - 1, p->hp_meta.sm_id,
	    ex->ex_role) == -1 || !verify_streq(c, "Name", want))
		verify_add(r, ex->ex_prefix, "name", "not %s", want);
	/* The engine's profile, or none where the host has no AppArmor. */
	if (!verify_streq(c, "AppArmorProfile", "") &&
	    !verify_streq(c, "AppArmorProfile", "docker-default"))
		verify_add(r, ex->ex_prefix, "apparmor", "not docker-default");
	check_config(cfg, p, ex, r);
	check_host(hc, p, ex, r);
	return 0;
}

void
harden_verify_space(const json_t *c, const struct harden_params *p,
    struct harden_report *r)
{
	char		 sock[SPACE_RESOURCE_MAX], runtime[SPACE_RESOURCE_MAX];
	char		 work[SPACE_RESOURCE_MAX], home[SPACE_RESOURCE_MAX];
	char		 user[HARDEN_USER_MAX];
	struct expect	 ex = { "", ROLE_SPACE, p->hp_space_image,
	    (int64_t)p->hp_meta.sm_memory, p->hp_cpus, HARDEN_SPACE_TMPFS,
	    p->hp_health, user, HARDEN_SPACE_NPROC, HARDEN_SPACE_OOM_ADJ };

	if (!verify_params_usable(p, "", r) ||
	    harden_user(user, sizeof(user), p->hp_uid) == -1 ||
	    check_container(c, p, &ex, r) == -1)
		return;
	(void)space_resource_name(sock, sizeof(sock), p->hp_meta.sm_id,
	    ROLE_SOCKET);
	(void)space_resource_name(work, sizeof(work), p->hp_meta.sm_id,
	    ROLE_WORK);
	(void)space_resource_name(home, sizeof(home), p->hp_meta.sm_id,
	    ROLE_HOME);
	(void)runtime_volume_name(runtime, sizeof(runtime), p->hp_runtime_key);
	{
		struct want_mount want[] = {
			{ HARDEN_HOSTS_FILE, p->hp_hosts, 0, "hosts_mount", 0,
			    1 },
			{ HARDEN_SOCKET_DIR, sock, 0, "socket_mount", 0, 0 },
			{ HARDEN_RUNTIME_DIR, runtime, 0, "runtime_mount", 0,
			    0 },
			{ HARDEN_WORK_PARENT, work, 1, "mounts", 0, 0 },
			{ HARDEN_HOME_PARENT, home, 1, "mounts", 0, 0 },
			/* last: only a space with an agent has it */
			{ SPACE_TOOLS_DIR, p->hp_tools, 0, "tools_mount", 0,
			    0 },
		};
		check_mounts(c, want, sizeof(want) / sizeof(want[0]) -
		    (p->hp_tools[0] == '\0'), "", r);
	}
	check_network(c, NULL, "", r);
	/* The engine writes none of them, yet an entry is a wrong intent. */
	if (!verify_empty(json_object_get(json_object_get(c, "HostConfig"),
	    "ExtraHosts")))
		verify_add(r, "", "extra_hosts", "extra hosts");
}

void
harden_verify_gatekeeper(const json_t *c, const struct harden_params *p,
    struct harden_report *r)
{
	char		 sock[SPACE_RESOURCE_MAX], net[SPACE_RESOURCE_MAX];
	struct expect	 ex = { GK_PREFIX, ROLE_GATEKEEPER, p->hp_gk_image,
	    HARDEN_GK_MEMORY, p->hp_gk_cpus, HARDEN_GK_TMPFS,
	    p->hp_gk_health, HARDEN_GK_USER, 0, HARDEN_GK_OOM_ADJ };

	if (!verify_params_usable(p, GK_PREFIX, r) ||
	    check_container(c, p, &ex, r) == -1)
		return;
	(void)space_resource_name(sock, sizeof(sock), p->hp_meta.sm_id,
	    ROLE_SOCKET);
	(void)space_resource_name(net, sizeof(net), p->hp_meta.sm_id,
	    ROLE_NETWORK);
	{
		struct want_mount want[] = {
			{ HARDEN_SOCKET_DIR, sock, 1, "socket_mount", 0, 0 },
		};
		check_mounts(c, want, 1, GK_PREFIX, r);
	}
	check_network(c, net, GK_PREFIX, r);
	if (!verify_empty(json_object_get(json_object_get(c, "HostConfig"),
	    "ExtraHosts")))
		verify_add(r, GK_PREFIX, "extra_hosts", "extra hosts");
}

