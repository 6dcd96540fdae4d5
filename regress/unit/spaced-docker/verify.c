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
 * The checkers against inspect JSON recorded from Engine 20.10.24
 * (data/, by record.sh): the recordings of the builder's own bodies
 * verify clean, and each recording or mutation with one violation
 * planted is named by exactly that one name.  Then every builder
 * against its checker, through shape_inspect().
 */

#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker-docker/docker_harden.h"
#include "harden_fixture.h"
#include "shape.h"

enum kind { K_SPACE, K_GK, K_NET, K_SOCK, K_WORK, K_HOME, K_RUNTIME,
    K_CREATED };

static const char *
data_dir(void)
{
	const char	*d = getenv("HARDEN_DATA");

	return d != NULL ? d : "regress/unit/spaced-docker/data";
}

static json_t *
load_path(const char *path)
{
	json_error_t	 err;
	json_t		*o;
	FILE		*f;
	char		*buf;
	size_t		 n;

	f = fopen(path, "r");
	cr_assert_not_null(f, "%s (run from the top of the tree)", path);
	buf = malloc(HARDEN_INSPECT_MAX + 1);
	n = fread(buf, 1, HARDEN_INSPECT_MAX + 1, f);
	fclose(f);
	o = harden_json_parse(buf, n);
	free(buf);
	cr_assert_not_null(o, "%s: %s", path, err.text);
	return o;
}

static json_t *
load(const char *file)
{
	char	 path[512];

	snprintf(path, sizeof(path), "%s/%s.json", data_dir(), file);
	return load_path(path);
}

static void
verify(enum kind k, const json_t *o, struct harden_report *r)
{
	struct harden_params	 p;

	fx_params(&p);
	harden_report_init(r);
	switch (k) {
	case K_SPACE:	harden_verify_space(o, &p, r); break;
	case K_GK:	harden_verify_gatekeeper(o, &p, r); break;
	case K_NET:	harden_verify_network(o, &p, r); break;
	case K_SOCK:	harden_verify_volume(o, &p, ROLE_SOCKET, r); break;
	case K_WORK:	harden_verify_volume(o, &p, ROLE_WORK, r); break;
	case K_HOME:	harden_verify_volume(o, &p, ROLE_HOME, r); break;
	case K_RUNTIME:	harden_verify_runtime_volume(o, &p, r); break;
	case K_CREATED:	harden_verify_created(o, r); break;
	}
}

static void
print(const struct harden_report *r, char *buf, size_t len)
{
	size_t	 i;

	buf[0] = '\0';
	for (i = 0; i < r->hr_n; i++) {
		strlcat(buf, r->hr_v[i].hv_check, len);
		strlcat(buf, " (", len);
		strlcat(buf, r->hr_v[i].hv_message, len);
		strlcat(buf, ") ", len);
	}
}

/* Exactly one violation, this one; "" for none. */
static void
expect_only(const char *what, enum kind k, const json_t *o, const char *name)
{
	struct harden_report	 r;
	char			 got[4096];

	verify(k, o, &r);
	print(&r, got, sizeof(got));
	if (*name == '\0')
		cr_expect_eq(r.hr_n, 0, "%s: want clean, got %s", what, got);
	else
		cr_expect(r.hr_n == 1 && harden_report_has(&r, name),
		    "%s: want only %s, got %s", what, name, got);
}

Test(recorded, builder_bodies_verify_clean)
{
	static const struct { const char *file; enum kind k; } t[] = {
		{ "space", K_SPACE }, { "gatekeeper", K_GK },
		{ "network", K_NET }, { "volume-sock", K_SOCK },
		{ "volume-work", K_WORK }, { "volume-home", K_HOME },
		{ "volume-runtime", K_RUNTIME },
		{ "create-space", K_CREATED }, { "create-gatekeeper", K_CREATED },
		{ "create-network", K_CREATED },
		{ "create-volume-sock", K_CREATED },
		{ "create-volume-runtime", K_CREATED },
	};
	size_t	 i;
	json_t	*o;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		o = load(t[i].file);
		expect_only(t[i].file, t[i].k, o, "");
		json_decref(o);
	}
}

/* data/<role>-v-<check>.json: made by the engine with one violation. */
Test(recorded, each_planted_violation_named_alone)
{
	char	 pat[512], name[HARDEN_CHECK_MAX], *base, *dot;
	glob_t	 g;
	size_t	 i, nspace = 0, ngk = 0;
	json_t	*o;

	snprintf(pat, sizeof(pat), "%s/*-v-*.json", data_dir());
	cr_assert_eq(glob(pat, 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		base = strrchr(g.gl_pathv[i], '/') + 1;
		o = load_path(g.gl_pathv[i]);
		if (strncmp(base, "space-v-", 8) == 0) {
			strlcpy(name, base + 8, sizeof(name));
			if ((dot = strstr(name, ".json")) != NULL)
				*dot = '\0';
			expect_only(base, K_SPACE, o, name);
			nspace++;
		} else {
			cr_assert(strncmp(base, "gatekeeper-v-", 13) == 0);
			snprintf(name, sizeof(name), "gatekeeper_%s", base + 13);
			if ((dot = strstr(name, ".json")) != NULL)
				*dot = '\0';
			expect_only(base, K_GK, o, name);
			ngk++;
		}
		json_decref(o);
	}
	globfree(&g);
	cr_expect_geq(nspace, 35);
	cr_expect_geq(ngk, 7);
}

Test(recorded, create_warning_is_a_failure)
{
	json_t	*o = load("create-space-warning");

	expect_only("kernel memory warning", K_CREATED, o, "create_warnings");
	json_decref(o);
}

/*
 * Sets the value at a '/'-separated path ("HostConfig/Mounts/0/RW");
 * a number indexes an array, "+" appends, v NULL deletes.
 */
static void
set_path(json_t *root, const char *path, json_t *v)
{
	char	 buf[256], *seg, *next;
	json_t	*cur = root, *child;

	strlcpy(buf, path, sizeof(buf));
	for (seg = buf; ; seg = next) {
		next = strchr(seg, '/');
		if (next != NULL)
			*next++ = '\0';
		if (json_is_array(cur)) {
			if (next == NULL) {
				if (strcmp(seg, "+") == 0)
					json_array_append_new(cur, v);
				else if (v == NULL)
					json_array_remove(cur, atoi(seg));
				else
					json_array_set_new(cur, atoi(seg), v);
				return;
			}
			child = json_array_get(cur, atoi(seg));
		} else {
			if (next == NULL) {
				if (v == NULL)
					json_object_del(cur, seg);
				else
					json_object_set_new(cur, seg, v);
				return;
			}
			child = json_object_get(cur, seg);
		}
		cr_assert_not_null(child, "path %s", path);
		cur = child;
	}
}

struct plant {
	const char	*pl_file;
	enum kind	 pl_kind;
	const char	*pl_path;
	const char	*pl_value;	/* JSON; NULL deletes */
	const char	*pl_want;	/* "" for clean */
};

#define SP	"space", K_SPACE
#define GK	"gatekeeper", K_GK
static const struct plant plants[] = {
	{ SP, "HostConfig/UsernsMode", "\"host\"", "userns_mode" },
	{ SP, "HostConfig/CgroupParent", "\"/x\"", "cgroup_parent" },
	{ SP, "HostConfig/Runtime", "\"runsc\"", "runtime" },
	{ SP, "Name", "\"/spaced-space-000000000000-space\"", "name" },
	{ SP, "Config/Entrypoint", "[\"/bin/sh\"]", "command" },
	{ SP, "Config/Entrypoint/5", "\"1\"", "command" },
	/* The relay's folder: another space's, or no "--" after it. */
	{ SP, "Config/Entrypoint/2", "\"/spaces/000000000000\"", "command" },
	{ SP, "Config/Entrypoint/3", "\"-d\"", "command" },
	{ SP, "Config/Entrypoint", "[\"/opt/spaced/spaced-relay\", \"-w\", "
	    "\"/spaces/a1b2c3d4e5f6\", \"/bin/sleep\", \"3600\"]", "command" },
	/* A space made before the relay made its folder: no -w, clean. */
	{ SP, "Config/Entrypoint", "[\"/opt/spaced/spaced-relay\", \"--\", "
	    "\"/bin/sleep\", \"3600\"]", "" },
	{ SP, "Config/Cmd", "[\"x\"]", "command" },
	{ SP, "HostConfig/Binds", "[\"/:/host\"]", "mounts" },
	{ SP, "HostConfig/Binds", "[\"/run/docker.sock:/s\"]",
	    "runtime_socket" },
	{ SP, "HostConfig/VolumesFrom", "[\"other\"]", "mounts" },
	/* A tmpfs given as a mount shows in .Mounts, not in Tmpfs. */
	{ SP, "Mounts/+", "{\"Type\":\"tmpfs\",\"Destination\":\"/x\","
	    "\"RW\":true}", "mounts" },
	{ SP, "Mounts/3/Name", "\"spaced-space-000000000000-sock\"",
	    "socket_mount" },
	{ SP, "Mounts/3", NULL, "socket_mount" },
	{ SP, "Mounts/2/Name", "\"spaced-runtime-0000000000000000\"",
	    "runtime_mount" },
	{ SP, "Mounts/2", NULL, "runtime_mount" },
	{ SP, "Mounts/4/RW", "false", "mounts" },
	{ SP, "Mounts/1", NULL, "mounts" },
	{ SP, "Mounts/1/Name", "\"spaced-space-000000000000-home\"", "mounts" },
	{ SP, "NetworkSettings/Networks/bridge", "{}", "network" },
	{ SP, "HostConfig/NetworkMode", "\"host\"", "network" },
	{ SP, "HostConfig/CapDrop", "[\"all\"]", "" },
	{ SP, "HostConfig/CapDrop", "[\"CAP_ALL\"]", "" },
	{ SP, "HostConfig/CapDrop", "null", "cap_drop" },
	{ SP, "HostConfig/CapAdd", "[\"cap_sys_admin\"]", "cap_add" },
	{ SP, "HostConfig/CapAdd", "null", "" },
	{ SP, "HostConfig/MemorySwap", "0", "memory_swap" },
	{ SP, "HostConfig/MemorySwap", "-1", "memory_swap" },
	{ SP, "HostConfig/Memory", "0", "memory" },
	{ SP, "HostConfig/Tmpfs", NULL, "tmpfs" },
	{ SP, "HostConfig/DeviceRequests", "[{}]", "devices" },
	{ SP, "HostConfig/DeviceCgroupRules", "[\"c 1:3 rwm\"]", "devices" },
	{ SP, "HostConfig/PublishAllPorts", "true", "ports" },
	{ SP, "Config/Labels/spaced.space.id", "\"000000000000\"", "labels" },
	{ SP, "Config/Labels/spaced.space.name", "\"other\"", "labels" },
	{ SP, "Config/Labels", NULL, "labels" },
	{ SP, "Config/Env", "[]", "env" },
	{ SP, "Config/Env/+", "\"db_password=x\"", "env" },
	{ SP, "Config/Healthcheck/Interval", "0", "healthcheck" },
	{ SP, "Config/Healthcheck/Test/1", "\"/bin/true\"", "healthcheck" },
	{ SP, "HostConfig/SecurityOpt/+", "\"apparmor=unconfined\"",
	    "security_opt" },
	{ SP, "HostConfig/SecurityOpt/+", "\"seccomp=/tmp/p.json\"",
	    "seccomp" },
	{ SP, "HostConfig/SecurityOpt", "[\"no-new-privileges:false\"]",
	    "no_new_privileges" },
	{ SP, "HostConfig/SecurityOpt", "[\"no-new-privileges=true\"]", "" },
	{ SP, "HostConfig/ExtraHosts", "[\"gatekeeper:127.0.0.1\"]",
	    "extra_hosts" },
	/* A space has no network at all, and only spaced's hosts file. */
	{ SP, "Config/NetworkDisabled", "false", "network" },
	{ SP, "Config/NetworkDisabled", NULL, "network" },
	{ SP, "NetworkSettings/Networks/none", "{}", "network" },
	{ SP, "HostConfig/NetworkMode", "\"" FX_NET "\"", "network" },
	{ SP, "Mounts/0/Source", "\"/etc/hostname\"", "hosts_mount" },
	{ SP, "Mounts/0/Propagation", "\"rshared\"", "hosts_mount" },
	{ SP, "Mounts/0/RW", "true", "hosts_mount" },
	{ SP, "Mounts/0/Type", "\"volume\"", "hosts_mount" },
	{ SP, "Mounts/0", NULL, "hosts_mount" },
	{ SP, "Mounts/+", "{\"Type\":\"bind\",\"Source\":\"" FX_HOSTS
	    "\",\"Destination\":\"/etc/hosts\",\"RW\":false,"
	    "\"Propagation\":\"rprivate\"}", "hosts_mount" },
	{ SP, "HostConfig/RestartPolicy", "{\"Name\":\"on-failure\","
	    "\"MaximumRetryCount\":5}", "restart_policy" },
	{ SP, "HostConfig/LogConfig/Config/compress", "\"true\"",
	    "log_config" },
	{ SP, "HostConfig/LogConfig/Config/max-size", "\"1g\"", "log_config" },
	{ SP, "HostConfig/LogConfig/Config/mode", "\"non-blocking\"",
	    "log_config" },
	{ SP, "HostConfig/LogConfig/Config/mode", "\"non-blocking\"",
	    "log_config" },
	{ SP, "HostConfig/CpuShares", "1024", "cpu" },
	{ SP, "HostConfig/Privileged", "\"false\"", "privileged" },
	{ SP, "HostConfig/ReadonlyPaths", "[]", "masked_paths" },
	{ SP, "HostConfig/PidsLimit", "-1", "pids_limit" },
	{ SP, "HostConfig/CgroupnsMode", "\"\"", "cgroupns" },
	/* issue 27: one mask or read-only path gone, the profile, limits */
	{ SP, "HostConfig/MaskedPaths/2", NULL, "masked_paths" },
	{ SP, "HostConfig/ReadonlyPaths/3", NULL, "masked_paths" },
	{ SP, "HostConfig/MaskedPaths/+", "\"/proc/extra\"", "" },
	{ SP, "AppArmorProfile", "\"unconfined\"", "apparmor" },
	{ SP, "AppArmorProfile", "\"docker-default\"", "" },
	{ SP, "AppArmorProfile", NULL, "apparmor" },
	{ SP, "HostConfig/Ulimits/0/Hard", "-1", "ulimits" },
	{ SP, "HostConfig/Ulimits/2", NULL, "ulimits" },
	{ SP, "HostConfig/Ulimits/+", "{\"Name\":\"nice\",\"Soft\":0,"
	    "\"Hard\":0}", "ulimits" },
	{ SP, "HostConfig/OomScoreAdj", "0", "oom_score_adj" },
	{ SP, "HostConfig/GroupAdd", "[\"docker\"]", "group_add" },
	{ SP, "Config/User", "\"2000000043:2000000043\"", "user" },
	{ GK, "HostConfig/Ulimits/+", "{\"Name\":\"nproc\",\"Soft\":1,"
	    "\"Hard\":1}", "gatekeeper_ulimits" },
	{ GK, "HostConfig/OomScoreAdj", "500", "gatekeeper_oom_score_adj" },
	{ GK, "NetworkSettings/Networks/spaced-space-" FX_ID "-other", "{}",
	    "gatekeeper_network" },
	{ GK, "HostConfig/NetworkMode", "\"host\"", "gatekeeper_network" },
	{ GK, "HostConfig/ExtraHosts", "[\"gatekeeper:127.0.0.1\"]",
	    "gatekeeper_extra_hosts" },
	{ GK, "Mounts", "[]", "gatekeeper_socket_mount" },
	{ GK, "Mounts/+", "{\"Type\":\"volume\",\"Name\":\"" FX_RUNTIME
	    "\",\"Destination\":\"/opt/spaced\",\"Driver\":\"local\","
	    "\"RW\":false}", "gatekeeper_mounts" },
	{ GK, "Config/Env/+", "\"FOO=1\"", "gatekeeper_env" },
	{ GK, "Config/Labels/spaced.space.role", "\"space\"",
	    "gatekeeper_labels" },
	{ GK, "Config/Image", "\"other:1\"", "gatekeeper_image" },
	{ GK, "Config/Entrypoint", "[\"/bin/sh\"]", "gatekeeper_command" },
	{ GK, "HostConfig/Tmpfs/~1var~1tmp", "\"rw\"", "gatekeeper_tmpfs" },
	{ GK, "HostConfig/UTSMode", "\"host\"", "gatekeeper_uts_mode" },
	{ "network", K_NET, "Internal", "true", "network_internal" },
	{ "network", K_NET, "EnableIPv6", "true", "network_ipv6" },
	{ "network", K_NET, "Driver", "\"macvlan\"", "network_driver" },
	{ "network", K_NET, "Labels/spaced.space.owner",
	    "\"ffffffffffffffffffffffffffffffff:1000\"", "network_labels" },
	{ "network", K_NET, "Labels/spaced.space.role", "\"space\"",
	    "network_labels" },
	{ "network", K_NET, "Name", "\"spaced-space-000000000000-net\"",
	    "network_name" },
	{ "network", K_NET, "Attachable", "true", "network_scope" },
	{ "volume-sock", K_SOCK, "Options", "{\"type\":\"none\",\"o\":"
	    "\"bind\",\"device\":\"/\"}", "volume_options" },
	{ "volume-sock", K_SOCK, "Driver", "\"nfs\"", "volume_driver" },
	{ "volume-sock", K_SOCK, "Labels/spaced.space.role", "\"work\"",
	    "volume_labels" },
	{ "volume-sock", K_SOCK, "Labels", "null", "volume_labels" },
	{ "volume-sock", K_SOCK, "Name", "\"" FX_WORK "\"", "volume_name" },
	{ "volume-runtime", K_RUNTIME, "Labels/spaced.runtime.key",
	    "\"0000000000000000\"", "volume_labels" },
	{ "volume-runtime", K_RUNTIME, "Labels/spaced.space.owner",
	    "\"x:1\"", "volume_labels" },
	{ "create-space", K_CREATED, "Id", "\"xyz\"", "create_answer" },
	{ "create-space", K_CREATED, "Id", NULL, "create_answer" },
	{ "create-network", K_CREATED, "Warning", "\"dropped\"",
	    "create_warnings" },
};

/* "~1" stands for '/' in a key, as in a JSON pointer. */
static void
unescape(char *s)
{
	char	*p;

	while ((p = strstr(s, "~1")) != NULL) {
		*p = '\x01';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
}

Test(planted, each_mutation_named_alone)
{
	char		 path[256], what[320], *p;
	json_error_t	 err;
	json_t		*o, *v;
	size_t		 i;

	for (i = 0; i < sizeof(plants) / sizeof(plants[0]); i++) {
		o = load(plants[i].pl_file);
		strlcpy(path, plants[i].pl_path, sizeof(path));
		unescape(path);
		v = NULL;
		if (plants[i].pl_value != NULL) {
			v = json_loads(plants[i].pl_value,
			    JSON_DECODE_ANY, &err);
			cr_assert_not_null(v, "%s", plants[i].pl_value);
		}
		if (strchr(path, '\x01') != NULL) {
			/* only a last segment carries an escaped key */
			p = strrchr(path, '/');
			*p = '\0';
			for (char *q = p + 1; *q; q++)
				if (*q == '\x01')
					*q = '/';
			json_object_set_new(json_object_get(json_object_get(o,
			    "HostConfig"), "Tmpfs"), p + 1, v);
		} else
			set_path(o, path, v);
		snprintf(what, sizeof(what), "%s %s=%s", plants[i].pl_file,
		    plants[i].pl_path, plants[i].pl_value ? plants[i].pl_value :
		    "(deleted)");
		expect_only(what, plants[i].pl_kind, o, plants[i].pl_want);
		json_decref(o);
	}
}

Test(planted, not_an_inspect)
{
	static const char *const bad[] = { "[]", "1", "\"x\"", "{}",
	    "{\"Config\":{}}", "{\"Config\":{},\"HostConfig\":[]}" };
	enum kind	 k;
	size_t		 i;
	json_t		*o;
	char		*big;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = json_loads(bad[i], JSON_DECODE_ANY, NULL);
		for (k = K_SPACE; k <= K_GK; k++)
			expect_only(bad[i], k, o, k == K_GK ?
			    "gatekeeper_inspect" : "inspect");
		json_decref(o);
	}
	cr_assert_null(harden_json_parse("[]", 2));
	cr_assert_null(harden_json_parse("{\"a\":1,\"a\":2}", 13));
	/* Valid JSON, one byte over the cap: refused for its size. */
	big = malloc(HARDEN_INSPECT_MAX + 1);
	memset(big, ' ', HARDEN_INSPECT_MAX + 1);
	memcpy(big, "{}", 2);
	cr_assert_null(harden_json_parse(big, HARDEN_INSPECT_MAX + 1));
	o = harden_json_parse(big, HARDEN_INSPECT_MAX);
	cr_assert_not_null(o);
	json_decref(o);
	free(big);
}

/* An inspect wrong everywhere: each name once, the list bounded. */
Test(planted, report_bounded_and_unique)
{
	struct harden_report	 r;
	json_t			*o;
	size_t			 i, j;

	o = json_pack("{s:{}, s:{}}", "Config", "HostConfig");
	verify(K_SPACE, o, &r);
	cr_assert_gt(r.hr_n, 30);
	cr_assert_leq(r.hr_n, HARDEN_REPORT_MAX);
	for (i = 0; i < r.hr_n; i++)
		for (j = i + 1; j < r.hr_n; j++)
			cr_assert_str_neq(r.hr_v[i].hv_check,
			    r.hr_v[j].hv_check);
	json_decref(o);
}

/* Every field the builder sets, the engine kept as sent. */
static void
body_in_recording(json_t *body, const char *file)
{
	json_t		*rec = load(file), *hc, *rhc, *v;
	const char	*k;

	json_object_foreach(body, k, v) {
		if (strcmp(k, "HostConfig") == 0 ||
		    strcmp(k, "NetworkingConfig") == 0)
			continue;
		cr_expect(json_equal(v, json_object_get(json_object_get(rec,
		    "Config"), k)) || (json_is_null(v) && json_is_null(
		    json_object_get(json_object_get(rec, "Config"), k))),
		    "%s: Config.%s differs from the recording", file, k);
	}
	hc = json_object_get(body, "HostConfig");
	rhc = json_object_get(rec, "HostConfig");
	json_object_foreach(hc, k, v) {
		/* The echo drops false and empty fields from mounts. */
		if (strcmp(k, "Mounts") == 0)
			continue;
		cr_expect(json_equal(v, json_object_get(rhc, k)),
		    "%s: HostConfig.%s differs from the recording (record "
		    "again: sh regress/unit/spaced-docker/record.sh)", file, k);
	}
	json_decref(rec);
}

Test(builder, bodies_match_the_recording)
{
	struct harden_params	 p;
	const char		*err;
	json_t			*b;

	fx_params(&p);
	b = harden_space_create(&p, &err);
	body_in_recording(b, "space");
	json_decref(b);
	b = harden_gatekeeper_create(&p, &err);
	body_in_recording(b, "gatekeeper");
	json_decref(b);
}

Test(builder, shaped_bodies_verify_clean)
{
	struct harden_params	 p;
	const char		*err = NULL;
	json_t			*b, *i;

	fx_params(&p);
	b = harden_space_create(&p, &err);
	cr_assert_not_null(b, "%s", err);
	i = shape_inspect(b, "/" FX_SPACE);
	expect_only("shaped space", K_SPACE, i, "");
	json_decref(i);
	json_decref(b);

	b = harden_gatekeeper_create(&p, &err);
	cr_assert_not_null(b, "%s", err);
	i = shape_inspect(b, "/" FX_GK);
	expect_only("shaped gatekeeper", K_GK, i, "");
	json_decref(i);
	json_decref(b);
}

/* A changed parameter changes both sides: memory, cpus, argv. */
Test(builder, other_parameters_verify_clean)
{
	static const char *const argv[] = { "/usr/bin/node", "agent.js",
	    "--flag", NULL };
	struct harden_params	 p, q;
	struct harden_report	 r;
	const char		*err;
	json_t			*b, *i;

	fx_params(&p);
	p.hp_meta.sm_memory = 512ULL << 20;
	p.hp_cpus = 1500000000;
	p.hp_argv = argv;
	p.hp_env = NULL;
	b = harden_space_create(&p, &err);
	i = shape_inspect(b, "/" FX_SPACE);
	harden_report_init(&r);
	harden_verify_space(i, &p, &r);
	cr_expect_eq(r.hr_n, 0, "%s", r.hr_n ? r.hr_v[0].hv_check : "");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(b,
	    "HostConfig"), "MemorySwap")), 512 << 20);

	/* and against the fixture's expectations it is not clean */
	fx_params(&q);
	harden_report_init(&r);
	harden_verify_space(i, &q, &r);
	cr_expect(harden_report_has(&r, "memory") &&
	    harden_report_has(&r, "cpu") && harden_report_has(&r, "command") &&
	    harden_report_has(&r, "labels"));
	json_decref(i);
	json_decref(b);
}

static int
json_contains_string(const json_t *a, const char *want)
{
	const json_t	*v;
	size_t		 i;

	json_array_foreach(a, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), want) == 0)
			return 1;
	return 0;
}

/* The space CA bundle's variables: with a bundle, all four; else none. */
Test(builder, ca_variables_with_the_bundle_only)
{
	struct harden_params	 p;
	struct harden_report	 r;
	const char		*err;
	json_t			*b, *i, *env;
	size_t			 k, n;

	fx_params(&p);
	for (n = 0; n < 2; n++) {
		p.hp_runtime_ca = (int)n;
		b = harden_space_create(&p, &err);
		cr_assert_not_null(b, "%s", err);
		env = json_object_get(b, "Env");
		for (k = 0; harden_space_ca_env[k] != NULL; k++)
			cr_expect_eq(json_contains_string(env,
			    harden_space_ca_env[k]), (int)n, "%s with %zu",
			    harden_space_ca_env[k], n);
		/* and the checker takes it */
		i = shape_inspect(b, "/" FX_SPACE);
		harden_report_init(&r);
		harden_verify_space(i, &p, &r);
		cr_expect_eq(r.hr_n, 0, "%s", r.hr_n ? r.hr_v[0].hv_check : "");
		json_decref(i);
		json_decref(b);
	}
	cr_assert_eq(k, 4);
}

Test(builder, network_and_volumes)
{
	struct harden_params	 p;
	const char		*err;
	json_t			*b;

	fx_params(&p);
	b = harden_network_create(&p, &err);
	cr_assert(json_is_false(json_object_get(b, "Internal")));
	cr_assert(json_is_false(json_object_get(b, "EnableIPv6")));
	cr_assert(json_is_true(json_object_get(b, "CheckDuplicate")));
	cr_assert_str_eq(json_string_value(json_object_get(b, "Name")), FX_NET);
	json_decref(b);
	b = harden_volume_create(&p, ROLE_SOCKET, &err);
	cr_assert_str_eq(json_string_value(json_object_get(b, "Name")),
	    FX_SOCK);
	cr_assert_eq(json_object_size(json_object_get(b, "DriverOpts")), 0);
	json_decref(b);
	cr_assert_null(harden_volume_create(&p, ROLE_SPACE, &err));
	b = harden_runtime_volume_create(&p, &err);
	cr_assert_str_eq(json_string_value(json_object_get(b, "Name")),
	    FX_RUNTIME);
	json_decref(b);
}

Test(builder, refuses_bad_parameters)
{
	static const char *const secret[] = { "GITHUB_TOKEN=x", NULL };
	static const char *const apikey[] = { "openai_api_key=x", NULL };
	static const char *const ours[] = { "http_proxy=http://evil:1", NULL };
	static const char *const ca[] = { "SSL_CERT_FILE=/tmp/evil.pem", NULL };
	static const char *const badname[] = { "A-B=1", NULL };
	static const char *const noeq[] = { "A", NULL };
	static const char *const empty[] = { NULL };
	static const char *const ctl[] = { "/bin/x", "a\nb", NULL };
	static const char *const shell[] = { "CMD-SHELL", "true", NULL };
	struct harden_params	 p;
	const char		*err;
	json_t			*b;

#define REFUSED(field, value) do {					\
	fx_params(&p);							\
	p.field = value;						\
	err = NULL;							\
	cr_expect_null(harden_space_create(&p, &err), #field);		\
	cr_expect_not_null(err, #field);				\
} while (0)
	REFUSED(hp_env, secret);
	REFUSED(hp_env, apikey);
	REFUSED(hp_env, ours);
	REFUSED(hp_env, ca);
	REFUSED(hp_env, badname);
	REFUSED(hp_env, noeq);
	REFUSED(hp_argv, empty);
	REFUSED(hp_argv, ctl);
	REFUSED(hp_argv, NULL);
	REFUSED(hp_health, shell);
	REFUSED(hp_gk_health, NULL);
	REFUSED(hp_gk_argv, empty);
	/* the hosts file: an absolute, plain path the engine binds as is */
	REFUSED(hp_hosts, NULL);
	REFUSED(hp_hosts, "");
	REFUSED(hp_hosts, "etc/hosts");
	REFUSED(hp_hosts, "/usr/../etc/shadow");
	REFUSED(hp_hosts, "/usr/libexec/spaced/..");
	REFUSED(hp_hosts, "/usr/./hosts");
	REFUSED(hp_hosts, "/usr//hosts");
	REFUSED(hp_hosts, "/usr/hosts/");
	REFUSED(hp_hosts, "/a b");
	REFUSED(hp_hosts, "/a:/etc/passwd");
	/* control: a name that only begins with dots is a name */
	fx_params(&p);
	p.hp_hosts = "/usr/..hosts/.x";
	b = harden_space_create(&p, &err);
	cr_expect_not_null(b, "%s", err);
	json_decref(b);
	REFUSED(hp_space_image, "");
	REFUSED(hp_space_image, "a b");
	REFUSED(hp_gk_image, NULL);
	REFUSED(hp_cpus, 0);
	REFUSED(hp_meta.sm_memory, 1 << 20);
#undef REFUSED
	fx_params(&p);
	strlcpy(p.hp_meta.sm_id, "../../../etc", sizeof(p.hp_meta.sm_id));
	cr_expect_null(harden_gatekeeper_create(&p, &err));
	fx_params(&p);
	p.hp_runtime_key[0] = 'X';
	cr_expect_null(harden_space_create(&p, &err));
	cr_assert(harden_env_secret("Session_ID=1"));
	cr_assert_not(harden_env_secret("LANG=C.UTF-8"));
	/* git's author of a commit: the profile's exception (agent.c) */
	cr_assert_not(harden_env_secret("GIT_AUTHOR_NAME=Agent"));
	cr_assert(harden_env_secret("GIT_AUTH_TOKEN=x"));
}
