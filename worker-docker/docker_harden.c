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
 * The create bodies of a space, its gatekeeper, its outer bridge and its
 * volumes.  docker_verify.c demands every field set here; change both.
 */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "docker_harden.h"

const char *const harden_space_env[] = {
	"HOME=" HARDEN_HOME,
	/*
	 * The tools last: a package's bin named node or sh never shadows
	 * the image's own.
	 */
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
	    SPACE_TOOLS_BIN,
	/* curl honours only the lowercase http_proxy (httpoxy). */
	"HTTPS_PROXY=" HARDEN_PROXY,
	"https_proxy=" HARDEN_PROXY,
	"HTTP_PROXY=" HARDEN_PROXY,
	"http_proxy=" HARDEN_PROXY,
	"NO_PROXY=" HARDEN_NO_PROXY,
	"no_proxy=" HARDEN_NO_PROXY,
	/* Node 22 ignores the proxy variables without it. */
	"NODE_USE_ENV_PROXY=1",
	NULL
};

/*
 * The bundle replaces the image's store for OpenSSL (SSL_CERT_FILE:
 * Python, Ruby, most C programs), curl (CURL_CA_BUNDLE) and git
 * (GIT_SSL_CAINFO: Debian's git takes GnuTLS's libcurl, which reads
 * neither), and adds to Node's built-in one (npm, OpenCode's Bun): it
 * is the whole store the space trusts, spaced.conf(5) says so.
 */
const char *const harden_space_ca_env[] = {
	"SSL_CERT_FILE=" HARDEN_SPACE_CA,
	"CURL_CA_BUNDLE=" HARDEN_SPACE_CA,
	"GIT_SSL_CAINFO=" HARDEN_SPACE_CA,
	"NODE_EXTRA_CA_CERTS=" HARDEN_SPACE_CA,
	NULL
};

void
harden_params_init(struct harden_params *p)
{
	memset(p, 0, sizeof(*p));
	p->hp_meta.sm_memory = HARDEN_SPACE_MEMORY;
	p->hp_cpus = HARDEN_SPACE_CPUS;
	p->hp_gk_cpus = HARDEN_GK_CPUS;
	p->hp_uid = HARDEN_SPACE_UID;
}

uint32_t
harden_space_uid(const char *id, uint32_t first, uint32_t count)
{
	unsigned long long	 v;
	char			*end;

	if (count == 0 || (uint64_t)first + count - 1 > UINT32_MAX - 1 ||
	    !space_id_valid(id))
		return 0;
	v = strtoull(id, &end, 16);
	return first == 0 && v % count == 0 ? 0 : first + v % count;
}

int
harden_user(char *buf, size_t len, uint32_t uid)
{
	int	 n;

	n = snprintf(buf, len, "%u:%u", uid, uid);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The rule is the profile's (common/proto/agent.c), for any variable. */
int
harden_env_secret(const char *entry)
{
	return agent_env_secret(entry);
}

/* A NULL-terminated argv of 1..HARDEN_ARGV_MAX printable entries. */
static int
argv_valid(const char *const *v, size_t min)
{
	size_t	 i, j;

	if (v == NULL)
		return min == 0;
	for (i = 0; v[i] != NULL; i++) {
		if (i >= HARDEN_ARGV_MAX)
			return 0;
		for (j = 0; v[i][j] != '\0'; j++)
			if (j >= HARDEN_ARG_MAX ||
			    (unsigned char)v[i][j] < 0x20 ||
			    (unsigned char)v[i][j] == 0x7f)
				return 0;
	}
	return i >= min;
}

/* The Engine's health check form: ["CMD", program, args...]. */
static int
health_valid(const char *const *v)
{
	return argv_valid(v, 2) && strcmp(v[0], "CMD") == 0 && v[1][0] == '/';
}

/* NAME=VALUE, NAME a C identifier, not a secret, not one of ours. */
static const char *
env_entry_check(const char *e)
{
	size_t	 i, n;

	if (!isalpha((unsigned char)e[0]) && e[0] != '_')
		return "bad environment name";
	for (n = 0; e[n] != '='; n++)
		if (e[n] == '\0' ||
		    (!isalnum((unsigned char)e[n]) && e[n] != '_'))
			return "bad environment name";
	if (harden_env_secret(e))
		return "environment name looks like a secret";
	for (i = 0; harden_space_env[i] != NULL; i++)
		if (strncmp(harden_space_env[i], e, n + 1) == 0)
			return "environment overrides one of ours";
	for (i = 0; harden_space_ca_env[i] != NULL; i++)
		if (strncmp(harden_space_ca_env[i], e, n + 1) == 0)
			return "environment overrides one of ours";
	return NULL;
}

static int
image_valid(const char *s)
{
	size_t	 n;

	if (s == NULL || *s == '\0' || *s == '-')
		return 0;
	for (n = 0; s[n] != '\0'; n++)
		if (n >= HARDEN_IMAGE_MAX || (unsigned char)s[n] <= 0x20 ||
		    (unsigned char)s[n] >= 0x7f)
			return 0;
	return 1;
}

/* An absolute path with no "." or ".." part, no empty one, no blank. */
static int
host_path_valid(const char *s)
{
	size_t	 n;

	if (s == NULL || s[0] != '/')
		return 0;
	for (n = 0; s[n] != '\0'; n++)
		if (n >= SPACE_HOSTS_MAX || (unsigned char)s[n] <= 0x20 ||
		    (unsigned char)s[n] >= 0x7f || s[n] == ':' || s[n] == ',')
			return 0;
	return path_parts_plain(s + 1);
}

const char *
harden_params_check(const struct harden_params *p)
{
	const char	*why;
	size_t		 i;

	if (!space_meta_valid(&p->hp_meta))
		return "bad space labels";
	if (p->hp_meta.sm_memory < HARDEN_MEMORY_MIN ||
	    p->hp_meta.sm_memory > HARDEN_MEMORY_MAX)
		return "memory out of range";
	if (p->hp_cpus <= 0 || p->hp_cpus > HARDEN_CPUS_MAX ||
	    p->hp_gk_cpus <= 0 || p->hp_gk_cpus > HARDEN_CPUS_MAX)
		return "cpus out of range";
	if (!image_valid(p->hp_space_image) || !image_valid(p->hp_gk_image))
		return "bad image";
	if (!runtime_key_valid(p->hp_runtime_key) ||
	    !space_owner_valid(p->hp_runtime_owner))
		return "bad runtime key";
	if (!host_path_valid(p->hp_hosts))
		return "bad hosts file";
	if (p->hp_uid == 0 || p->hp_uid == UINT32_MAX)
		return "no space uid";
	/* Slots for the relay, its -w and folder, and its "--". */
	if (!argv_valid(p->hp_argv, 1))
		return "bad command";
	for (i = 0; p->hp_argv[i] != NULL; i++)
		if (i >= HARDEN_ARGV_MAX - HARDEN_RELAY_ARGS)
			return "bad command";
	if (!argv_valid(p->hp_gk_argv, 1) || p->hp_gk_argv[0][0] != '/')
		return "bad gatekeeper command";
	if (!health_valid(p->hp_health) || !health_valid(p->hp_gk_health))
		return "bad health check";
	if (p->hp_env != NULL) {
		for (i = 0; p->hp_env[i] != NULL; i++) {
			if (i >= HARDEN_ENV_MAX || !argv_valid(
			    (const char *const []){ p->hp_env[i], NULL }, 1))
				return "bad environment";
			if ((why = env_entry_check(p->hp_env[i])) != NULL)
				return why;
		}
	}
	return NULL;
}

static json_t *
strings(const char *const *v)
{
	json_t	*a;
	size_t	 i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; v != NULL && v[i] != NULL; i++)
		if (json_array_append_new(a, json_string(v[i])) == -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
health(const char *const *test)
{
	return json_pack("{s:o, s:I, s:I, s:I, s:i}", "Test", strings(test),
	    "Interval", (json_int_t)HARDEN_HEALTH_INTERVAL,
	    "Timeout", (json_int_t)HARDEN_HEALTH_TIMEOUT,
	    "StartPeriod", (json_int_t)HARDEN_HEALTH_START,
	    "Retries", HARDEN_HEALTH_RETRIES);
}

/*
 * A volume mount.  type=volume cannot turn into a bind, unlike Binds.
 * nocopy keeps an image's files out of a volume it must not seed.
 */
static json_t *
volume_mount(const char *name, const char *target, int ro, int nocopy)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:{s:b}}", "Type", "volume",
	    "Source", name, "Target", target, "ReadOnly", ro,
	    "VolumeOptions", "NoCopy", nocopy);
}

/*
 * A shared volume (runtime, tools), read-only, that must exist: with a
 * driver option the local driver refuses, the engine takes the volume
 * there is and makes none, so the look before and this mount are one.
 */
static json_t *
shared_mount(const char *name, const char *target)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:{s:b, s:{s:s, s:{s:s}}}}",
	    "Type", "volume", "Source", name, "Target", target, "ReadOnly", 1,
	    "VolumeOptions", "NoCopy", 1, "DriverConfig", "Name", "local",
	    "Options", HARDEN_MUST_EXIST, "1");
}

/* A host file, read-only; rprivate: no mount of the host's comes in. */
static json_t *
file_bind(const char *source, const char *target)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:{s:s}}", "Type", "bind",
	    "Source", source, "Target", target, "ReadOnly", 1,
	    "BindOptions", "Propagation", "rprivate");
}

/* What both containers share: the spec's table, plus docker-bench §5. */
/*
 * No core file (a crash would feed the host's handler, outside the
 * space's cgroup, the process's memory and secrets); open files; for
 * the space, its uid's processes (its own uid: a limit of its own).
 */
static json_t *
ulimits(int nproc)
{
	json_t	*u;

	u = json_pack("[{s:s, s:i, s:i}, {s:s, s:i, s:i}]",
	    "Name", "core", "Soft", 0, "Hard", 0,
	    "Name", "nofile", "Soft", HARDEN_NOFILE, "Hard", HARDEN_NOFILE);
	if (u != NULL && nproc > 0 && json_array_append_new(u, json_pack(
	    "{s:s, s:i, s:i}", "Name", "nproc", "Soft", nproc, "Hard",
	    nproc)) == -1) {
		json_decref(u);
		u = NULL;
	}
	return u;
}

static json_t *
host_config(int64_t memory, int64_t cpus, const char *tmpfs,
    const char *network, json_t *mounts, int nproc, int oom_adj)
{
	return json_pack("{s:b, s:b, s:b, s:{s:s}, s:[s], s:[s], s:[],"
	    " s:I, s:I, s:I, s:b, s:I, s:i, s:I, s:s, s:s, s:s, s:s,"
	    " s:{s:s, s:{s:s, s:s, s:s}}, s:{s:s, s:i}, s:o, s:b, s:b,"
	    " s:o, s:i, s:[]}",
	    "Init", 1,
	    "ReadonlyRootfs", 1,
	    "Privileged", 0,
	    "Tmpfs", HARDEN_TMP, tmpfs,
	    /* The only option: the engine's seccomp default stays on. */
	    "SecurityOpt", "no-new-privileges",
	    "CapDrop", "ALL",
	    "CapAdd",
	    "PidsLimit", (json_int_t)HARDEN_PIDS_LIMIT,
	    "Memory", (json_int_t)memory,
	    /* Equal: swap adds nothing (0 would mean twice the memory). */
	    "MemorySwap", (json_int_t)memory,
	    "OomKillDisable", 0,
	    "NanoCpus", (json_int_t)cpus,
	    "CpuShares", HARDEN_CPU_SHARES,
	    "ShmSize", (json_int_t)HARDEN_SHM_SIZE,
	    /* By name: a daemon's defaults could be host or shareable. */
	    "IpcMode", "private",
	    "CgroupnsMode", "private",
	    "NetworkMode", network,
	    "Runtime", HARDEN_RUNTIME,
	    "LogConfig", "Type", HARDEN_LOG_DRIVER, "Config",
	    "max-size", HARDEN_LOG_MAX_SIZE, "max-file", HARDEN_LOG_MAX_FILE,
	    "compress", HARDEN_LOG_COMPRESS,
	    /* None: a machine that comes back leaves both stopped. */
	    "RestartPolicy", "Name", "no", "MaximumRetryCount", 0,
	    "Mounts", mounts,
	    "PublishAllPorts", 0,
	    "AutoRemove", 0,
	    "Ulimits", ulimits(nproc),
	    "OomScoreAdj", oom_adj,
	    /* No group beyond the image user's own. */
	    "GroupAdd");
}

static json_t *
fail(const char **errstr, const char *why, json_t *o)
{
	json_decref(o);
	*errstr = why;
	return NULL;
}

int
harden_space_folder(char *buf, size_t len, const struct space_meta *m)
{
	int	 n;

	n = snprintf(buf, len, "%s/%s", HARDEN_WORK_PARENT, m->sm_id);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

json_t *
harden_space_create(const struct harden_params *p, const char **errstr)
{
	char		 sock[SPACE_RESOURCE_MAX], runtime[SPACE_RESOURCE_MAX];
	char		 work[SPACE_RESOURCE_MAX], home[SPACE_RESOURCE_MAX];
	char		 folder[HARDEN_FOLDER_MAX], user[HARDEN_USER_MAX];
	const char	*why;
	json_t		*body, *env, *argv, *hc, *mounts;
	size_t		 i;

	if ((why = harden_params_check(p)) != NULL)
		return fail(errstr, why, NULL);
	if (harden_user(user, sizeof(user), p->hp_uid) == -1)
		return fail(errstr, "no space uid", NULL);
	if (space_resource_name(sock, sizeof(sock), p->hp_meta.sm_id,
	    ROLE_SOCKET) == -1 ||
	    space_resource_name(work, sizeof(work), p->hp_meta.sm_id,
	    ROLE_WORK) == -1 ||
	    space_resource_name(home, sizeof(home), p->hp_meta.sm_id,
	    ROLE_HOME) == -1 ||
	    runtime_volume_name(runtime, sizeof(runtime),
	    p->hp_runtime_key) == -1 ||
	    harden_space_folder(folder, sizeof(folder), &p->hp_meta) == -1)
		return fail(errstr, "name too long", NULL);

	/* The relay makes the space's folder before it starts the rest. */
	if ((env = strings(harden_space_env)) == NULL ||
	    (argv = json_pack("[s, s, s, s]", HARDEN_RELAY, "-w", folder,
	    "--")) == NULL)
		return fail(errstr, "out of memory", env);
	for (i = 0; p->hp_runtime_ca && harden_space_ca_env[i] != NULL; i++)
		json_array_append_new(env, json_string(harden_space_ca_env[i]));
	for (i = 0; p->hp_env != NULL && p->hp_env[i] != NULL; i++)
		json_array_append_new(env, json_string(p->hp_env[i]));
	for (i = 0; p->hp_argv[i] != NULL; i++)
		json_array_append_new(argv, json_string(p->hp_argv[i]));

	mounts = json_pack("[o, o, o, o, o]",
	    file_bind(p->hp_hosts, HARDEN_HOSTS_FILE),
	    volume_mount(sock, HARDEN_SOCKET_DIR, 1, 1),
	    shared_mount(runtime, HARDEN_RUNTIME_DIR),
	    /* Copied from the image: the home takes its folder's owner. */
	    volume_mount(work, HARDEN_WORK_PARENT, 0, 0),
	    volume_mount(home, HARDEN_HOME_PARENT, 0, 0));
	if (mounts != NULL && p->hp_tools[0] != '\0' &&
	    json_array_append_new(mounts, shared_mount(p->hp_tools,
	    SPACE_TOOLS_DIR)) == -1) {
		json_decref(mounts);
		mounts = NULL;
	}
	hc = host_config((int64_t)p->hp_meta.sm_memory, p->hp_cpus,
	    HARDEN_SPACE_TMPFS, "none", mounts, HARDEN_SPACE_NPROC,
	    HARDEN_SPACE_OOM_ADJ);
	if (hc == NULL) {
		json_decref(env);
		json_decref(argv);
		return fail(errstr, "out of memory", hc);
	}
	/*
	 * No engine network at all, not even "none"'s sandbox: the kernel's
	 * new namespace has loopback alone either way, and the sandbox
	 * costs a start two re-execs of dockerd.
	 */
	/*
	 * The space's folder is where code in puts the project: the agent's
	 * server starts there, and every exec (attach's screen) begins there.
	 */
	body = json_pack("{s:s, s:b, s:s, s:s, s:o, s:o, s:n, s:o, s:o, s:o}",
	    "Image", p->hp_space_image,
	    "NetworkDisabled", 1,
	    "User", user,
	    "WorkingDir", folder,
	    "Env", env,
	    /* Under --init, the relay listens before the agent starts. */
	    "Entrypoint", argv,
	    "Cmd",
	    "Labels", space_labels_build(&p->hp_meta, ROLE_SPACE),
	    "Healthcheck", health(p->hp_health),
	    "HostConfig", hc);
	if (body == NULL)
		return fail(errstr, "out of memory", NULL);
	return body;
}

json_t *
harden_gatekeeper_create(const struct harden_params *p, const char **errstr)
{
	char		 sock[SPACE_RESOURCE_MAX], net[SPACE_RESOURCE_MAX];
	const char	*why;
	json_t		*body, *hc;

	if ((why = harden_params_check(p)) != NULL)
		return fail(errstr, why, NULL);
	if (space_resource_name(sock, sizeof(sock), p->hp_meta.sm_id,
	    ROLE_SOCKET) == -1 ||
	    space_resource_name(net, sizeof(net), p->hp_meta.sm_id,
	    ROLE_NETWORK) == -1)
		return fail(errstr, "name too long", NULL);

	/* Its one mount; a fresh volume takes /run/spaced's owner. */
	hc = host_config(HARDEN_GK_MEMORY, p->hp_gk_cpus, HARDEN_GK_TMPFS,
	    net, json_pack("[o]", volume_mount(sock, HARDEN_SOCKET_DIR, 0, 0)),
	    0, HARDEN_GK_OOM_ADJ);
	if (hc == NULL)
		return fail(errstr, "out of memory", NULL);
	body = json_pack("{s:s, s:s, s:[s], s:o, s:n, s:o, s:o, s:o,"
	    " s:{s:{s:{}}}}",
	    "Image", p->hp_gk_image,
	    "User", HARDEN_GK_USER,
	    /* The root is read-only; HOME must land somewhere writable. */
	    "Env", HARDEN_GK_ENV,
	    "Entrypoint", strings(p->hp_gk_argv),
	    "Cmd",
	    "Labels", space_labels_build(&p->hp_meta, ROLE_GATEKEEPER),
	    "Healthcheck", health(p->hp_gk_health),
	    "HostConfig", hc,
	    "NetworkingConfig", "EndpointsConfig", net);
	if (body == NULL)
		return fail(errstr, "out of memory", NULL);
	return body;
}

json_t *
harden_network_create(const struct harden_params *p, const char **errstr)
{
	char		 net[SPACE_RESOURCE_MAX];
	const char	*why;
	json_t		*body;

	if ((why = harden_params_check(p)) != NULL)
		return fail(errstr, why, NULL);
	if (space_resource_name(net, sizeof(net), p->hp_meta.sm_id,
	    ROLE_NETWORK) == -1)
		return fail(errstr, "name too long", NULL);
	/*
	 * Never internal: it is the corridor's way out.  CheckDuplicate,
	 * because 20.10 makes a second network of the same name without.
	 */
	body = json_pack("{s:s, s:s, s:b, s:b, s:b, s:b, s:b, s:o}",
	    "Name", net, "Driver", "bridge", "Internal", 0, "EnableIPv6", 0,
	    "Attachable", 0, "Ingress", 0, "CheckDuplicate", 1,
	    "Labels", space_labels_build(&p->hp_meta, ROLE_NETWORK));
	if (body == NULL)
		return fail(errstr, "out of memory", NULL);
	/* A slot of spaced's pool, never one of the engine's own pools. */
	if (p->hp_subnet[0] != '\0' && json_object_set_new(body, "IPAM",
	    json_pack("{s:s, s:[{s:s}]}", "Driver", "default", "Config",
	    "Subnet", p->hp_subnet)) == -1)
		return fail(errstr, "out of memory", body);
	return body;
}

json_t *
harden_volume_create(const struct harden_params *p, enum space_role r,
    const char **errstr)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why;
	json_t		*body;

	if ((why = harden_params_check(p)) != NULL)
		return fail(errstr, why, NULL);
	if (r != ROLE_SOCKET && r != ROLE_WORK && r != ROLE_HOME)
		return fail(errstr, "not a volume role", NULL);
	if (space_resource_name(name, sizeof(name), p->hp_meta.sm_id, r) == -1)
		return fail(errstr, "name too long", NULL);
	/* No DriverOpts: type=none,o=bind would make it a bind mount. */
	body = json_pack("{s:s, s:s, s:{}, s:o}", "Name", name,
	    "Driver", "local", "DriverOpts",
	    "Labels", space_labels_build(&p->hp_meta, r));
	if (body == NULL)
		return fail(errstr, "out of memory", NULL);
	return body;
}

json_t *
harden_runtime_volume_create(const struct harden_params *p,
    const char **errstr)
{
	const char	*why;

	if ((why = harden_params_check(p)) != NULL)
		return fail(errstr, why, NULL);
	return harden_runtime_volume_body(p->hp_runtime_owner,
	    p->hp_runtime_key, errstr);
}

json_t *
harden_runtime_volume_body(const char *owner, const char *key,
    const char **errstr)
{
	char		 name[SPACE_RESOURCE_MAX];
	json_t		*body;

	if (!runtime_key_valid(key) || !space_owner_valid(owner))
		return fail(errstr, "bad runtime key", NULL);
	if (runtime_volume_name(name, sizeof(name), key) == -1)
		return fail(errstr, "name too long", NULL);
	body = json_pack("{s:s, s:s, s:{}, s:o}", "Name", name,
	    "Driver", "local", "DriverOpts",
	    "Labels", runtime_labels_build(owner, key));
	if (body == NULL)
		return fail(errstr, "out of memory", NULL);
	return body;
}
