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
 * Labels and names of a space's resources: see labels.h.
 */

#include <sys/types.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"

static const struct {
	const char	*label;
	const char	*suffix;
} roles[ROLE_MAX] = {
	[ROLE_SPACE] =		{ "space",	"space" },
	[ROLE_GATEKEEPER] =	{ "gatekeeper",	"gatekeeper" },
	[ROLE_SETUP] =		{ "setup",	"setup" },
	[ROLE_NETWORK] =	{ "network",	"net" },
	[ROLE_SOCKET] =		{ "socket",	"sock" },
	[ROLE_WORK] =		{ "work",	"work" },
	[ROLE_HOME] =		{ "home",	"home" },
};

#define RUNTIME_ROLE	"runtime"

const char *
space_role_label(enum space_role r)
{
	if ((int)r < 0 || r >= ROLE_MAX)
		return NULL;
	return roles[r].label;
}

const char *
space_role_suffix(enum space_role r)
{
	if ((int)r < 0 || r >= ROLE_MAX)
		return NULL;
	return roles[r].suffix;
}

int
space_role_parse(const char *s)
{
	int	 i;

	if (s == NULL)
		return -1;
	for (i = 0; i < ROLE_MAX; i++)
		if (strcmp(s, roles[i].label) == 0)
			return i;
	return -1;
}

/* Exactly len (min..max) lowercase hex characters and nothing else. */
static int
hex_valid(const char *s, size_t min, size_t max)
{
	size_t	 n;

	if (s == NULL)
		return 0;
	for (n = 0; s[n] != '\0'; n++) {
		if (n >= max)
			return 0;
		if (!((s[n] >= '0' && s[n] <= '9') ||
		    (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	}
	return n >= min;
}

void
space_id_new(char *id)
{
	static const char	 hex[] = "0123456789abcdef";
	uint8_t			 b[SPACE_ID_LEN / 2];
	size_t			 i;

	arc4random_buf(b, sizeof(b));
	for (i = 0; i < sizeof(b); i++) {
		id[2 * i] = hex[b[i] >> 4];
		id[2 * i + 1] = hex[b[i] & 0xf];
	}
	id[SPACE_ID_LEN] = '\0';
}

int
space_id_valid(const char *s)
{
	return hex_valid(s, SPACE_ID_LEN, SPACE_ID_LEN);
}

int
install_id_valid(const char *s)
{
	return hex_valid(s, INSTALL_ID_MIN, INSTALL_ID_MAX);
}

int
space_project_valid(const char *s)
{
	return hex_valid(s, SPACE_PROJECT_LEN, SPACE_PROJECT_LEN);
}

int
runtime_key_valid(const char *s)
{
	return hex_valid(s, RUNTIME_KEY_LEN, RUNTIME_KEY_LEN);
}

/* "2026-01-31T12:00:00Z": the shape, and fields in their ranges. */
int
space_created_valid(const char *s)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:ddZ";
	int			 mo, d, h, mi, se;
	size_t			 i;

	if (s == NULL || strlen(s) != SPACE_CREATED_LEN)
		return 0;
	for (i = 0; i < SPACE_CREATED_LEN; i++) {
		if (shape[i] == 'd') {
			if (s[i] < '0' || s[i] > '9')
				return 0;
		} else if (s[i] != shape[i])
			return 0;
	}
#define F2(o)	((s[o] - '0') * 10 + (s[(o) + 1] - '0'))
	mo = F2(5);
	d = F2(8);
	h = F2(11);
	mi = F2(14);
	se = F2(17);
#undef F2
	return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 &&
	    mi <= 59 && se <= 60;
}

/*
 * The length of the well-formed UTF-8 character at p, of the avail bytes
 * there (RFC 3629: no overlong form, no surrogate, nothing past
 * U+10FFFF), or 0.
 */
size_t
utf8_char_len(const unsigned char *p, size_t avail)
{
	size_t	 n, i;

	if (avail == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/*
 * A name is shown on terminals and in JSON: bytes that are not UTF-8
 * would make every list of its owner unreadable, and a C1 control
 * (U+0080 to U+009F) is read by terminals as an escape.
 */
int
space_name_valid(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n, len, all;

	if (s == NULL || *s == '\0')
		return 0;
	all = strnlen(s, SPACE_NAME_MAX + 1);
	for (n = 0; n < all; n += len) {
		if ((len = utf8_char_len(p + n, all - n)) == 0 ||
		    n + len > SPACE_NAME_MAX || p[n] < 0x20 || p[n] == 0x7f ||
		    (p[n] == 0xc2 && p[n + 1] < 0xa0))
			return 0;
	}
	return 1;
}

int
space_owner_fmt(char *buf, size_t len, const char *install, uid_t uid)
{
	int	 n;

	if (!install_id_valid(install))
		return -1;
	n = snprintf(buf, len, "%s:%" PRIu32, install, (uint32_t)uid);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
space_owner_valid(const char *s)
{
	char		 install[INSTALL_ID_MAX + 1];
	const char	*colon, *u;
	uint64_t	 v = 0;

	if (s == NULL || (colon = strchr(s, ':')) == NULL ||
	    (size_t)(colon - s) > INSTALL_ID_MAX)
		return 0;
	memcpy(install, s, colon - s);
	install[colon - s] = '\0';
	if (!install_id_valid(install))
		return 0;
	u = colon + 1;
	if (*u == '\0' || (u[0] == '0' && u[1] != '\0'))
		return 0;
	for (; *u != '\0'; u++) {
		if (*u < '0' || *u > '9')
			return 0;
		v = v * 10 + (*u - '0');
		if (v > UINT32_MAX)
			return 0;
	}
	return 1;
}

/*
 * "spaced-space-<id>-<suffix>" into buf.  -1 when the id is not valid
 * (a user's id never reaches a name unchecked) or buf is short.
 */
int
space_resource_name(char *buf, size_t len, const char *id, enum space_role r)
{
	int	 n;

	if (!space_id_valid(id) || space_role_suffix(r) == NULL)
		return -1;
	n = snprintf(buf, len, "spaced-space-%s-%s", id, space_role_suffix(r));
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
space_aside_name(char *buf, size_t len, const char *id)
{
	int	 n;

	if (!space_id_valid(id))
		return -1;
	n = snprintf(buf, len, "spaced-space-%s-%s" SPACE_ASIDE_SUFFIX, id,
	    space_role_suffix(ROLE_SPACE));
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
runtime_volume_name(char *buf, size_t len, const char *key)
{
	int	 n;

	if (!runtime_key_valid(key))
		return -1;
	n = snprintf(buf, len, RUNTIME_VOLUME_PREFIX "%s", key);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
space_meta_valid(const struct space_meta *m)
{
	return space_id_valid(m->sm_id) && space_owner_valid(m->sm_owner) &&
	    space_project_valid(m->sm_project) &&
	    space_name_valid(m->sm_name) &&
	    space_created_valid(m->sm_created) && m->sm_memory > 0;
}

/*
 * The Labels object for a resource of role r: all eight labels.  NULL
 * when m is not valid or on allocation failure.
 */
json_t *
space_labels_build(const struct space_meta *m, enum space_role r)
{
	json_t	*o;
	char	 mem[24];

	if (!space_meta_valid(m) || space_role_label(r) == NULL)
		return NULL;
	(void)snprintf(mem, sizeof(mem), "%" PRIu64, m->sm_memory);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
	    LABEL_MARKER, "true", LABEL_ID, m->sm_id,
	    LABEL_ROLE, space_role_label(r), LABEL_OWNER, m->sm_owner,
	    LABEL_PROJECT, m->sm_project, LABEL_NAME, m->sm_name,
	    LABEL_CREATED, m->sm_created, LABEL_MEMORY, mem);
	return o;
}

json_t *
runtime_labels_build(const char *owner, const char *key)
{
	if (!space_owner_valid(owner) || !runtime_key_valid(key))
		return NULL;
	return json_pack("{s:s, s:s, s:s, s:s}", LABEL_MARKER, "true",
	    LABEL_OWNER, owner, LABEL_ROLE, RUNTIME_ROLE,
	    LABEL_RUNTIME_KEY, key);
}

/* The label's value when it is a string, else NULL. */
static const char *
label(const json_t *labels, const char *key)
{
	return json_string_value(json_object_get(labels, key));
}

/* The common part: an object, the marker, the owner. */
static const char *
check_owner(const json_t *labels, const char *owner)
{
	const char	*v;

	if (!json_is_object(labels))
		return "no labels";
	if ((v = label(labels, LABEL_MARKER)) == NULL || strcmp(v, "true") != 0)
		return "not a space";
	/* A NULL or malformed owner of ours matches nothing. */
	if (!space_owner_valid(owner) ||
	    (v = label(labels, LABEL_OWNER)) == NULL || strcmp(v, owner) != 0)
		return "other owner";
	return NULL;
}

/*
 * Does this Labels object (from an inspect) make the resource ours?
 * Demands the marker "true", this owner, a valid id equal to id (when
 * id is not NULL) and role r (when r is not -1).  Returns NULL when
 * ours, or a short reason: "no labels", "not a space", "other owner",
 * "bad id", "other space", "bad role", "other role".
 */
const char *
space_labels_check(const json_t *labels, const char *owner, const char *id,
    int r)
{
	const char	*why, *v;
	int		 role;

	if ((why = check_owner(labels, owner)) != NULL)
		return why;
	v = label(labels, LABEL_ID);
	if (!space_id_valid(v))
		return "bad id";
	if (id != NULL && strcmp(v, id) != 0)
		return "other space";
	if ((role = space_role_parse(label(labels, LABEL_ROLE))) == -1)
		return "bad role";
	if (r != -1 && role != r)
		return "other role";
	return NULL;
}

/* Copies a label that passed its validator into dst. */
static int
take(const json_t *labels, const char *key, int (*valid)(const char *),
    char *dst, size_t dstlen)
{
	const char	*v = label(labels, key);

	if (!valid(v) || strlen(v) >= dstlen)
		return -1;
	if (dst != NULL)
		memcpy(dst, v, strlen(v) + 1);
	return 0;
}

static int
memory_parse(const char *s, uint64_t *out)
{
	uint64_t	 v = 0;

	if (s == NULL || *s == '\0' || (s[0] == '0' && s[1] != '\0') ||
	    strlen(s) > 19)
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (v == 0)
		return -1;
	*out = v;
	return 0;
}

/*
 * Also demands every label valid, and fills m from them (m may be NULL).
 * Reason "bad <label>" when one is missing or malformed.
 */
const char *
space_labels_parse(const json_t *labels, const char *owner, const char *id,
    int r, struct space_meta *m)
{
	struct space_meta	 scratch;
	const char		*why;

	if ((why = space_labels_check(labels, owner, id, r)) != NULL)
		return why;
	if (m == NULL)
		m = &scratch;
	memset(m, 0, sizeof(*m));
	if (take(labels, LABEL_ID, space_id_valid, m->sm_id,
	    sizeof(m->sm_id)) == -1)
		return "bad " LABEL_ID;
	if (take(labels, LABEL_OWNER, space_owner_valid, m->sm_owner,
	    sizeof(m->sm_owner)) == -1)
		return "bad " LABEL_OWNER;
	if (take(labels, LABEL_PROJECT, space_project_valid, m->sm_project,
	    sizeof(m->sm_project)) == -1)
		return "bad " LABEL_PROJECT;
	if (take(labels, LABEL_NAME, space_name_valid, m->sm_name,
	    sizeof(m->sm_name)) == -1)
		return "bad " LABEL_NAME;
	if (take(labels, LABEL_CREATED, space_created_valid, m->sm_created,
	    sizeof(m->sm_created)) == -1)
		return "bad " LABEL_CREATED;
	if (memory_parse(label(labels, LABEL_MEMORY), &m->sm_memory) == -1)
		return "bad " LABEL_MEMORY;
	return NULL;
}

/*
 * The runtime volume: marker, this owner (NULL: any valid one), role
 * "runtime", this key.
 */
const char *
runtime_labels_check(const json_t *labels, const char *owner, const char *key)
{
	const char	*why, *v;

	/*
	 * Any installation on this engine may have filled it: its content
	 * is what the key names, and ensure compares it with ours.
	 */
	if (owner == NULL)
		owner = label(labels, LABEL_OWNER);
	if ((why = check_owner(labels, owner)) != NULL)
		return why;
	if ((v = label(labels, LABEL_ROLE)) == NULL ||
	    strcmp(v, RUNTIME_ROLE) != 0)
		return "other role";
	if (!runtime_key_valid(key) ||
	    (v = label(labels, LABEL_RUNTIME_KEY)) == NULL ||
	    strcmp(v, key) != 0)
		return "other key";
	return NULL;
}

/* --- tools resources -------------------------------------------------- */

static const char *const tools_roles[TOOLS_ROLE_MAX] = {
	"tools", "tools-fill", "tools-check", "tools-fill-gatekeeper",
	"tools-fill-network", "tools-fill-socket"
};

const char *
tools_role_label(enum tools_role r)
{
	if ((int)r < 0 || r >= TOOLS_ROLE_MAX)
		return NULL;
	return tools_roles[r];
}

int
tools_label_key_valid(const char *s)
{
	return s != NULL && hex_valid(s, TOOLS_LABEL_KEY_LEN,
	    TOOLS_LABEL_KEY_LEN);
}

static int
tools_desc_valid(const char *s)
{
	size_t	 i;

	for (i = 0; s[i] != '\0'; i++)
		if (i >= TOOLS_LABEL_DESC_MAX || (unsigned char)s[i] < 0x20 ||
		    s[i] == 0x7f)
			return 0;
	return 1;
}

/*
 * Marker, owner, role, key, description (printable, at most
 * TOOLS_LABEL_DESC_MAX bytes) and created.  NULL when one is not valid.
 */
json_t *
tools_labels_build(const char *owner, enum tools_role r, const char *key,
    const char *description, const char *created)
{
	if (!space_owner_valid(owner) || tools_role_label(r) == NULL ||
	    !tools_label_key_valid(key) || description == NULL ||
	    !tools_desc_valid(description) || created == NULL ||
	    !space_created_valid(created))
		return NULL;
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", LABEL_MARKER,
	    "true", LABEL_OWNER, owner, LABEL_ROLE, tools_role_label(r),
	    LABEL_TOOLS_KEY, key, LABEL_TOOLS_DESC, description,
	    LABEL_CREATED, created);
}

/*
 * Does this Labels object make the tools resource ours?  Demands the
 * marker, this owner, role r and this key (key NULL: any valid key,
 * copied to found when found is not NULL).  NULL when ours, else "no
 * labels", "not a space", "other owner", "other role" or "other key".
 * Independent of any marker file: a label is all a name proves.
 */
const char *
tools_labels_check(const json_t *labels, const char *owner,
    enum tools_role r, const char *key, char found[TOOLS_LABEL_KEY_LEN + 1])
{
	const char	*why, *v;

	if ((why = check_owner(labels, owner)) != NULL)
		return why;
	if (tools_role_label(r) == NULL ||
	    (v = label(labels, LABEL_ROLE)) == NULL ||
	    strcmp(v, tools_role_label(r)) != 0)
		return "other role";
	v = label(labels, LABEL_TOOLS_KEY);
	if (!tools_label_key_valid(v) || (key != NULL && strcmp(v, key) != 0))
		return "other key";
	if (found != NULL)
		strlcpy(found, v, TOOLS_LABEL_KEY_LEN + 1);
	return NULL;
}
