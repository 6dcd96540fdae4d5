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
 * The tools volume's pure parts: the marker rule (42 and only 42 is
 * "no marker"; any other failure keeps the volume), the tools labels,
 * and the one-shots' builder against their checker.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "worker-docker/docker_harden_tools.h"
#include "worker-docker/docker_tools.h"
#include "worker-docker/tools_prune.h"
#include "labels.h"
#include "worker_harness.h"

#define KEY	"0123456789abcdef"
#define RT_KEY	"fedcba9876543210"
#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define VOL	"spaced-tools-0123456789abcdef0123456789abcdef-1000-" KEY

static enum tools_verdict
v(int exited, int code, const char *out, int trunc)
{
	return tools_marker_verdict(exited, code, (const uint8_t *)out,
	    strlen(out), trunc, KEY);
}

Test(tools_verdict, the_rule)
{
	static const int	 others[] = { 1, 2, 41, 43, 126, 127, 128, 137,
	    255, -1, 256 + 42, -42 };
	size_t			 i;

	cr_assert_eq(v(1, 0, KEY, 0), TOOLS_VERDICT_FILLED);
	cr_assert_eq(v(1, 42, "", 0), TOOLS_VERDICT_ABSENT);
	cr_assert_eq(v(1, 42, KEY, 0), TOOLS_VERDICT_ABSENT);
	cr_assert_eq(v(1, 0, "", 0), TOOLS_VERDICT_MISMATCH);
	cr_assert_eq(v(1, 0, KEY "\n", 0), TOOLS_VERDICT_MISMATCH);
	cr_assert_eq(v(1, 0, "fedcba9876543210", 0), TOOLS_VERDICT_MISMATCH);
	cr_assert_eq(v(1, 0, "0123456789abcde", 0), TOOLS_VERDICT_MISMATCH);
	cr_assert_eq(v(1, 0, KEY, 1), TOOLS_VERDICT_MISMATCH);
	/* Every other exit, and no exit code at all, keeps the volume. */
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		cr_assert_eq(v(1, others[i], KEY, 0), TOOLS_VERDICT_REJECT,
		    "exit %d", others[i]);
	cr_assert_eq(v(0, 42, "", 0), TOOLS_VERDICT_REJECT);
	cr_assert_eq(v(0, 0, KEY, 0), TOOLS_VERDICT_REJECT);
	cr_assert_eq(tools_marker_verdict(1, 0, (const uint8_t *)KEY, 16, 0,
	    "not a key"), TOOLS_VERDICT_MISMATCH);
}

Test(tools_labels, build_and_check)
{
	json_t		*l;
	char		 found[TOOLS_LABEL_KEY_LEN + 1];

	l = tools_labels_build(OWNER, TOOLS_ROLE_VOLUME, KEY, "x 1.0",
	    "2026-01-31T12:00:00Z");
	cr_assert_not_null(l);
	cr_assert_null(tools_labels_check(l, OWNER, TOOLS_ROLE_VOLUME, KEY,
	    NULL));
	cr_assert_null(tools_labels_check(l, OWNER, TOOLS_ROLE_VOLUME, NULL,
	    found));
	cr_assert_str_eq(found, KEY);
	cr_assert_str_eq(tools_labels_check(l, OWNER "0", TOOLS_ROLE_VOLUME,
	    KEY, NULL), "other owner");
	cr_assert_str_eq(tools_labels_check(l, OWNER, TOOLS_ROLE_FILL, KEY,
	    NULL), "other role");
	cr_assert_str_eq(tools_labels_check(l, OWNER, TOOLS_ROLE_VOLUME,
	    "fedcba9876543210", NULL), "other key");
	cr_assert_str_eq(tools_labels_check(NULL, OWNER, TOOLS_ROLE_VOLUME,
	    KEY, NULL), "no labels");
	json_object_set_new(l, LABEL_TOOLS_KEY, json_string("ABCDEF0123456789"));
	cr_assert_str_eq(tools_labels_check(l, OWNER, TOOLS_ROLE_VOLUME, NULL,
	    found), "other key");
	json_object_set_new(l, LABEL_MARKER, json_string("yes"));
	cr_assert_str_eq(tools_labels_check(l, OWNER, TOOLS_ROLE_VOLUME, NULL,
	    NULL), "not a space");
	json_decref(l);
	cr_assert_null(tools_labels_build(OWNER, TOOLS_ROLE_VOLUME, "short",
	    "x", "2026-01-31T12:00:00Z"));
	cr_assert_null(tools_labels_build(OWNER, TOOLS_ROLE_VOLUME, KEY,
	    "new\nline", "2026-01-31T12:00:00Z"));
	cr_assert_null(tools_labels_build("nobody", TOOLS_ROLE_VOLUME, KEY,
	    "x", "2026-01-31T12:00:00Z"));
}

static void
params(struct harden_tools_params *p, enum tools_role r)
{
	memset(p, 0, sizeof(*p));
	p->tp_role = r;
	p->tp_image = "spaced-space:latest";
	p->tp_volume = VOL;
	p->tp_owner = OWNER;
	p->tp_key = KEY;
	p->tp_description = "x 1.0";
	p->tp_created = "2026-01-31T12:00:00Z";
	p->tp_uid = 2000000123;
	p->tp_runtime_key = RT_KEY;
}

/*
 * The inspect an engine gives back for the body, as far as it is read:
 * Path and Args from Entrypoint and Cmd, Mounts from HostConfig's, each
 * RW as asked (rw -1) or all RW (1) or all read-only (0).
 */
static json_t *
inspect_of(const json_t *body, int rw)
{
	json_t		*env, *c, *args, *mounts, *m;
	size_t		 i;

	env = json_array();
	json_array_append_new(env, json_string("PATH=/usr/bin:/bin"));
	if (json_object_get(body, "Env") != NULL)
		json_array_extend(env, json_object_get(body, "Env"));
	args = json_deep_copy(json_object_get(body, "Cmd"));
	mounts = json_array();
	json_array_foreach(json_object_get(json_object_get(body, "HostConfig"),
	    "Mounts"), i, m)
		json_array_append_new(mounts, json_pack("{s:s, s:O, s:O, s:b}",
		    "Type", "volume", "Name", json_object_get(m, "Source"),
		    "Destination", json_object_get(m, "Target"), "RW", rw == -1 ?
		    !json_is_true(json_object_get(m, "ReadOnly")) : rw));
	c = json_pack("{s:O, s:o, s:{s:O, s:O, s:O, s:o, s:O}, s:O, s:o}",
	    "Path", json_array_get(json_object_get(body, "Entrypoint"), 0),
	    "Args", args,
	    "Config", "Image", json_object_get(body, "Image"),
	    "User", json_object_get(body, "User"),
	    "Labels", json_object_get(body, "Labels"), "Env", env,
	    "NetworkDisabled", json_object_get(body, "NetworkDisabled"),
	    "HostConfig", json_object_get(body, "HostConfig"),
	    "Mounts", mounts);
	cr_assert_not_null(c);
	return c;
}

static size_t
violations(const json_t *c, const struct harden_tools_params *p,
    const char *want)
{
	struct harden_report	 r;

	harden_report_init(&r);
	harden_verify_tools(c, p, &r);
	if (want != NULL)
		cr_assert(harden_report_has(&r, want), "%s not reported", want);
	return r.hr_n;
}

Test(tools_harden, builder_and_checker)
{
	struct harden_tools_params	 p;
	const char			*why = NULL;
	json_t				*b, *c, *hc;
	char				 name[SPACE_RESOURCE_MAX];

	params(&p, TOOLS_ROLE_FILL);
	cr_assert_not_null(b = harden_tools_create(&p, &why), "%s", why);
	hc = json_object_get(b, "HostConfig");
	/* No network: its way out is the relay to its own gatekeeper. */
	cr_assert_str_eq(json_string_value(json_object_get(hc, "NetworkMode")),
	    "none");
	cr_assert(json_is_true(json_object_get(b, "NetworkDisabled")));
	/*
	 * The relay from the runtime volume, read-only, as in a space:
	 * never from the socket volume its gatekeeper writes.
	 */
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(b,
	    "Entrypoint"), 0)), "/opt/spaced/spaced-relay");
	cr_assert_neq(strncmp(TOOLS_RELAY, TOOLS_SOCKET_DIR "/",
	    strlen(TOOLS_SOCKET_DIR "/")), 0);
	{
		json_t	*m;
		size_t	 i, nrt = 0;

		json_array_foreach(json_object_get(hc, "Mounts"), i, m) {
			if (strcmp(json_string_value(json_object_get(m,
			    "Target")), "/opt/spaced") != 0)
				continue;
			nrt++;
			cr_assert_str_eq(json_string_value(json_object_get(m,
			    "Source")), "spaced-runtime-" RT_KEY);
			cr_assert(json_is_true(json_object_get(m,
			    "ReadOnly")));
		}
		cr_assert_eq(nrt, 1, "the runtime volume, once");
	}
	/* No key of a relay: no filler. */
	p.tp_runtime_key = NULL;
	cr_assert_null(harden_tools_create(&p, &why));
	p.tp_runtime_key = "short";
	cr_assert_null(harden_tools_create(&p, &why));
	p.tp_runtime_key = RT_KEY;
	cr_assert_eq(json_integer_value(json_object_get(hc, "Memory")),
	    2LL << 30);
	cr_assert_eq(harden_tools_name(&p, name, sizeof(name)), 0);
	cr_assert_str_eq(name, VOL "-fill");
	/* The filler's uid of the range, never root (issue 27). */
	cr_assert_str_eq(json_string_value(json_object_get(b, "User")),
	    "2000000123:2000000123");
	c = inspect_of(b, -1);
	cr_assert_eq(violations(c, &p, NULL), 0);
	json_object_set_new(json_object_get(c, "Config"), "User",
	    json_string("0:0"));
	violations(c, &p, "tools_user");
	json_decref(c);
	/* Back on the bridge, as before issue 27: named. */
	c = inspect_of(b, -1);
	json_object_set_new(json_object_get(c, "HostConfig"), "NetworkMode",
	    json_string("bridge"));
	violations(c, &p, "tools_network");
	json_decref(c);
	c = inspect_of(b, -1);
	json_object_del(json_object_get(c, "Config"), "NetworkDisabled");
	violations(c, &p, "tools_network");
	json_decref(c);
	/* Its socket volume writable: named. */
	c = inspect_of(b, 1);
	violations(c, &p, "tools_mounts");
	json_decref(c);
	/* The runtime volume writable, or missing: named. */
	{
		json_t	*m;
		size_t	 i;

		c = inspect_of(b, -1);
		json_array_foreach(json_object_get(c, "Mounts"), i, m)
			if (strcmp(json_string_value(json_object_get(m,
			    "Destination")), "/opt/spaced") == 0)
				json_object_set_new(m, "RW", json_true());
		violations(c, &p, "tools_mounts");
		json_decref(c);
		c = inspect_of(b, -1);
		json_array_foreach(json_object_get(c, "Mounts"), i, m)
			if (strcmp(json_string_value(json_object_get(m,
			    "Destination")), "/opt/spaced") == 0)
				break;
		json_array_remove(json_object_get(c, "Mounts"), i);
		violations(c, &p, "tools_mounts");
		json_decref(c);
	}
	c = inspect_of(b, -1);
	/* Each dropped setting is named. */
	json_object_set_new(json_object_get(c, "HostConfig"), "CapDrop",
	    json_array());
	violations(c, &p, "tools_cap_drop");
	json_object_set_new(json_object_get(c, "HostConfig"),
	    "ReadonlyRootfs", json_false());
	violations(c, &p, "tools_readonly_rootfs");
	json_object_set_new(json_object_get(c, "HostConfig"), "MemorySwap",
	    json_integer(0));
	violations(c, &p, "tools_memory_swap");
	json_object_set_new(json_object_get(c, "HostConfig"), "Tmpfs",
	    json_object());
	violations(c, &p, "tools_tmpfs");
	json_decref(c);

	/* The check one-shot: no network, read-only, the space user. */
	params(&p, TOOLS_ROLE_CHECK);
	json_decref(b);
	cr_assert_not_null(b = harden_tools_create(&p, &why));
	c = inspect_of(b, 0);
	cr_assert_eq(violations(c, &p, NULL), 0);
	json_decref(c);
	c = inspect_of(b, 1);
	violations(c, &p, "tools_mounts");	/* writable */
	json_decref(c);
	c = inspect_of(b, 0);
	json_object_set_new(json_object_get(c, "HostConfig"), "NetworkMode",
	    json_string("bridge"));
	violations(c, &p, "tools_network");
	json_object_set_new(json_object_get(c, "Config"), "User",
	    json_string("0:0"));
	violations(c, &p, "tools_user");
	json_object_set_new(json_object_get(json_object_get(c, "Config"),
	    "Labels"), LABEL_OWNER, json_string("x:1"));
	violations(c, &p, "tools_labels");
	json_decref(c);
	json_decref(b);
}

/* The filler's uid: of the range, by the key, never root (issue 27). */
Test(tools_harden, fill_uid)
{
	struct harden_tools_params	 p;
	const char			*why = NULL;

	/* 0x0123456789ab = 1250999896491, mod 1000000 = 896491 */
	cr_assert_eq(tools_fill_uid(KEY, 2000000000, 1000000),
	    2000000000 + 1250999896491ULL % 1000000);
	cr_assert_eq(tools_fill_uid(KEY, 2000000000, 0), 0);
	cr_assert_eq(tools_fill_uid("0123", 2000000000, 10), 0);
	cr_assert_eq(tools_fill_uid(NULL, 2000000000, 10), 0);
	params(&p, TOOLS_ROLE_FILL);
	p.tp_uid = 0;
	cr_assert_null(harden_tools_create(&p, &why));
}

/* The filler's gatekeeper: its bridge, the registry alone, its sockets. */
Test(tools_harden, fill_gatekeeper)
{
	struct harden_tools_params	 p;
	const char			*why = NULL;
	json_t				*b, *c, *hc, *cmd;
	char				 name[SPACE_RESOURCE_MAX];

	params(&p, TOOLS_ROLE_FILL_GK);
	p.tp_gk_image = "spaced-gatekeeper:latest";
	cr_assert_not_null(b = harden_tools_create(&p, &why), "%s", why);
	cr_assert_eq(harden_tools_name(&p, name, sizeof(name)), 0);
	cr_assert_str_eq(name, VOL "-fill-gk");
	hc = json_object_get(b, "HostConfig");
	cr_assert_str_eq(json_string_value(json_object_get(hc, "NetworkMode")),
	    VOL "-fill-net");
	cr_assert_str_eq(json_string_value(json_object_get(b, "User")),
	    HARDEN_GK_USER);
	cmd = json_object_get(b, "Cmd");
	cr_assert_str_eq(json_string_value(json_array_get(cmd, 0)), "-a");
	cr_assert_str_eq(json_string_value(json_array_get(cmd, 1)),
	    TOOLS_REGISTRY);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(b,
	    "Labels"), LABEL_ROLE)), "tools-fill-gatekeeper");
	c = inspect_of(b, -1);
	cr_assert_eq(violations(c, &p, NULL), 0);
	json_decref(c);
	c = inspect_of(b, -1);
	json_array_set_new(json_object_get(c, "Args"), 1,
	    json_string("example.com"));
	violations(c, &p, "tools_command");
	json_decref(c);
	c = inspect_of(b, 0);
	violations(c, &p, "tools_mounts");	/* its sockets read-only */
	json_decref(c);
	json_decref(b);
	/* No image of its own: refused. */
	p.tp_gk_image = NULL;
	cr_assert_null(harden_tools_create(&p, &why));

	/* Its bridge from the pool, its socket volume: the owner's labels. */
	params(&p, TOOLS_ROLE_FILL_NET);
	p.tp_subnet = "10.213.0.8/29";
	cr_assert_not_null(b = harden_tools_network_create(&p, &why), "%s",
	    why);
	cr_assert_str_eq(json_string_value(json_object_get(b, "Name")),
	    VOL "-fill-net");
	cr_assert(json_is_false(json_object_get(b, "Internal")));
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(
	    json_object_get(json_object_get(b, "IPAM"), "Config"), 0),
	    "Subnet")), "10.213.0.8/29");
	cr_assert_null(tools_labels_check(json_object_get(b, "Labels"), OWNER,
	    TOOLS_ROLE_FILL_NET, KEY, NULL));
	json_decref(b);
	params(&p, TOOLS_ROLE_FILL_SOCK);
	cr_assert_not_null(b = harden_tools_volume_create(&p, &why));
	cr_assert_str_eq(json_string_value(json_object_get(b, "Name")),
	    VOL "-fill-sock");
	cr_assert_null(tools_labels_check(json_object_get(b, "Labels"), OWNER,
	    TOOLS_ROLE_FILL_SOCK, KEY, NULL));
	json_decref(b);
}

/* --- the prune: what it takes, and what a create's ensure keeps ------ */

#define VOL_B	"spaced-tools-0123456789abcdef0123456789abcdef-1000-" \
		"00000000000000b1"
#define VOL_OLD	"spaced-tools-0123456789abcdef0123456789abcdef-1000-" \
		"00000000000000a1"

/* A GET /volumes answer: three of OWNER's tools volumes, keys as named. */
static size_t
pruned(const char *keep, const struct tools_keep *tk,
    char (*names)[SPACE_RESOURCE_MAX])
{
	char			 body[2048];

	snprintf(body, sizeof(body), "{\"Volumes\": ["
	    "{\"Name\": \"%s\", \"Labels\": {\"spaced.space\": \"true\", "
	    "\"spaced.space.owner\": \"%s\", \"spaced.space.role\": \"tools\", "
	    "\"spaced.tools.key\": \"%s\"}},"
	    "{\"Name\": \"%s\", \"Labels\": {\"spaced.space\": \"true\", "
	    "\"spaced.space.owner\": \"%s\", \"spaced.space.role\": \"tools\", "
	    "\"spaced.tools.key\": \"00000000000000b1\"}},"
	    "{\"Name\": \"%s\", \"Labels\": {\"spaced.space\": \"true\", "
	    "\"spaced.space.owner\": \"%s\", \"spaced.space.role\": \"tools\", "
	    "\"spaced.tools.key\": \"00000000000000a1\"}}]}",
	    VOL, OWNER, KEY, VOL_B, OWNER, VOL_OLD, OWNER);
	return tools_prune_list(wh_answer(200, body), OWNER, keep, tk, names,
	    8);
}

/*
 * A fill of profile B prunes neither its own volume nor the current
 * one of profile A (a person who uses both in turn fills each once);
 * a key no profile has any more goes.
 */
Test(tools_prune, each_profiles_current_kept)
{
	struct tools_keep	 tk;
	char			 names[8][SPACE_RESOURCE_MAX];

	memset(&tk, 0, sizeof(tk));
	strlcpy(tk.tk_volume[0], VOL, sizeof(tk.tk_volume[0]));
	strlcpy(tk.tk_volume[1], VOL_B, sizeof(tk.tk_volume[1]));
	cr_assert_eq(pruned(VOL_B, &tk, names), 1);
	cr_assert_str_eq(names[0], VOL_OLD);
	/* The control: with no profile's list, the old rule's three. */
	memset(&tk, 0, sizeof(tk));
	cr_assert_eq(pruned(VOL_B, &tk, names), 2);
	cr_assert_eq(tools_keep_has(&tk, ""), 0);
	memset(tk.tk_volume[3], 'x', sizeof(tk.tk_volume[3]));
	cr_assert_eq(tools_keep_valid(&tk), -1);
}

/*
 * A create's tools kept (tools_prune.h): from the ensure's answer, and
 * past TOOLS_KEEP_UNCLAIMED_S once its create began; one no create
 * claimed is let go after it, and spaced's cancel lets go at once.
 */
Test(tools_prune, kept_bounded)
{
	struct tools_keep	 tk;
	char			 names[8][SPACE_RESOURCE_MAX];
	time_t			 t = tools_clock();

	memset(&tk, 0, sizeof(tk));
	tools_keep(VOL_OLD, 7, t);
	cr_assert(tools_kept(VOL_OLD, t));
	cr_assert_eq(pruned(VOL, &tk, names), 1);	/* only VOL_B */
	cr_assert_str_eq(names[0], VOL_B);
	/* Unclaimed: kept up to the bound, then let go. */
	cr_assert(tools_kept(VOL_OLD, t + TOOLS_KEEP_UNCLAIMED_S - 1));
	cr_assert_not(tools_kept(VOL_OLD, t + TOOLS_KEEP_UNCLAIMED_S));
	cr_assert_not(tools_kept(VOL_OLD, t));	/* gone for good */
	/* Claimed by its create: kept however long, till its end. */
	tools_keep(VOL_OLD, 8, t);
	tools_claim(8);
	cr_assert(tools_kept(VOL_OLD, t + 100 * TOOLS_KEEP_UNCLAIMED_S));
	tools_unkeep(8);
	cr_assert_not(tools_kept(VOL_OLD, t));
	/* spaced's cancel of the peer (main.c) lets go of an unclaimed one. */
	tools_keep(VOL_OLD, 9, t);
	tools_unkeep(9);
	cr_assert_not(tools_kept(VOL_OLD, t));
}
