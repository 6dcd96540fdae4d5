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
 * The Engine's answers as create reads them in its steps: the uids of
 * the installation's spaces, the owner's spaces counted, the runtime
 * volume's leftovers and labels, a container running.  The bytes are
 * the engine's, capped by the call (SP_LIST_CAP, SP_SMALL_CAP) and read
 * in one pass (the count sorted, never a pass for each space); what is
 * kept is capped by the caller's room (RT_STALE_MAX), a ref plain and
 * whole or not at all.  Pure: fuzzed by regress/fuzz/create_answers_fuzz.c.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "log.h"
#include "space.h"

/* A listing's array (the parser capped it); NULL for anything else. */
static json_t *
listing(const struct docker_parser *p)
{
	json_t	*o;

	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return NULL;
	if (!json_is_array(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

ssize_t
create_uids_take(const struct docker_parser *p, const char *owner,
    uint32_t first, uint32_t count, uint32_t **uids)
{
	const json_t	*labels;
	const char	*lowner, *id, *colon;
	json_t		*o, *e;
	size_t		 i, k, n = 0;

	*uids = NULL;
	if ((o = listing(p)) == NULL)
		return -1;
	/* Any owner of the installation: "<install>:" before the uid. */
	colon = strchr(owner, ':');
	k = colon != NULL ? (size_t)(colon - owner) + 1 : 0;
	if (k > 0 && json_array_size(o) > 0 && (*uids = reallocarray(NULL,
	    json_array_size(o), sizeof(**uids))) == NULL)
		fatal("%s", __func__);
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		lowner = json_string_value(json_object_get(labels,
		    LABEL_OWNER));
		id = json_string_value(json_object_get(labels, LABEL_ID));
		if (k == 0 || lowner == NULL || id == NULL ||
		    strncmp(lowner, owner, k) != 0 || !space_id_valid(id))
			continue;
		(*uids)[n++] = harden_space_uid(id, first, count);
	}
	json_decref(o);
	return (ssize_t)n;
}

static int
id_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

ssize_t
create_ids_take(const struct docker_parser *p, const char *owner,
    char (**ids)[SPACE_ID_SIZE])
{
	const json_t	*labels;
	const char	*id;
	json_t		*o, *e;
	size_t		 i, j, n = 0;

	*ids = NULL;
	if ((o = listing(p)) == NULL)
		return -1;
	if (json_array_size(o) > 0 && (*ids = reallocarray(NULL,
	    json_array_size(o), sizeof(**ids))) == NULL)
		fatal("%s", __func__);
	/* The filter asked for the owner; each answer must say so. */
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		if (space_labels_check(labels, owner, NULL, ROLE_SPACE) != NULL ||
		    (id = json_string_value(json_object_get(labels,
		    LABEL_ID))) == NULL || strlen(id) >= sizeof(**ids))
			continue;
		memcpy((*ids)[n++], id, strlen(id) + 1);
	}
	json_decref(o);
	/* A move keeps two containers of one space a while: each id once. */
	if (n > 1)
		qsort(*ids, n, sizeof(**ids), id_cmp);
	for (i = j = 0; i < n; i++)
		if (j == 0 || strcmp((*ids)[j - 1], (*ids)[i]) != 0)
			memmove((*ids)[j++], (*ids)[i], sizeof(**ids));
	return (ssize_t)j;
}

int
create_id_listed(char (*ids)[SPACE_ID_SIZE], size_t n, const char *id)
{
	return n > 0 && bsearch(id, ids, n, sizeof(*ids), id_cmp) != NULL;
}

/*
 * Another's fill container or volume is not ours to remove, whatever
 * the engine's filter let through.
 */
size_t
create_runtime_take(const struct docker_parser *p, int volumes,
    const char *owner, const char *key, int same_key,
    char (*stale)[SPACE_RESOURCE_MAX], size_t max)
{
	json_t		*o, *arr, *e, *labels;
	const char	*ref, *k;
	size_t		 i, n = 0;

	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;	/* a sweep or a prune never fails a create */
	arr = volumes ? json_object_get(o, "Volumes") : o;
	json_array_foreach(arr, i, e) {
		labels = json_object_get(e, "Labels");
		k = json_string_value(json_object_get(labels,
		    LABEL_RUNTIME_KEY));
		ref = json_string_value(json_object_get(e, volumes ? "Name" :
		    "Id"));
		if (k == NULL || !docker_plain_ref(ref) ||
		    runtime_labels_check(labels, owner, k) != NULL ||
		    (strcmp(k, key) == 0) != same_key || n >= max)
			continue;
		strlcpy(stale[n++], ref, sizeof(stale[0]));
	}
	json_decref(o);
	return n;
}

const char *
create_runtime_labels(const struct docker_parser *p, const char *key)
{
	const char	*why;
	json_t		*o;

	o = engine_json(p);
	why = runtime_labels_check(json_object_get(o, "Labels"), NULL, key);
	json_decref(o);
	return why;
}

int
create_running(const struct docker_parser *p)
{
	json_t	*o;
	int	 running;

	o = p->dp_status == 200 ? engine_json(p) : NULL;
	running = json_is_true(json_object_get(json_object_get(o, "State"),
	    "Running"));
	json_decref(o);
	return running;
}
