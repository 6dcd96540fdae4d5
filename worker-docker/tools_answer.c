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
 * The Engine's answers as tools ensure, its prune and the filler's
 * corridor read them in their steps: the bytes are the engine's, capped
 * by the call (TV_CAP, TV_LIST_CAP), read in one pass; what is kept is
 * capped by the caller's room (TV_STALE_MAX), a name kept plain and
 * whole or not at all.  Pure: fuzzed by regress/fuzz/tools_answer_fuzz.c.
 */

#include <stdio.h>
#include <string.h>

#include "docker_engine.h"
#include "tools_answer.h"

const char *
tools_answer_labels(const struct docker_parser *p, const char *owner,
    enum tools_role r, const char *key)
{
	const char	*why;
	json_t		*o;

	o = engine_json(p);
	why = tools_labels_check(json_object_get(o, "Labels"), owner, r, key,
	    NULL);
	json_decref(o);
	return why;
}

const char *
tools_made_take(const struct docker_parser *p, const char *owner,
    enum tools_role r, const char *key, struct harden_report *hr, char *id,
    size_t idlen)
{
	(void)engine_created(p, hr, id, idlen);
	if (r != TOOLS_ROLE_FILL_SOCK)
		return NULL;
	return tools_answer_labels(p, owner, r, key);
}

size_t
tools_stale_take(const struct docker_parser *p, const char *owner,
    const char *key, char (*stale)[SPACE_RESOURCE_MAX], size_t max)
{
	json_t		*o, *e, *labels;
	const char	*ref;
	size_t		 i, n = 0;

	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;
	json_array_foreach(o, i, e) {
		labels = json_object_get(e, "Labels");
		ref = json_string_value(json_object_get(e, "Id"));
		if (!docker_plain_ref(ref) || n >= max ||
		    (tools_labels_check(labels, owner, TOOLS_ROLE_FILL, key,
		    NULL) != NULL && tools_labels_check(labels, owner,
		    TOOLS_ROLE_CHECK, key, NULL) != NULL))
			continue;
		strlcpy(stale[n++], ref, sizeof(stale[0]));
	}
	json_decref(o);
	return n;
}

size_t
tools_prune_take(const struct docker_parser *p, const char *owner,
    const char *keep, const struct tools_keep *tk,
    int (*held)(const char *, void *), void *arg,
    char (*names)[SPACE_RESOURCE_MAX], size_t max)
{
	json_t		*o, *e;
	const char	*name;
	size_t		 i, n = 0;

	if (p->dp_status != 200 || (o = json_loadb((const char *)p->dp_body,
	    p->dp_body_len, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return 0;	/* pruning never fails the call */
	json_array_foreach(json_object_get(o, "Volumes"), i, e) {
		name = json_string_value(json_object_get(e, "Name"));
		if (n >= max || !docker_plain_ref(name) ||
		    strcmp(name, keep) == 0 || tools_keep_has(tk, name) ||
		    held(name, arg) ||
		    tools_labels_check(json_object_get(e, "Labels"), owner,
		    TOOLS_ROLE_VOLUME, NULL, NULL) != NULL)
			continue;
		strlcpy(names[n++], name, sizeof(names[0]));
	}
	json_decref(o);
	return n;
}
