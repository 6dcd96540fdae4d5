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
 * fuzz-link: regress/fuzz/fuzz_answer.c worker-docker/tools_answer.c worker-docker/docker_engine.c worker-docker/docker_check.c worker-docker/docker_env.c worker-docker/docker_harden.c worker-docker/docker_verify.c worker-docker/docker_verify_res.c worker-docker/docker_netpool.c common/proto/labels.c common/proto/agent.c common/proto/place_proto.c common/lib/log.c
 *
 * The engine's answers, hostile, as tools ensure, its prune and the
 * filler's corridor read them: the first byte picks the reader (a
 * volume's labels; a create answer, the socket volume's or the
 * gatekeeper's; the sweep's one-shots; the prune's volumes) and the
 * room, the rest is the engine's body.  Invariants: nothing taken that
 * the labels do not make the owner's (of the key, of the role); every
 * name or id taken was one of the input's strings, whole and plain,
 * never the one kept or held; at most the room; an id never cut, as
 * engine_created alone takes it; the same bytes give the same result.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/tools_answer.h"
#include "worker-docker/docker_engine.h"
#include "regress/fuzz/fuzz_answer.h"

#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define KEY	"0123456789abcdef"
#define KEEP	"spaced-tools-keep"
#define ROOM	16

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static json_t	*doc;	/* the body as jansson reads it, or NULL */

/* Some element of the listing has key k equal to s and labels that pass. */
static int
listed(const json_t *arr, const char *k, const char *s, enum tools_role r1,
    enum tools_role r2, const char *key)
{
	const json_t	*e, *labels;
	size_t		 i;

	json_array_foreach(arr, i, e) {
		if (!json_is_string(json_object_get(e, k)) ||
		    strcmp(json_string_value(json_object_get(e, k)), s) != 0)
			continue;
		labels = json_object_get(e, "Labels");
		if (tools_labels_check(labels, OWNER, r1, key, NULL) == NULL ||
		    tools_labels_check(labels, OWNER, r2, key, NULL) == NULL)
			return 1;
	}
	return 0;
}

/* Names of odd length are the worker's kept ones, here. */
static int
held(const char *name, void *arg)
{
	(*(size_t *)arg)++;
	return strlen(name) % 2 == 1;
}

static void
taken(char (*out)[SPACE_RESOURCE_MAX], size_t n, size_t room, int prune,
    const struct docker_parser *p, const struct tools_keep *tk)
{
	char	 again[ROOM][SPACE_RESOURCE_MAX];
	size_t	 i, m, asked = 0;

	if (n > room)
		abort();
	for (i = 0; i < n; i++) {
		if (memchr(out[i], '\0', sizeof(out[i])) == NULL ||
		    !docker_plain_ref(out[i]))
			abort();
		if (prune && (strcmp(out[i], KEEP) == 0 ||
		    tools_keep_has(tk, out[i]) || strlen(out[i]) % 2 == 1 ||
		    !listed(json_object_get(doc, "Volumes"), "Name", out[i],
		    TOOLS_ROLE_VOLUME, TOOLS_ROLE_VOLUME, NULL)))
			abort();
		if (!prune && !listed(doc, "Id", out[i], TOOLS_ROLE_FILL,
		    TOOLS_ROLE_CHECK, KEY))
			abort();
	}
	/* The same bytes, the same names. */
	memset(again, 0, sizeof(again));
	m = prune ? tools_prune_take(p, OWNER, KEEP, tk, held, &asked, again,
	    room) : tools_stale_take(p, OWNER, KEY, again, room);
	if (m != n || (n > 0 && memcmp(again, out, n * sizeof(out[0])) != 0))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct docker_parser	 p;
	struct harden_report	 hr, again;
	struct tools_keep	 tk;
	char			 out[ROOM][SPACE_RESOURCE_MAX];
	char			 id[SPACE_RESOURCE_MAX], id2[SPACE_RESOURCE_MAX];
	const char		*why, *v;
	size_t			 n, room, asked = 0, idlen;
	enum tools_role		 r;

	if (size < 1)
		return 0;
	doc = fuzz_answer(&p, data, size);
	room = 1 + (data[0] >> 2 & 0xf) % ROOM;
	memset(out, 0, sizeof(out));
	memset(&tk, 0, sizeof(tk));
	strlcpy(tk.tk_volume[0], "spaced-tools-0123456789abcdef",
	    sizeof(tk.tk_volume[0]));
	switch (data[0] & 3) {
	case 0:
		r = data[0] & 0x40 ? TOOLS_ROLE_FILL_SOCK : TOOLS_ROLE_VOLUME;
		why = tools_answer_labels(&p, OWNER, r, KEY);
		if (why == NULL && (!json_is_object(doc) || p.dp_body_len >
		    HARDEN_INSPECT_MAX || tools_labels_check(json_object_get(doc,
		    "Labels"), OWNER, r, KEY, NULL) != NULL))
			abort();
		break;
	case 1:
		harden_report_init(&hr);
		memset(id, 'z', sizeof(id));
		idlen = 1 + (data[0] >> 2 & 0xf) * 8;
		r = data[0] & 0x40 ? TOOLS_ROLE_FILL_SOCK : TOOLS_ROLE_FILL_GK;
		why = tools_made_take(&p, OWNER, r, KEY, &hr, id, idlen);
		if (hr.hr_n > HARDEN_REPORT_MAX ||
		    (why != NULL && r != TOOLS_ROLE_FILL_SOCK) ||
		    (why == NULL && r == TOOLS_ROLE_FILL_SOCK &&
		    tools_labels_check(json_object_get(doc, "Labels"), OWNER,
		    r, KEY, NULL) != NULL))
			abort();
		/* Untouched, or the answer's Id whole in its room. */
		if (id[0] != 'z' || memchr(id, '\0', sizeof(id)) != NULL) {
			v = json_string_value(json_object_get(doc, "Id"));
			if (v == NULL || strcmp(v, id) != 0 ||
			    strlen(id) >= idlen || !docker_plain_ref(id))
				abort();
		}
		/* Its create answer's reader alone: the same, -1 for a warning. */
		harden_report_init(&again);
		memset(id2, 'z', sizeof(id2));
		if (engine_created(&p, &again, id2, idlen) !=
		    (again.hr_n > 0 ? -1 : 0) || again.hr_n != hr.hr_n ||
		    memcmp(id, id2, sizeof(id)) != 0)
			abort();
		break;
	case 2:
		n = tools_stale_take(&p, OWNER, KEY, out, room);
		if (n > 0 && p.dp_status != 200)
			abort();
		taken(out, n, room, 0, &p, &tk);
		break;
	default:
		n = tools_prune_take(&p, OWNER, KEEP, &tk, held, &asked, out,
		    room);
		if (n > 0 && p.dp_status != 200)
			abort();
		taken(out, n, room, 1, &p, &tk);
		break;
	}
	json_decref(doc);
	return 0;
}
