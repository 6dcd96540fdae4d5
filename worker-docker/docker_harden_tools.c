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
 * The tools one-shots' create bodies and checker: the spec's filler
 * table and the tools-check one-shot's hardening; the checker demands
 * each setting back, so a dropped one fails before the one-shot runs
 * (docs/notes/spaced-docker-verify.md).
 */

#include <stdio.h>
#include <string.h>

#include "docker_harden_tools.h"

/* Each container's command: Entrypoint its first word, Cmd the rest. */
static const char *const idle_argv[] = { "/bin/sleep", "infinity", NULL };
static const char *const fill_argv[] = {
	TOOLS_RELAY, "--", "/bin/sleep", "infinity", NULL
};
static const char *const gk_argv[] = {
	TOOLS_GK_BIN, "-a", TOOLS_REGISTRY, "-u", TOOLS_SOCKET_DIR,
	"127.0.0.1", "3128", "8080", "9099", NULL
};

static int
is_fill(const struct harden_tools_params *p)
{
	return p->tp_role == TOOLS_ROLE_FILL;
}

static int
is_gk(const struct harden_tools_params *p)
{
	return p->tp_role == TOOLS_ROLE_FILL_GK;
}

static const char *
suffix_of(enum tools_role r)
{
	switch (r) {
	case TOOLS_ROLE_VOLUME:
		return "";
	case TOOLS_ROLE_FILL:
		return "-fill";
	case TOOLS_ROLE_CHECK:
		return "-check";
	case TOOLS_ROLE_FILL_GK:
		return "-fill-gk";
	case TOOLS_ROLE_FILL_NET:
		return "-fill-net";
	case TOOLS_ROLE_FILL_SOCK:
		return "-fill-sock";
	default:
		return NULL;
	}
}

static int
params_ok(const struct harden_tools_params *p)
{
	return p != NULL && suffix_of(p->tp_role) != NULL &&
	    p->tp_image != NULL &&
	    p->tp_image[0] != '\0' && strlen(p->tp_image) < HARDEN_IMAGE_MAX &&
	    p->tp_volume != NULL && p->tp_volume[0] != '\0' &&
	    strlen(p->tp_volume) < SPACE_RESOURCE_MAX - TOOLS_SUFFIX_MAX &&
	    p->tp_owner != NULL && p->tp_key != NULL &&
	    p->tp_description != NULL && p->tp_created != NULL &&
	    (p->tp_role != TOOLS_ROLE_FILL || (p->tp_uid != 0 &&
	    p->tp_uid != UINT32_MAX && p->tp_runtime_key != NULL &&
	    runtime_key_valid(p->tp_runtime_key))) &&
	    (p->tp_role != TOOLS_ROLE_FILL_GK || (p->tp_gk_image != NULL &&
	    p->tp_gk_image[0] != '\0' &&
	    strlen(p->tp_gk_image) < HARDEN_IMAGE_MAX));
}

uint32_t
tools_fill_uid(const char *key, uint32_t first, uint32_t count)
{
	char	 id[SPACE_ID_SIZE];

	if (key == NULL || strlen(key) < SPACE_ID_SIZE - 1)
		return 0;
	/* A space's id is 12 hex: the key's first 12 are one. */
	memcpy(id, key, SPACE_ID_SIZE - 1);
	id[SPACE_ID_SIZE - 1] = '\0';
	return harden_space_uid(id, first, count);
}

int
harden_tools_user(const struct harden_tools_params *p, char *buf, size_t len)
{
	if (is_gk(p))
		return strlcpy(buf, HARDEN_GK_USER, len) >= len ? -1 : 0;
	if (!is_fill(p))
		return strlcpy(buf, HARDEN_SPACE_USER, len) >= len ? -1 : 0;
	if (p->tp_uid == 0)
		return -1;
	return harden_user(buf, len, p->tp_uid);
}

int
harden_tools_name(const struct harden_tools_params *p, char *buf, size_t len)
{
	int	 n;

	if (!params_ok(p))
		return -1;
	n = snprintf(buf, len, "%s%s", p->tp_volume, suffix_of(p->tp_role));
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* "<volume><suffix of r>": the names one container gives another. */
static int
name_of(const struct harden_tools_params *p, enum tools_role r, char *buf,
    size_t len)
{
	struct harden_tools_params	 q = *p;

	q.tp_role = r;
	return harden_tools_name(&q, buf, len);
}

static const char *const *
argv_of(const struct harden_tools_params *p)
{
	return is_fill(p) ? fill_argv : is_gk(p) ? gk_argv : idle_argv;
}

static int64_t
memory_of(const struct harden_tools_params *p)
{
	return is_fill(p) ? TOOLS_FILL_MEMORY : is_gk(p) ? HARDEN_GK_MEMORY :
	    TOOLS_CHECK_MEMORY;
}

static const char *
tmpfs_of(const struct harden_tools_params *p)
{
	return is_fill(p) ? TOOLS_FILL_TMPFS : is_gk(p) ? HARDEN_GK_TMPFS :
	    NULL;
}

/* What each container mounts, volumes only. */
struct tools_mount {
	char		 tm_name[SPACE_RESOURCE_MAX];
	const char	*tm_target;
	int		 tm_rw;
};
#define TOOLS_MOUNTS	3

static size_t
mounts_of(const struct harden_tools_params *p, struct tools_mount *m)
{
	size_t	 n = 0;

	if (!is_gk(p)) {
		strlcpy(m[n].tm_name, p->tp_volume, sizeof(m[n].tm_name));
		m[n].tm_target = TOOLS_MOUNT;
		m[n++].tm_rw = is_fill(p);
	}
	/* The gatekeeper's sockets: the filler only reads them. */
	if ((is_fill(p) || is_gk(p)) && name_of(p, TOOLS_ROLE_FILL_SOCK,
	    m[n].tm_name, sizeof(m[n].tm_name)) == 0) {
		m[n].tm_target = TOOLS_SOCKET_DIR;
		m[n++].tm_rw = is_gk(p);
	}
	/*
	 * The relay: from the runtime volume, read-only as in a space;
	 * never from the socket volume, which its gatekeeper writes.
	 */
	if (is_fill(p) && runtime_volume_name(m[n].tm_name,
	    sizeof(m[n].tm_name), p->tp_runtime_key) == 0) {
		m[n].tm_target = HARDEN_RUNTIME_DIR;
		m[n++].tm_rw = 0;
	}
	return n;
}

static json_t *
host_config(const struct harden_tools_params *p)
{
	struct tools_mount	 m[TOOLS_MOUNTS];
	char			 net[SPACE_RESOURCE_MAX];
	json_t			*mounts, *tmpfs;
	size_t			 i, n;

	n = mounts_of(p, m);
	if ((mounts = json_array()) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		json_array_append_new(mounts, json_pack("{s:s, s:s, s:s, s:b}",
		    "Type", "volume", "Source", m[i].tm_name,
		    "Target", m[i].tm_target, "ReadOnly", !m[i].tm_rw));
	if (!is_gk(p))
		strlcpy(net, TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1) {
		json_decref(mounts);
		return NULL;
	}
	tmpfs = tmpfs_of(p) != NULL ? json_pack("{s:s}", HARDEN_TMP,
	    tmpfs_of(p)) : json_object();
	return json_pack("{s:b, s:b, s:b, s:o, s:[s], s:[s], s:[],"
	    " s:I, s:I, s:I, s:b, s:I, s:s, s:s, s:s, s:s,"
	    " s:{s:s, s:{s:s, s:s, s:s}}, s:{s:s, s:i}, s:o, s:b, s:b}",
	    "Init", 1,
	    "ReadonlyRootfs", 1,
	    "Privileged", 0,
	    "Tmpfs", tmpfs,
	    "SecurityOpt", "no-new-privileges",
	    "CapDrop", "ALL",
	    "CapAdd",
	    "PidsLimit", (json_int_t)HARDEN_PIDS_LIMIT,
	    "Memory", (json_int_t)memory_of(p),
	    "MemorySwap", (json_int_t)memory_of(p),
	    "OomKillDisable", 0,
	    "ShmSize", (json_int_t)HARDEN_SHM_SIZE,
	    "IpcMode", "private",
	    "CgroupnsMode", "private",
	    /* Only the filler's gatekeeper has a network. */
	    "NetworkMode", net,
	    "Runtime", HARDEN_RUNTIME,
	    "LogConfig", "Type", HARDEN_LOG_DRIVER, "Config",
	    "max-size", HARDEN_LOG_MAX_SIZE, "max-file", HARDEN_LOG_MAX_FILE,
	    "compress", HARDEN_LOG_COMPRESS,
	    "RestartPolicy", "Name", "no", "MaximumRetryCount", 0,
	    "Mounts", mounts,
	    "PublishAllPorts", 0,
	    "AutoRemove", 0);
}

json_t *
harden_tools_create(const struct harden_tools_params *p, const char **errstr)
{
	const char *const	*argv;
	json_t			*labels, *hc, *body, *cmd;
	char			 user[HARDEN_USER_MAX];
	size_t			 i;

	if (!params_ok(p) || p->tp_role == TOOLS_ROLE_VOLUME ||
	    p->tp_role == TOOLS_ROLE_FILL_NET ||
	    p->tp_role == TOOLS_ROLE_FILL_SOCK ||
	    harden_tools_user(p, user, sizeof(user)) == -1) {
		*errstr = "bad tools parameters";
		return NULL;
	}
	if ((labels = tools_labels_build(p->tp_owner, p->tp_role, p->tp_key,
	    p->tp_description, p->tp_created)) == NULL) {
		*errstr = "bad tools labels";
		return NULL;
	}
	if ((hc = host_config(p)) == NULL) {
		json_decref(labels);
		*errstr = "tools host config";
		return NULL;
	}
	argv = argv_of(p);
	cmd = json_array();
	for (i = 1; cmd != NULL && argv[i] != NULL; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	body = json_pack("{s:s, s:[s], s:o, s:s, s:o, s:o, s:b, s:b}",
	    "Image", is_gk(p) ? p->tp_gk_image : p->tp_image,
	    "Entrypoint", argv[0],
	    "Cmd", cmd,
	    "User", user,
	    "Labels", labels,
	    "HostConfig", hc,
	    "NetworkDisabled", !is_gk(p),
	    "OpenStdin", 0);
	if (body != NULL && (is_fill(p) || is_gk(p)) &&
	    json_object_set_new(body, "Env", json_pack("[s]",
	    TOOLS_FILL_ENV)) == -1) {
		json_decref(body);
		body = NULL;
	}
	if (body == NULL)
		*errstr = "tools body";
	return body;
}

json_t *
harden_tools_volume_create(const struct harden_tools_params *p,
    const char **errstr)
{
	char	 name[SPACE_RESOURCE_MAX];
	json_t	*labels;

	if (!params_ok(p) || (p->tp_role != TOOLS_ROLE_VOLUME &&
	    p->tp_role != TOOLS_ROLE_FILL_SOCK) ||
	    harden_tools_name(p, name, sizeof(name)) == -1 ||
	    (labels = tools_labels_build(p->tp_owner, p->tp_role, p->tp_key,
	    p->tp_description, p->tp_created)) == NULL) {
		*errstr = "bad tools volume parameters";
		return NULL;
	}
	return json_pack("{s:s, s:s, s:o, s:{}}", "Name", name,
	    "Driver", "local", "Labels", labels, "DriverOpts");
}

json_t *
harden_tools_network_create(const struct harden_tools_params *p,
    const char **errstr)
{
	char	 name[SPACE_RESOURCE_MAX];
	json_t	*labels, *body;

	if (!params_ok(p) || p->tp_role != TOOLS_ROLE_FILL_NET ||
	    harden_tools_name(p, name, sizeof(name)) == -1 ||
	    (labels = tools_labels_build(p->tp_owner, p->tp_role, p->tp_key,
	    p->tp_description, p->tp_created)) == NULL) {
		*errstr = "bad tools network parameters";
		return NULL;
	}
	/* As a space's outer bridge (harden_network_create): never internal. */
	body = json_pack("{s:s, s:s, s:b, s:b, s:b, s:b, s:b, s:o}",
	    "Name", name, "Driver", "bridge", "Internal", 0, "EnableIPv6", 0,
	    "Attachable", 0, "Ingress", 0, "CheckDuplicate", 1,
	    "Labels", labels);
	if (body != NULL && p->tp_subnet != NULL && p->tp_subnet[0] != '\0' &&
	    json_object_set_new(body, "IPAM", json_pack("{s:s, s:[{s:s}]}",
	    "Driver", "default", "Config", "Subnet", p->tp_subnet)) == -1) {
		json_decref(body);
		body = NULL;
	}
	if (body == NULL)
		*errstr = "tools network body";
	return body;
}

/* --- the checker ------------------------------------------------------ */

static const char *
str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static int
str_is(const json_t *o, const char *k, const char *want)
{
	const char	*v = str(o, k);

	return v != NULL && strcmp(v, want) == 0;
}

/* Absent, null, "", false, 0, [] or {}: nothing set. */
static int
empty(const json_t *v)
{
	return v == NULL || json_is_null(v) || json_is_false(v) ||
	    (json_is_string(v) && json_string_value(v)[0] == '\0') ||
	    (json_is_integer(v) && json_integer_value(v) == 0) ||
	    (json_is_array(v) && json_array_size(v) == 0) ||
	    (json_is_object(v) && json_object_size(v) == 0);
}

/* An array of exactly these strings, in order. */
static int
strings_are(const json_t *a, const char *const *want, size_t n)
{
	size_t	 i;

	if (!json_is_array(a) || json_array_size(a) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (!json_is_string(json_array_get(a, i)) ||
		    strcmp(json_string_value(json_array_get(a, i)), want[i]) != 0)
			return 0;
	return 1;
}

static int
int_is(const json_t *o, const char *k, int64_t want)
{
	const json_t	*v = json_object_get(o, k);

	return json_is_integer(v) && json_integer_value(v) == want;
}

#define BAD(check, msg)	harden_report_add(r, (check), (msg))

static void
verify_mounts(const json_t *c, const json_t *hc,
    const struct harden_tools_params *p, struct harden_report *r)
{
	struct tools_mount	 want[TOOLS_MOUNTS];
	const json_t		*m;
	size_t			 i, j, n = 0, nwant;

	if (!empty(json_object_get(hc, "Binds")) ||
	    !empty(json_object_get(hc, "VolumesFrom")))
		BAD("tools_binds", "Binds or VolumesFrom set");
	nwant = mounts_of(p, want);
	/* HostConfig.Mounts is what we asked; Mounts is what is there. */
	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		n++;
		for (j = 0; j < nwant; j++)
			if (str_is(m, "Type", "volume") &&
			    str_is(m, "Name", want[j].tm_name) &&
			    str_is(m, "Destination", want[j].tm_target) &&
			    json_is_boolean(json_object_get(m, "RW")) &&
			    json_is_true(json_object_get(m, "RW")) ==
			    want[j].tm_rw)
				break;
		if (j == nwant)
			BAD("tools_mounts", "a mount that is not one asked "
			    "for");
	}
	if (n != nwant)
		BAD("tools_mounts", "not exactly the mounts asked for");
}

void
harden_verify_tools(const json_t *c, const struct harden_tools_params *p,
    struct harden_report *r)
{
	static const char *const	 cap_all[] = { "ALL" };
	static const char *const	 nnp[] = { "no-new-privileges" };
	static const char *const	 user_env[] = { TOOLS_FILL_ENV };
	const json_t			*hc, *cfg, *lc, *lco, *tmp, *env, *e;
	const char *const		*argv;
	const char			*s;
	char				 user[HARDEN_USER_MAX];
	char				 net[SPACE_RESOURCE_MAX];
	size_t				 i, n, ours = 0;

	hc = json_object_get(c, "HostConfig");
	cfg = json_object_get(c, "Config");
	if (!params_ok(p) || !json_is_object(c) || !json_is_object(hc) ||
	    !json_is_object(cfg)) {
		BAD("tools_inspect", "not an inspect of a container");
		return;
	}
	if (tools_labels_check(json_object_get(cfg, "Labels"), p->tp_owner,
	    p->tp_role, p->tp_key, NULL) != NULL)
		BAD("tools_labels", "not this owner's one-shot of this key");
	if (!str_is(cfg, "Image", is_gk(p) ? p->tp_gk_image : p->tp_image))
		BAD("tools_image", "another image");
	argv = argv_of(p);
	for (n = 0; argv[n] != NULL; n++)
		;
	if (!str_is(c, "Path", argv[0]) ||
	    !strings_are(json_object_get(c, "Args"), argv + 1, n - 1))
		BAD("tools_command", "not the command asked for");
	/* Never root: the filler runs install code of the registry's. */
	if (harden_tools_user(p, user, sizeof(user)) == -1 ||
	    !str_is(cfg, "User", user))
		BAD("tools_user", "another user");
	/* The image's PATH and LANG, ours (the filler's HOME), nothing else */
	env = json_object_get(cfg, "Env");
	json_array_foreach(env, i, e) {
		s = json_string_value(e);
		if (s != NULL && (is_fill(p) || is_gk(p)) &&
		    strcmp(s, user_env[0]) == 0)
			ours++;
		else if (s == NULL || (strncmp(s, "PATH=", 5) != 0 &&
		    strncmp(s, "LANG=", 5) != 0))
			BAD("tools_env", "an unexpected environment entry");
	}
	if ((is_fill(p) || is_gk(p)) && ours != 1)
		BAD("tools_env", "HOME=/tmp missing");
	if (!json_is_true(json_object_get(hc, "Init")))
		BAD("tools_init", "no init");
	if (!json_is_true(json_object_get(hc, "ReadonlyRootfs")))
		BAD("tools_readonly_rootfs", "the root is writable");
	if (!empty(json_object_get(hc, "Privileged")))
		BAD("tools_privileged", "privileged");
	if (!strings_are(json_object_get(hc, "CapDrop"), cap_all, 1))
		BAD("tools_cap_drop", "not every capability dropped");
	if (!empty(json_object_get(hc, "CapAdd")))
		BAD("tools_cap_add", "a capability added");
	if (!strings_are(json_object_get(hc, "SecurityOpt"), nnp, 1))
		BAD("tools_security_opt", "not exactly no-new-privileges");
	if (!int_is(hc, "PidsLimit", HARDEN_PIDS_LIMIT))
		BAD("tools_pids_limit", "pids limit");
	if (!int_is(hc, "Memory", memory_of(p)))
		BAD("tools_memory", "memory");
	if (!int_is(hc, "MemorySwap", memory_of(p)))
		BAD("tools_memory_swap", "swap is not equal to memory");
	/* The filler reaches out only through its gatekeeper's corridor. */
	if (!is_gk(p))
		strlcpy(net, TOOLS_FILL_NETWORK, sizeof(net));
	else if (name_of(p, TOOLS_ROLE_FILL_NET, net, sizeof(net)) == -1)
		net[0] = '\0';
	if (!str_is(hc, "NetworkMode", net) ||
	    json_is_true(json_object_get(cfg, "NetworkDisabled")) == is_gk(p))
		BAD("tools_network", "another network");
	if (!str_is(hc, "IpcMode", "private"))
		BAD("tools_ipc", "ipc not private");
	if (!str_is(hc, "CgroupnsMode", "private"))
		BAD("tools_cgroupns", "cgroupns not private");
	if (!empty(json_object_get(hc, "PidMode")) ||
	    !empty(json_object_get(hc, "UTSMode")) ||
	    !empty(json_object_get(hc, "UsernsMode")))
		BAD("tools_pid_mode", "a shared namespace");
	tmp = json_object_get(hc, "Tmpfs");
	if (tmpfs_of(p) != NULL ? (!json_is_object(tmp) ||
	    json_object_size(tmp) != 1 || !str_is(tmp, HARDEN_TMP,
	    tmpfs_of(p))) : !empty(tmp))
		BAD("tools_tmpfs", "tmpfs not as asked");
	verify_mounts(c, hc, p, r);
	if (!empty(json_object_get(hc, "Devices")) ||
	    !empty(json_object_get(hc, "DeviceRequests")) ||
	    !empty(json_object_get(hc, "DeviceCgroupRules")))
		BAD("tools_devices", "devices");
	if (!empty(json_object_get(hc, "PortBindings")) ||
	    !empty(json_object_get(hc, "PublishAllPorts")))
		BAD("tools_ports", "published ports");
	if (!empty(json_object_get(hc, "Sysctls")))
		BAD("tools_sysctls", "sysctls");
	if (!str_is(hc, "Runtime", HARDEN_RUNTIME))
		BAD("tools_runtime", "another runtime");
	lc = json_object_get(hc, "LogConfig");
	lco = json_object_get(lc, "Config");
	if (!str_is(lc, "Type", HARDEN_LOG_DRIVER) ||
	    !json_is_object(lco) || json_object_size(lco) != 3 ||
	    !str_is(lco, "max-size", HARDEN_LOG_MAX_SIZE) ||
	    !str_is(lco, "max-file", HARDEN_LOG_MAX_FILE) ||
	    !str_is(lco, "compress", HARDEN_LOG_COMPRESS))
		BAD("tools_log", "no log cap");
	s = str(json_object_get(hc, "RestartPolicy"), "Name");
	if (s != NULL && s[0] != '\0' && strcmp(s, "no") != 0)
		BAD("tools_restart_policy", "restarts");
}
