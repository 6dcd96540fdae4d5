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
 * The Engine's listings of containers, volumes and networks, as the
 * space operations (list, show, remove) read them: which are ours (by
 * their labels, labels.c), and what of each is kept.  The bytes are the
 * engine's, capped by the call (SP_LIST_CAP); what is kept is capped
 * here (SP_RES_MAX resources), and a string is kept whole or not at
 * all.  Pure but for the request's state it fills: fuzzed by
 * regress/fuzz/docker_listing_fuzz.c.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "space.h"

struct sp_res *
res_add(struct sp *sp)
{
	struct sp_res	*n;

	if (sp->nres >= SP_RES_MAX)
		return NULL;
	if ((n = reallocarray(sp->res, sp->nres + 1, sizeof(*n))) == NULL)
		fatal("%s", __func__);
	sp->res = n;
	memset(&n[sp->nres], 0, sizeof(n[0]));
	n[sp->nres].r_role = -1;
	return &n[sp->nres++];
}

/* A listing of containers, volumes or networks, by our labels. */
int
take_listing(struct sp *sp, const struct docker_parser *p,
    enum sp_res_type type, const char *id)
{
	json_t		*o, *arr, *e, *labels;
	const char	*ref, *name, *state, *role;
	struct sp_res	*r;
	struct space_meta m;
	size_t		 i;

	/* An array for containers and networks; the parser capped it. */
	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return -1;
	arr = type == RES_VOLUME ? json_object_get(o, "Volumes") : o;
	if (arr != NULL && !json_is_array(arr) && !json_is_null(arr)) {
		json_decref(o);
		return -1;
	}
	json_array_foreach(arr, i, e) {
		labels = json_object_get(e, "Labels");
		/* The filter asked for these; the answer must say so. */
		if (space_labels_check(labels, sp->sq.sq_owner, id, -1) !=
		    NULL)
			continue;
		if (type == RES_CONTAINER) {
			ref = json_string_value(json_object_get(e, "Id"));
			name = json_string_value(json_array_get(
			    json_object_get(e, "Names"), 0));
			if (name != NULL && name[0] == '/')
				name++;
			state = json_string_value(json_object_get(e,
			    "State"));
		} else {
			ref = json_string_value(json_object_get(e,
			    type == RES_VOLUME ? "Name" : "Id"));
			name = json_string_value(json_object_get(e, "Name"));
			state = NULL;
		}
		/* A name kept whole or none (then not ours to act on). */
		if (!docker_plain_ref(ref) || name == NULL ||
		    strlen(name) >= sizeof(r->r_name) ||
		    (r = res_add(sp)) == NULL)
			continue;
		r->r_type = type;
		strlcpy(r->r_ref, ref, sizeof(r->r_ref));
		strlcpy(r->r_name, name, sizeof(r->r_name));
		strlcpy(r->r_id, json_string_value(json_object_get(labels,
		    LABEL_ID)), sizeof(r->r_id));
		role = json_string_value(json_object_get(labels, LABEL_ROLE));
		r->r_role = space_role_parse(role);
		/* A state that does not fit is none the list knows. */
		if (state != NULL && strlen(state) < sizeof(r->r_state))
			memcpy(r->r_state, state, strlen(state) + 1);
		if (r->r_role == ROLE_SPACE && type == RES_CONTAINER &&
		    space_labels_parse(labels, sp->sq.sq_owner, r->r_id,
		    ROLE_SPACE, &m) == NULL)
			r->r_meta = m;
	}
	json_decref(o);
	return 0;
}
