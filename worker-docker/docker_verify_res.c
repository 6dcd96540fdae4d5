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
 * The report of the checkers and the JSON readers they share, and the
 * checks of the space's network and volumes and of create answers.
 * Pure: const input, no I/O, no globals.
 */

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "docker_harden.h"
#include "docker_verify.h"

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

void
harden_report_add(struct harden_report *r, const char *check,
    const char *message)
{
	verify_add(r, "", check, "%s", message);
}

/* Each name once; the first message for it stays. */
void
verify_add(struct harden_report *r, const char *prefix, const char *check,
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

const char *
verify_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

int
verify_streq(const json_t *o, const char *key, const char *want)
{
	const char	*v = verify_str(o, key);

	return v != NULL && strcmp(v, want) == 0;
}

/* An integer field equal to want; a missing or other type is not. */
int
verify_inteq(const json_t *o, const char *key, json_int_t want)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) == want;
}

int
verify_is_true(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* Missing, null, false, "", 0, [] and {} are empty. */
int
verify_empty(const json_t *v)
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

void
verify_labels(const json_t *labels, const struct harden_params *p,
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
		verify_add(r, prefix, check, "%s", why);
}

int
verify_params_usable(const struct harden_params *p, const char *pf,
    struct harden_report *r)
{
	const char	*why;

	if ((why = harden_params_check(p)) != NULL) {
		verify_add(r, pf, "inspect", "cannot check: %s", why);
		return 0;
	}
	return 1;
}

/* With a pool: exactly one IPv4 subnet, one slot of it. */
static void
check_subnet(const json_t *n, const struct harden_params *p,
    struct harden_report *r)
{
	const json_t	*c;

	if (p->hp_pool.np_pool_prefix == 0)
		return;
	c = json_object_get(json_object_get(n, "IPAM"), "Config");
	if (!json_is_array(c) || json_array_size(c) != 1 ||
	    !net_pool_holds(&p->hp_pool, json_string_value(json_object_get(
	    json_array_get(c, 0), "Subnet"))))
		verify_add(r, "", "network_subnet", "not a subnet of the pool");
}

void
harden_verify_network(const json_t *n, const struct harden_params *p,
    struct harden_report *r)
{
	char	 net[SPACE_RESOURCE_MAX];

	if (!verify_params_usable(p, "", r))
		return;
	if (!json_is_object(n)) {
		verify_add(r, "", "inspect", "not a network's inspect");
		return;
	}
	(void)space_resource_name(net, sizeof(net), p->hp_meta.sm_id,
	    ROLE_NETWORK);
	if (!verify_streq(n, "Name", net))
		verify_add(r, "", "network_name", "not %s", net);
	verify_labels(json_object_get(n, "Labels"), p, ROLE_NETWORK, "",
	    "network_labels", r);
	if (!verify_streq(n, "Driver", "bridge"))
		verify_add(r, "", "network_driver", "not a bridge");
	if (!json_is_false(json_object_get(n, "Internal")))
		verify_add(r, "", "network_internal", "internal: no way out");
	if (!json_is_false(json_object_get(n, "EnableIPv6")))
		verify_add(r, "", "network_ipv6", "IPv6 on");
	if (!verify_streq(n, "Scope", "local") ||
	    !json_is_false(json_object_get(n, "Attachable")) ||
	    !json_is_false(json_object_get(n, "Ingress")))
		verify_add(r, "", "network_scope",
		    "not a local bridge of its own");
	check_subnet(n, p, r);
}

static void
check_volume(const json_t *vol, const char *name, struct harden_report *r)
{
	if (!verify_streq(vol, "Name", name))
		verify_add(r, "", "volume_name", "not %.60s", name);
	if (!verify_streq(vol, "Driver", "local"))
		verify_add(r, "", "volume_driver", "not local");
	if (!verify_empty(json_object_get(vol, "Options")))
		verify_add(r, "", "volume_options", "driver options");
}

void
harden_verify_volume(const json_t *vol, const struct harden_params *p,
    enum space_role role, struct harden_report *r)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (!verify_params_usable(p, "", r))
		return;
	if (!json_is_object(vol) || (role != ROLE_SOCKET &&
	    role != ROLE_WORK && role != ROLE_HOME)) {
		verify_add(r, "", "inspect", "not a volume's inspect");
		return;
	}
	(void)space_resource_name(name, sizeof(name), p->hp_meta.sm_id, role);
	check_volume(vol, name, r);
	verify_labels(json_object_get(vol, "Labels"), p, role, "",
	    "volume_labels", r);
}

void
harden_verify_runtime_volume(const json_t *vol, const struct harden_params *p,
    struct harden_report *r)
{
	char		 name[SPACE_RESOURCE_MAX];
	const char	*why;

	if (!verify_params_usable(p, "", r))
		return;
	if (!json_is_object(vol)) {
		verify_add(r, "", "inspect", "not a volume's inspect");
		return;
	}
	(void)runtime_volume_name(name, sizeof(name), p->hp_runtime_key);
	check_volume(vol, name, r);
	if ((why = runtime_labels_check(json_object_get(vol, "Labels"),
	    NULL, p->hp_runtime_key)) != NULL)
		verify_add(r, "", "volume_labels", "%s", why);
}

void
harden_verify_created(const json_t *a, struct harden_report *r)
{
	const json_t	*w;
	const char	*id;
	size_t		 i;

	if (!json_is_object(a)) {
		verify_add(r, "", "create_answer", "not an object");
		return;
	}
	/* Containers: Warnings[]; networks: Warning "". */
	w = json_object_get(a, "Warnings");
	if (!verify_empty(w))
		verify_add(r, "", "create_warnings", "%.80s",
		    json_is_array(w) && json_is_string(json_array_get(w, 0)) ?
		    json_string_value(json_array_get(w, 0)) : "warnings");
	w = json_object_get(a, "Warning");
	if (!verify_empty(w))
		verify_add(r, "", "create_warnings", "%.80s",
		    json_is_string(w) ? json_string_value(w) : "warning");
	/* A volume answers with itself: a Name, no Id. */
	if ((id = verify_str(a, "Id")) != NULL) {
		for (i = 0; id[i] != '\0'; i++)
			if (!isxdigit((unsigned char)id[i]))
				break;
		if (i != 64 || id[i] != '\0')
			verify_add(r, "", "create_answer", "bad Id");
	} else if (verify_str(a, "Name") == NULL ||
	    verify_str(a, "Driver") == NULL)
		verify_add(r, "", "create_answer", "no Id");
}
