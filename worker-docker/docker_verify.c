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
 * The checkers: read an inspect answer and name every way it differs
 * from what docker_harden.c asks for.  A field the engine filled in
 * itself counts as what we asked for only where it is the same thing
 * (MemorySwap 0 means twice the memory, so it is not equal).
 *
 * Container checks (the gatekeeper's carry "gatekeeper_" first):
 *   inspect            not an object, or no Config or HostConfig
 *   name               Name is not /spaced-space-<id>-<role>
 *   labels             not ours: marker, owner, id, role, every label
 *   image              Config.Image is not the reference we asked for
 *   command            Entrypoint is not ours (the relay, -w and the
 *                      space's folder, "--", argv),
 *                      or a Cmd is left
 *   user               Config.User is not the image user (10000:10000
 *                      for the space, 10100:10100 for the gatekeeper)
 *   env                one of ours missing, a secret-looking name, or
 *                      (gatekeeper) anything but HOME=/tmp and PATH
 *   healthcheck        Test, Interval, Timeout, StartPeriod, Retries
 *   init               HostConfig.Init is not true
 *   readonly_rootfs    ReadonlyRootfs is not true
 *   tmpfs              Tmpfs is not exactly /tmp with our options
 *   mounts             a bind, tmpfs or foreign volume, VolumesFrom,
 *                      Binds, or the work/home volume wrong or missing
 *   socket_mount       not exactly one socket volume at /run/spaced,
 *                      read-only (space) or read-write (gatekeeper)
 *   runtime_mount      not exactly one spaced-runtime-<key> at
 *                      /opt/spaced, read-only (space; the gatekeeper
 *                      has none, so one there is "mounts")
 *   tools_mount        (a space with an agent) not exactly one
 *                      tools volume of its owner at /opt/spaced-tools,
 *                      read-only
 *   runtime_socket     the engine's socket mounted in, any way
 *   privileged         Privileged is true
 *   cap_drop           CapDrop lacks ALL (names normalised)
 *   cap_add            CapAdd is not empty
 *   no_new_privileges  SecurityOpt lacks no-new-privileges
 *   seccomp            a seccomp= option (unconfined or a profile)
 *   security_opt       any other security option (apparmor, label, ...)
 *   masked_paths       MaskedPaths or ReadonlyPaths emptied
 *   pids_limit         PidsLimit is not 512
 *   memory             Memory is not ours (gatekeeper: exactly 256 MiB)
 *   memory_swap        MemorySwap (0 read as 2 x Memory) != Memory
 *   oom_kill_disable   OomKillDisable is true
 *   cpu                NanoCpus or CpuShares not ours
 *   shm_size           ShmSize is not 64 MiB
 *   ipc                IpcMode is not private
 *   cgroupns           CgroupnsMode is not private
 *   pid_mode, uts_mode, userns_mode   not "" (the engine's private)
 *   cgroup_parent      CgroupParent is set
 *   network            space: NetworkMode "none", Config.NetworkDisabled
 *                      and no network in NetworkSettings.Networks;
 *                      gatekeeper: only the outer bridge, in both
 *   extra_hosts        any ExtraHosts entry
 *   hosts_mount        (space) not exactly spaced's hosts file, bound
 *                      read-only and rprivate at /etc/hosts
 *   ports              PortBindings or PublishAllPorts
 *   devices            Devices, DeviceRequests or DeviceCgroupRules
 *   sysctls            any sysctl
 *   runtime            Runtime is not runc
 *   restart_policy     anything but no restart
 *   log_config         not local with max-size 10m, max-file 1, no
 *                      compression
 * Network checks: network_name, network_labels, network_driver (bridge),
 *   network_internal (internal is refused: it is the way out),
 *   network_ipv6, network_scope (local, not attachable, not ingress).
 * Volume checks: volume_name, volume_labels (runtime: the runtime
 *   labels with this key), volume_driver (local), volume_options (the
 *   local driver's type=none,o=bind is a bind mount in disguise).
 * Create answers: create_warnings, create_answer.
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "docker_harden.h"

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
};

void
harden_report_init(struct harden_report *r)
{
	memset(r, 0, sizeof(*r));
}

int
harden_report_has(const struct harden_report *r, const char *check)
{
	size_t	 i;

	for (i = 0; i < r->hr_n; i++)
		if (strcmp(r->hr_v[i].hv_check, check) == 0)
			return 1;
	return 0;
}

static void	add(struct harden_report *, const char *, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

void
harden_report_add(struct harden_report *r, const char *check,
    const char *message)
{
	add(r, "", check, "%s", message);
}

/* Each name once; the first message for it stays. */
static void __attribute__((format(printf, 4, 5)))
add(struct harden_report *r, const char *prefix, const char *check,
    const char *fmt, ...)
{
	struct harden_violation	*v;
	char			 name[HARDEN_CHECK_MAX];
	va_list			 ap;

	(void)snprintf(name, sizeof(name), "%s%s", prefix, check);
	if (harden_report_has(r, name))
		return;
	if (r->hr_n == HARDEN_REPORT_MAX) {
		r->hr_truncated = 1;
		return;
	}
	v = &r->hr_v[r->hr_n++];
	strlcpy(v->hv_check, name, sizeof(v->hv_check));
	va_start(ap, fmt);
	(void)vsnprintf(v->hv_message, sizeof(v->hv_message), fmt, ap);
	va_end(ap);
}

json_t *
harden_json_parse(const void *buf, size_t len)
{
	json_error_t	 err;
	json_t		*o;

	if (buf == NULL || len > HARDEN_INSPECT_MAX)
		return NULL;
	o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (o != NULL && !json_is_object(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static const char *
str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int
streq(const json_t *o, const char *key, const char *want)
{
	const char	*v = str(o, key);

	return v != NULL && strcmp(v, want) == 0;
}

/* An integer field equal to want; a missing or other type is not. */
static int
inteq(const json_t *o, const char *key, json_int_t want)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) == want;
}

static int
is_true(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* Missing, null, false, "", 0, [] and {} are empty. */
static int
empty(const json_t *v)
{
	if (v == NULL || json_is_null(v) || json_is_false(v))
		return 1;
	if (json_is_array(v))
		return json_array_size(v) == 0;
	if (json_is_object(v))
		return json_object_size(v) == 0;
	if (json_is_string(v))
		return json_string_length(v) == 0;
	if (json_is_integer(v))
		return json_integer_value(v) == 0;
	return 0;
}

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

static void
check_labels(const json_t *labels, const struct harden_params *p,
    enum space_role role, const char *prefix, const char *check,
    struct harden_report *r)
{
	struct space_meta	 m;
	const char		*why;

	memset(&m, 0, sizeof(m));
	why = space_labels_parse(labels, p->hp_meta.sm_owner, p->hp_meta.sm_id,
	    role, &m);
	if (why == NULL && (strcmp(m.sm_project, p->hp_meta.sm_project) != 0 ||
	    strcmp(m.sm_name, p->hp_meta.sm_name) != 0 ||
	    strcmp(m.sm_created, p->hp_meta.sm_created) != 0 ||
	    m.sm_memory != p->hp_meta.sm_memory))
		why = "labels differ from the space's";
	if (why != NULL)
		add(r, prefix, check, "%s", why);
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

	check_labels(json_object_get(c, "Labels"), p, ex->ex_role, pf,
	    "labels", r);
	if (!streq(c, "Image", ex->ex_image))
		add(r, pf, "image", "not the image asked for");
	if (!streq(c, "User", ex->ex_user))
		add(r, pf, "user", "not %s", ex->ex_user);

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
			add(r, pf, "command", "not under the relay");
		else
			for (i = 0; i < n; i++) {
				const char *s = json_string_value(
				    json_array_get(ep, i + off));
				if (s == NULL || strcmp(s, p->hp_argv[i]) != 0)
					add(r, pf, "command",
					    "not the command asked for");
			}
	} else if (!strings_eq(ep, p->hp_gk_argv))
		add(r, pf, "command", "not the gatekeeper's command");
	if (!empty(json_object_get(c, "Cmd")))
		add(r, pf, "command", "a Cmd beside the entrypoint");

	/* Secrets never; ours all present; the gatekeeper nothing else. */
	if (!json_is_array(env) && !json_is_null(env) && env != NULL)
		add(r, pf, "env", "not a list");
	json_array_foreach(env, i, v) {
		const char *s = json_string_value(v);
		if (s == NULL || harden_env_secret(s))
			add(r, pf, "env", "a secret-looking variable");
		else if (ex->ex_role == ROLE_GATEKEEPER &&
		    strcmp(s, HARDEN_GK_ENV) != 0 && strncmp(s, "PATH=", 5) != 0)
			add(r, pf, "env", "a variable beyond HOME");
	}
	if (ex->ex_role == ROLE_SPACE) {
		for (i = 0; harden_space_env[i] != NULL; i++)
			if (!has_string(env, harden_space_env[i]))
				add(r, pf, "env", "%.40s missing",
				    harden_space_env[i]);
		for (i = 0; p->hp_env != NULL && p->hp_env[i] != NULL; i++)
			if (!has_string(env, p->hp_env[i]))
				add(r, pf, "env", "an asked-for variable missing");
	} else if (!has_string(env, HARDEN_GK_ENV))
		add(r, pf, "env", "HOME=/tmp missing");

	if (!json_is_object(hc) ||
	    !strings_eq(json_object_get(hc, "Test"), ex->ex_health) ||
	    !inteq(hc, "Interval", HARDEN_HEALTH_INTERVAL) ||
	    !inteq(hc, "Timeout", HARDEN_HEALTH_TIMEOUT) ||
	    !inteq(hc, "StartPeriod", HARDEN_HEALTH_START) ||
	    !inteq(hc, "Retries", HARDEN_HEALTH_RETRIES))
		add(r, pf, "healthcheck", "not the health check asked for");
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
			    "Privileged")) || !streq(hc, "PidMode", "") ||
			    streq(hc, "IpcMode", "host");
	const json_t	*so = json_object_get(hc, "SecurityOpt");
	const json_t	*v;
	int		 nnp = 0;
	size_t		 i;

	if (!json_is_array(so) && !empty(so))
		add(r, pf, "security_opt", "not a list");
	json_array_foreach(so, i, v) {
		const char *s = json_string_value(v);
		if (s == NULL)
			add(r, pf, "security_opt", "not a string");
		else if (strcmp(s, "no-new-privileges") == 0 ||
		    strcmp(s, "no-new-privileges=true") == 0 ||
		    strcmp(s, "no-new-privileges:true") == 0)
			nnp = 1;
		else if (strncmp(s, "no-new-privileges", 17) == 0)
			add(r, pf, "no_new_privileges", "%.60s", s);
		else if (strncmp(s, "seccomp", 7) == 0)
			add(r, pf, "seccomp", "%.60s", s);
		else if (caused && strcmp(s, "label=disable") == 0)
			continue;
		else
			add(r, pf, "security_opt", "%.60s", s);
	}
	if (!nnp)
		add(r, pf, "no_new_privileges", "no no-new-privileges");
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
		add(r, pf, "cap_drop", "ALL not dropped");
	if (!empty(json_object_get(hc, "CapAdd")))
		add(r, pf, "cap_add", "capabilities added back");
}

static void
check_host(const json_t *hc, const struct harden_params *p,
    const struct expect *ex, struct harden_report *r)
{
	const char	*pf = ex->ex_prefix;
	const json_t	*v, *lc, *rp;
	json_int_t	 mem, swap;
	const char	*s;

	if (!is_true(hc, "Init"))
		add(r, pf, "init", "no init");
	if (!is_true(hc, "ReadonlyRootfs"))
		add(r, pf, "readonly_rootfs", "the root is writable");
	v = json_object_get(hc, "Tmpfs");
	if (!json_is_object(v) || json_object_size(v) != 1 ||
	    !streq(v, HARDEN_TMP, ex->ex_tmpfs))
		add(r, pf, "tmpfs", "not exactly /tmp with %s", ex->ex_tmpfs);
	if (!json_is_false(json_object_get(hc, "Privileged")))
		add(r, pf, "privileged", "privileged");
	/* Privileged drops the masks too; its own name says so. */
	else if (empty(json_object_get(hc, "MaskedPaths")) ||
	    empty(json_object_get(hc, "ReadonlyPaths")))
		add(r, pf, "masked_paths", "/proc and /sys unmasked");
	check_caps(hc, pf, r);
	check_security_opt(hc, pf, r);

	if (!inteq(hc, "PidsLimit", HARDEN_PIDS_LIMIT))
		add(r, pf, "pids_limit", "not %d", HARDEN_PIDS_LIMIT);
	mem = json_integer_value(json_object_get(hc, "Memory"));
	if (!inteq(hc, "Memory", ex->ex_memory))
		add(r, pf, "memory", "not %" PRId64 " bytes", ex->ex_memory);
	/* 0 is the engine's "twice the memory"; -1 unlimited. */
	swap = json_integer_value(json_object_get(hc, "MemorySwap"));
	if (!json_is_integer(json_object_get(hc, "MemorySwap")))
		swap = -1;
	if (swap == 0)
		swap = 2 * mem;
	/* No memory limit at all is "memory"'s to name. */
	if (mem > 0 && swap != mem)
		add(r, pf, "memory_swap", "swap beside the memory");
	if (is_true(hc, "OomKillDisable"))
		add(r, pf, "oom_kill_disable", "the memory killer is off");
	if (!inteq(hc, "NanoCpus", ex->ex_cpus) ||
	    !inteq(hc, "CpuShares", HARDEN_CPU_SHARES))
		add(r, pf, "cpu", "not the CPU limit asked for");
	if (!inteq(hc, "ShmSize", HARDEN_SHM_SIZE))
		add(r, pf, "shm_size", "not 64 MiB");
	if (!streq(hc, "IpcMode", "private"))
		add(r, pf, "ipc", "not private");
	if (!streq(hc, "CgroupnsMode", "private"))
		add(r, pf, "cgroupns", "not private");
	if (!streq(hc, "PidMode", ""))
		add(r, pf, "pid_mode", "shared");
	if (!streq(hc, "UTSMode", ""))
		add(r, pf, "uts_mode", "shared");
	if (!streq(hc, "UsernsMode", ""))
		add(r, pf, "userns_mode", "shared");
	if (!empty(json_object_get(hc, "CgroupParent")))
		add(r, pf, "cgroup_parent", "a cgroup parent");
	if (!empty(json_object_get(hc, "PortBindings")) ||
	    !json_is_false(json_object_get(hc, "PublishAllPorts")))
		add(r, pf, "ports", "published ports");
	if (!empty(json_object_get(hc, "Devices")) ||
	    !empty(json_object_get(hc, "DeviceRequests")) ||
	    !empty(json_object_get(hc, "DeviceCgroupRules")))
		add(r, pf, "devices", "devices");
	if (!empty(json_object_get(hc, "Sysctls")))
		add(r, pf, "sysctls", "sysctls");
	if (!streq(hc, "Runtime", HARDEN_RUNTIME))
		add(r, pf, "runtime", "not %s", HARDEN_RUNTIME);
	rp = json_object_get(hc, "RestartPolicy");
	s = str(rp, "Name");
	if (!json_is_object(rp) || s == NULL ||
	    (strcmp(s, "") != 0 && strcmp(s, "no") != 0) ||
	    !empty(json_object_get(rp, "MaximumRetryCount")))
		add(r, pf, "restart_policy", "a restart policy");
	lc = json_object_get(hc, "LogConfig");
	v = json_object_get(lc, "Config");
	if (!streq(lc, "Type", HARDEN_LOG_DRIVER) || !json_is_object(v) ||
	    json_object_size(v) != 3 ||
	    !streq(v, "max-size", HARDEN_LOG_MAX_SIZE) ||
	    !streq(v, "max-file", HARDEN_LOG_MAX_FILE) ||
	    !streq(v, "compress", HARDEN_LOG_COMPRESS))
		add(r, pf, "log_config", "not the capped local log");
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

	if (!json_is_array(mounts) && !empty(mounts))
		add(r, pf, "mounts", "not a list");
	json_array_foreach(json_object_get(hc, "Binds"), i, v)
		if (mentions_socket(json_string_value(v)))
			add(r, pf, "runtime_socket", "the engine's socket");
		else
			add(r, pf, "mounts", "a bind");
	if (!empty(json_object_get(hc, "VolumesFrom")))
		add(r, pf, "mounts", "volumes from another container");
	json_array_foreach(mounts, i, m) {
		type = str(m, "Type");
		dest = str(m, "Destination");
		name = str(m, "Name");
		if (mentions_socket(str(m, "Source")) ||
		    mentions_socket(dest)) {
			add(r, pf, "runtime_socket", "the engine's socket");
			continue;
		}
		for (j = 0; j < nwant; j++)
			if (dest != NULL && strcmp(dest, want[j].wm_dest) == 0)
				break;
		if (j == nwant) {
			add(r, pf, "mounts", "%.60s", dest ? dest : "?");
			continue;
		}
		if (want[j].wm_seen++ > 0 || type == NULL ||
		    (want[j].wm_bind ? strcmp(type, "bind") != 0 ||
		    !streq(m, "Source", want[j].wm_name) ||
		    !streq(m, "Propagation", "rprivate") :
		    strcmp(type, "volume") != 0 || name == NULL ||
		    strcmp(name, want[j].wm_name) != 0 ||
		    !streq(m, "Driver", "local")) ||
		    (want[j].wm_rw ? !is_true(m, "RW") :
		    !json_is_false(json_object_get(m, "RW"))))
			add(r, pf, want[j].wm_check, "%s", want[j].wm_dest);
	}
	for (j = 0; j < nwant; j++)
		if (want[j].wm_seen != 1)
			add(r, pf, want[j].wm_check, "%s missing",
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
		if (!streq(hc, "NetworkMode", "none") ||
		    !is_true(json_object_get(c, "Config"), "NetworkDisabled") ||
		    !empty(nets))
			add(r, pf, "network", "not disabled");
		return;
	}
	if (!streq(hc, "NetworkMode", net) || !json_is_object(nets) ||
	    json_object_size(nets) != 1 || json_object_get(nets, net) == NULL)
		add(r, pf, "network", "not only %s", net);
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
		add(r, ex->ex_prefix, "inspect", "not a container's inspect");
		return -1;
	}
	want[0] = '/';
	if (space_resource_name(want + 1, sizeof(want) - 1, p->hp_meta.sm_id,
	    ex->ex_role) == -1 || !streq(c, "Name", want))
		add(r, ex->ex_prefix, "name", "not %s", want);
	check_config(cfg, p, ex, r);
	check_host(hc, p, ex, r);
	return 0;
}

static int
params_usable(const struct harden_params *p, const char *pf,
    struct harden_report *r)
{
	const char	*why;

	if ((why = harden_params_check(p)) != NULL) {
		add(r, pf, "inspect", "cannot check: %s", why);
		return 0;
	}
	return 1;
}

void
harden_verify_space(const json_t *c, const struct harden_params *p,
    struct harden_report *r)
{
	char		 sock[SPACE_RESOURCE_MAX], runtime[SPACE_RESOURCE_MAX];
	char		 work[SPACE_RESOURCE_MAX], home[SPACE_RESOURCE_MAX];
	struct expect	 ex = { "", ROLE_SPACE, p->hp_space_image,
	    (int64_t)p->hp_meta.sm_memory, p->hp_cpus, HARDEN_SPACE_TMPFS,
	    p->hp_health, HARDEN_SPACE_USER };

	if (!params_usable(p, "", r) || check_container(c, p, &ex, r) == -1)
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
			{ HARDEN_HOME, home, 1, "mounts", 0, 0 },
			/* last: only a space with an agent has it */
			{ SPACE_TOOLS_DIR, p->hp_tools, 0, "tools_mount", 0,
			    0 },
		};
		check_mounts(c, want, sizeof(want) / sizeof(want[0]) -
		    (p->hp_tools[0] == '\0'), "", r);
	}
	check_network(c, NULL, "", r);
	/* The engine writes none of them, yet an entry is a wrong intent. */
	if (!empty(json_object_get(json_object_get(c, "HostConfig"),
	    "ExtraHosts")))
		add(r, "", "extra_hosts", "extra hosts");
}

void
harden_verify_gatekeeper(const json_t *c, const struct harden_params *p,
    struct harden_report *r)
{
	char		 sock[SPACE_RESOURCE_MAX], net[SPACE_RESOURCE_MAX];
	struct expect	 ex = { GK_PREFIX, ROLE_GATEKEEPER, p->hp_gk_image,
	    HARDEN_GK_MEMORY, p->hp_gk_cpus, HARDEN_GK_TMPFS,
	    p->hp_gk_health, HARDEN_GK_USER };

	if (!params_usable(p, GK_PREFIX, r) ||
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
	if (!empty(json_object_get(json_object_get(c, "HostConfig"),
	    "ExtraHosts")))
		add(r, GK_PREFIX, "extra_hosts", "extra hosts");
}

void
harden_verify_network(const json_t *n, const struct harden_params *p,
    struct harden_report *r)
{
	char	 net[SPACE_RESOURCE_MAX];

	if (!params_usable(p, "", r))
		return;
	if (!json_is_object(n)) {
		add(r, "", "inspect", "not a network's inspect");
		return;
	}
	(void)space_resource_name(net, sizeof(net), p->hp_meta.sm_id,
	    ROLE_NETWORK);
	if (!streq(n, "Name", net))
		add(r, "", "network_name", "not %s", net);
	check_labels(json_object_get(n, "Labels"), p, ROLE_NETWORK, "",
	    "network_labels", r);
	if (!streq(n, "Driver", "bridge"))
		add(r, "", "network_driver", "not a bridge");
	if (!json_is_false(json_object_get(n, "Internal")))
		add(r, "", "network_internal", "internal: no way out");
	if (!json_is_false(json_object_get(n, "EnableIPv6")))
		add(r, "", "network_ipv6", "IPv6 on");
	if (!streq(n, "Scope", "local") ||
	    !json_is_false(json_object_get(n, "Attachable")) ||
	    !json_is_false(json_object_get(n, "Ingress")))
		add(r, "", "network_scope", "not a local bridge of its own");
}

static void
check_volume(const json_t *vol, const char *name, struct harden_report *r)
{
	if (!streq(vol, "Name", name))
		add(r, "", "volume_name", "not %.60s", name);
	if (!streq(vol, "Driver", "local"))
		add(r, "", "volume_driver", "not local");
	if (!empty(json_object_get(vol, "Options")))
		add(r, "", "volume_options", "driver options");
}

void
harden_verify_volume(const json_t *vol, const struct harden_params *p,
    enum space_role role, struct harden_report *r)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (!params_usable(p, "", r))
		return;
	if (!json_is_object(vol) || (role != ROLE_SOCKET &&
	    role != ROLE_WORK && role != ROLE_HOME)) {
		add(r, "", "inspect", "not a volume's inspect");
		return;
	}
	(void)space_resource_name(name, sizeof(name), p->hp_meta.sm_id, role);
	check_volume(vol, name, r);
	check_labels(json_object_get(vol, "Labels"), p, role, "",
	    "volume_labels", r);
}

void
harden_verify_runtime_volume(const json_t *vol, const struct harden_params *p,
    struct harden_report *r)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why;

	if (!params_usable(p, "", r))
		return;
	if (!json_is_object(vol)) {
		add(r, "", "inspect", "not a volume's inspect");
		return;
	}
	(void)runtime_volume_name(name, sizeof(name), p->hp_runtime_key);
	check_volume(vol, name, r);
	if ((why = runtime_labels_check(json_object_get(vol, "Labels"),
	    NULL, p->hp_runtime_key)) != NULL)
		add(r, "", "volume_labels", "%s", why);
}

void
harden_verify_created(const json_t *a, struct harden_report *r)
{
	const json_t	*w;
	const char	*id;
	size_t		 i;

	if (!json_is_object(a)) {
		add(r, "", "create_answer", "not an object");
		return;
	}
	/* Containers: Warnings[]; networks: Warning "". */
	w = json_object_get(a, "Warnings");
	if (!empty(w))
		add(r, "", "create_warnings", "%.80s",
		    json_is_array(w) && json_is_string(json_array_get(w, 0)) ?
		    json_string_value(json_array_get(w, 0)) : "warnings");
	w = json_object_get(a, "Warning");
	if (!empty(w))
		add(r, "", "create_warnings", "%.80s",
		    json_is_string(w) ? json_string_value(w) : "warning");
	/* A volume answers with itself: a Name, no Id. */
	if ((id = str(a, "Id")) != NULL) {
		for (i = 0; id[i] != '\0'; i++)
			if (!isxdigit((unsigned char)id[i]))
				break;
		if (i != 64 || id[i] != '\0')
			add(r, "", "create_answer", "bad Id");
	} else if (str(a, "Name") == NULL || str(a, "Driver") == NULL)
		add(r, "", "create_answer", "no Id");
}
