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

static const char *const idle_argv[] = { "/bin/sleep", "infinity" };

static int
params_ok(const struct harden_tools_params *p)
{
	return p != NULL && (p->tp_role == TOOLS_ROLE_FILL ||
	    p->tp_role == TOOLS_ROLE_CHECK) && p->tp_image != NULL &&
	    p->tp_image[0] != '\0' && strlen(p->tp_image) < HARDEN_IMAGE_MAX &&
	    p->tp_volume != NULL && p->tp_volume[0] != '\0' &&
	    strlen(p->tp_volume) < SPACE_RESOURCE_MAX - 8 &&
	    p->tp_owner != NULL && p->tp_key != NULL &&
	    p->tp_description != NULL && p->tp_created != NULL;
}

int
harden_tools_name(const struct harden_tools_params *p, char *buf, size_t len)
{
	int	 n;

	if (!params_ok(p))
		return -1;
	n = snprintf(buf, len, "%s-%s", p->tp_volume,
	    p->tp_role == TOOLS_ROLE_FILL ? "fill" : "check");
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int
is_fill(const struct harden_tools_params *p)
{
	return p->tp_role == TOOLS_ROLE_FILL;
}

static int64_t
memory_of(const struct harden_tools_params *p)
{
	return is_fill(p) ? TOOLS_FILL_MEMORY : TOOLS_CHECK_MEMORY;
}

json_t *
harden_tools_create(const struct harden_tools_params *p, const char **errstr)
{
	json_t	*labels, *hc, *tmpfs, *body;

	if (!params_ok(p)) {
		*errstr = "bad tools parameters";
		return NULL;
	}
	if ((labels = tools_labels_build(p->tp_owner, p->tp_role, p->tp_key,
	    p->tp_description, p->tp_created)) == NULL) {
		*errstr = "bad tools labels";
		return NULL;
	}
	tmpfs = is_fill(p) ? json_pack("{s:s}", HARDEN_TMP, TOOLS_FILL_TMPFS) :
	    json_object();
	hc = json_pack("{s:b, s:b, s:b, s:o, s:[s], s:[s], s:[],"
	    " s:I, s:I, s:I, s:b, s:I, s:s, s:s, s:s, s:s,"
	    " s:{s:s, s:{s:s, s:s, s:s}}, s:{s:s, s:i},"
	    " s:[{s:s, s:s, s:s, s:b}], s:b, s:b}",
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
	    /* The filler is the only container of ours with a way out. */
	    "NetworkMode", is_fill(p) ? TOOLS_FILL_NETWORK : "none",
	    "Runtime", HARDEN_RUNTIME,
	    "LogConfig", "Type", HARDEN_LOG_DRIVER, "Config",
	    "max-size", HARDEN_LOG_MAX_SIZE, "max-file", HARDEN_LOG_MAX_FILE,
	    "compress", HARDEN_LOG_COMPRESS,
	    "RestartPolicy", "Name", "no", "MaximumRetryCount", 0,
	    "Mounts", "Type", "volume", "Source", p->tp_volume,
	    "Target", TOOLS_MOUNT, "ReadOnly", !is_fill(p),
	    "PublishAllPorts", 0,
	    "AutoRemove", 0);
	if (hc == NULL) {
		json_decref(labels);
		*errstr = "tools host config";
		return NULL;
	}
	body = json_pack("{s:s, s:[s], s:[s], s:s, s:o, s:o, s:b, s:b}",
	    "Image", p->tp_image,
	    "Entrypoint", idle_argv[0],
	    "Cmd", idle_argv[1],
	    "User", is_fill(p) ? TOOLS_FILL_USER : HARDEN_SPACE_USER,
	    "Labels", labels,
	    "HostConfig", hc,
	    "NetworkDisabled", !is_fill(p),
	    "OpenStdin", 0);
	if (body != NULL && is_fill(p) && json_object_set_new(body, "Env",
	    json_pack("[s]", TOOLS_FILL_ENV)) == -1) {
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
	json_t	*labels;

	if (p == NULL || p->tp_volume == NULL || (labels =
	    tools_labels_build(p->tp_owner, TOOLS_ROLE_VOLUME, p->tp_key,
	    p->tp_description, p->tp_created)) == NULL) {
		*errstr = "bad tools volume parameters";
		return NULL;
	}
	return json_pack("{s:s, s:s, s:o, s:{}}", "Name", p->tp_volume,
	    "Driver", "local", "Labels", labels, "DriverOpts");
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
	const json_t	*m;
	size_t		 i, n = 0;

	if (!empty(json_object_get(hc, "Binds")) ||
	    !empty(json_object_get(hc, "VolumesFrom")))
		BAD("tools_binds", "Binds or VolumesFrom set");
	/* HostConfig.Mounts is what we asked; Mounts is what is there. */
	json_array_foreach(json_object_get(c, "Mounts"), i, m) {
		n++;
		if (!str_is(m, "Type", "volume") ||
		    !str_is(m, "Name", p->tp_volume) ||
		    !str_is(m, "Destination", TOOLS_MOUNT) ||
		    !json_is_boolean(json_object_get(m, "RW")) ||
		    json_is_true(json_object_get(m, "RW")) != is_fill(p))
			BAD("tools_mounts", "a mount that is not the tools "
			    "volume as asked");
	}
	if (n != 1)
		BAD("tools_mounts", "not exactly one mount");
}

void
harden_verify_tools(const json_t *c, const struct harden_tools_params *p,
    struct harden_report *r)
{
	static const char *const	 cap_all[] = { "ALL" };
	static const char *const	 nnp[] = { "no-new-privileges" };
	static const char *const	 user_env[] = { TOOLS_FILL_ENV };
	const json_t			*hc, *cfg, *lc, *lco, *tmp, *env, *e;
	const char			*s;
	size_t				 i, ours = 0;

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
	if (!str_is(cfg, "Image", p->tp_image))
		BAD("tools_image", "another image");
	if (!str_is(c, "Path", idle_argv[0]) ||
	    !strings_are(json_object_get(c, "Args"), idle_argv + 1, 1))
		BAD("tools_command", "not the idle command");
	if (!str_is(cfg, "User", is_fill(p) ? TOOLS_FILL_USER :
	    HARDEN_SPACE_USER))
		BAD("tools_user", "another user");
	/* The image's PATH and LANG, ours (the filler's HOME), nothing else */
	env = json_object_get(cfg, "Env");
	json_array_foreach(env, i, e) {
		s = json_string_value(e);
		if (s != NULL && is_fill(p) && strcmp(s, user_env[0]) == 0)
			ours++;
		else if (s == NULL || (strncmp(s, "PATH=", 5) != 0 &&
		    strncmp(s, "LANG=", 5) != 0))
			BAD("tools_env", "an unexpected environment entry");
	}
	if (is_fill(p) && ours != 1)
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
	if (!str_is(hc, "NetworkMode", is_fill(p) ? TOOLS_FILL_NETWORK :
	    "none"))
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
	if (is_fill(p) ? (!json_is_object(tmp) || json_object_size(tmp) != 1 ||
	    !str_is(tmp, HARDEN_TMP, TOOLS_FILL_TMPFS)) : !empty(tmp))
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
