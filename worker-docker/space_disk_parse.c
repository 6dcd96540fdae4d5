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
 * The disk sweep's answer, /system/df, taken apart: pure, so that its
 * fuzz target links it alone.  Only objects with this installation's
 * owner label and a valid id and role count.
 */

#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "space_disk.h"

/* The space an object of ours belongs to, and its role; NULL if not ours. */
static struct space_disk *
dk_entry(struct disk_df *dk, const json_t *labels, int *role)
{
	const char	*owner, *id;
	size_t		 ilen = strlen(dk->install), i;
	struct space_disk *s;

	owner = json_string_value(json_object_get(labels, LABEL_OWNER));
	if (owner == NULL || strncmp(owner, dk->install, ilen) != 0 ||
	    owner[ilen] != ':' ||
	    space_labels_check(labels, owner, NULL, -1) != NULL)
		return NULL;
	id = json_string_value(json_object_get(labels, LABEL_ID));
	*role = space_role_parse(json_string_value(json_object_get(labels,
	    LABEL_ROLE)));
	for (i = 0; i < dk->n; i++)
		if (strcmp(dk->spaces[i].sk_id, id) == 0)
			return strcmp(dk->spaces[i].sk_owner, owner) == 0 ?
			    &dk->spaces[i] : NULL;
	if (dk->n >= DISK_SPACES_MAX)
		return NULL;
	if ((s = reallocarray(dk->spaces, dk->n + 1, sizeof(*s))) == NULL)
		fatal("%s", __func__);
	dk->spaces = s;
	s = &dk->spaces[dk->n++];
	memset(s, 0, sizeof(*s));
	strlcpy(s->sk_id, id, sizeof(s->sk_id));
	strlcpy(s->sk_owner, owner, sizeof(s->sk_owner));
	strlcpy(s->sk_state, "missing", sizeof(s->sk_state));
	return s;
}

/* A size the engine measured: a number >= 0 (-1: not measured). */
static uint64_t
dk_size(const json_t *v)
{
	json_int_t	 n;

	if (!json_is_integer(v) || (n = json_integer_value(v)) < 0)
		return 0;
	return (uint64_t)n;
}

void
disk_df_take(struct disk_df *dk, const json_t *o)
{
	json_t			*e;
	struct space_disk	*s;
	const char		*state;
	size_t			 i;
	int			 role;

	json_array_foreach(json_object_get(o, "Containers"), i, e) {
		if ((s = dk_entry(dk, json_object_get(e, "Labels"), &role)) ==
		    NULL || (role != ROLE_SPACE && role != ROLE_GATEKEEPER))
			continue;
		s->sk_used += dk_size(json_object_get(e, "SizeRw"));
		state = json_string_value(json_object_get(e, "State"));
		if (role == ROLE_SPACE && state != NULL &&
		    strlen(state) < sizeof(s->sk_state))
			strlcpy(s->sk_state, state, sizeof(s->sk_state));
	}
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		if ((s = dk_entry(dk, json_object_get(e, "Labels"), &role)) ==
		    NULL || (role != ROLE_WORK && role != ROLE_HOME))
			continue;
		s->sk_used += dk_size(json_object_get(json_object_get(e,
		    "UsageData"), "Size"));
	}
}

