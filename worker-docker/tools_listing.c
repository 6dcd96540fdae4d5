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
 * The Engine's listings as tools list reads them: the owner's tools
 * volumes (by their labels, labels.c), and the spaces that mount each.
 * The bytes are the engine's, capped by the call (TV_LIST_CAP); what is kept
 * is capped here (TV_VOLUMES_MAX volumes, TOOLS_MOUNTS_MAX spaces a
 * volume), and a string is kept whole or not at all.  Pure but for the
 * request's state it fills: fuzzed by regress/fuzz/docker_listing_fuzz.c.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "tools_volume.h"

static int
vol_cmp(const void *a, const void *b)
{
	const struct tools_volume_info	*x = a, *y = b;

	return strcmp(x->tv_name, y->tv_name);
}

void
tools_take_volumes(struct tv *tv, const struct docker_parser *p)
{
	json_t		*o, *e, *labels;
	const char	*name, *s;
	struct tools_volume_info *v;
	char		 key[TOOLS_LABEL_KEY_LEN + 1];
	size_t		 i;

	if ((o = json_loadb((const char *)p->dp_body, p->dp_body_len,
	    JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		name = json_string_value(json_object_get(e, "Name"));
		labels = json_object_get(e, "Labels");
		if (!docker_plain_ref(name) ||
		    strlen(name) >= TOOLS_MSG_VOLUME_MAX ||
		    tv->nvols >= TV_VOLUMES_MAX ||
		    tools_labels_check(labels, tv->req.te_owner,
		    TOOLS_ROLE_VOLUME, NULL, key) != NULL)
			continue;
		if ((v = reallocarray(tv->vols, tv->nvols + 1,
		    sizeof(*v))) == NULL)
			fatal("%s", __func__);
		tv->vols = v;
		v = &tv->vols[tv->nvols++];
		memset(v, 0, sizeof(*v));
		strlcpy(v->tv_name, name, sizeof(v->tv_name));
		strlcpy(v->tv_key, key, sizeof(v->tv_key));
		s = json_string_value(json_object_get(labels,
		    LABEL_TOOLS_DESC));
		if (s != NULL && strlen(s) < sizeof(v->tv_description))
			strlcpy(v->tv_description, s,
			    sizeof(v->tv_description));
		s = json_string_value(json_object_get(labels, LABEL_CREATED));
		if (s != NULL && space_created_valid(s))
			strlcpy(v->tv_created, s, sizeof(v->tv_created));
		v->tv_state = TOOLS_STATE_UNKNOWN;
	}
	json_decref(o);
	if (tv->nvols > 0)
		qsort(tv->vols, tv->nvols, sizeof(*tv->vols), vol_cmp);
}

/* Spaces (label spaced.space.id) that mount a volume at the tools dir. */
void
tools_take_mounts(struct tv *tv, const struct docker_parser *p)
{
	json_t		*o, *e, *m, *labels;
	const char	*id, *name, *dst;
	struct tools_volume_info *vi;
	size_t		 i, j, k;

	if ((o = json_loadb((const char *)p->dp_body, p->dp_body_len,
	    JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return;
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		if (space_labels_check(labels, tv->req.te_owner, NULL,
		    ROLE_SPACE) != NULL)
			continue;
		id = json_string_value(json_object_get(labels, LABEL_ID));
		json_array_foreach(json_object_get(e, "Mounts"), j, m) {
			name = json_string_value(json_object_get(m, "Name"));
			dst = json_string_value(json_object_get(m,
			    "Destination"));
			if (name == NULL || dst == NULL ||
			    strcmp(dst, TOOLS_DIR) != 0)
				continue;
			for (k = 0; k < tv->nvols; k++) {
				vi = &tv->vols[k];
				if (strcmp(vi->tv_name, name) != 0)
					continue;
				if (vi->tv_nmounts < TOOLS_MOUNTS_MAX)
					strlcpy(vi->tv_mounts[vi->tv_nmounts++],
					    id, sizeof(vi->tv_mounts[0]));
				else
					vi->tv_more = 1;
			}
		}
	}
	json_decref(o);
}
