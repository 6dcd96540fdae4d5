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
 * fuzz-link: regress/fuzz/fuzz_answer.c worker-docker/create_parse.c worker-docker/docker_engine.c worker-docker/docker_check.c worker-docker/docker_env.c worker-docker/docker_harden.c worker-docker/docker_verify.c worker-docker/docker_verify_res.c worker-docker/docker_netpool.c common/proto/labels.c common/proto/agent.c common/lib/log.c
 *
 * The engine's answers, hostile, as create reads them in its steps:
 * the first byte picks the reader (the installation's uids, the
 * owner's ids, the runtime's leftovers of the key or of another, the
 * runtime volume's labels, a space running, the networks against a
 * pool) and the room, the rest is the engine's body.  Invariants: a
 * uid only of the installation's spaces and in the range; the owner's
 * ids sorted, each once, each one of the input's, of a space whose
 * labels make it the owner's; a leftover plain, whole, the
 * installation's, at most the room; running only for a 200 answer
 * that says true; the pool's marks those of one slot at a time; the
 * same bytes give the same result.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/space.h"
#include "regress/fuzz/fuzz_answer.h"

#define INSTALL	"0123456789abcdef0123456789abcdef"
#define OWNER	INSTALL ":1000"
#define RKEY	"00112233aabbccdd"
#define ROOM	16
#define FIRST	100000
#define COUNT	1000

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static json_t	*doc;	/* the body as jansson reads it, or NULL */

static int
space_listed(const char *id)
{
	const json_t	*e, *labels;
	size_t		 i;

	json_array_foreach(doc, i, e) {
		labels = json_object_get(e, "Labels");
		if (space_labels_check(labels, OWNER, id, ROLE_SPACE) == NULL)
			return 1;
	}
	return 0;
}

static int
runtime_listed(int volumes, const char *ref, int same)
{
	const json_t	*e, *labels, *arr;
	const char	*k;
	size_t		 i;

	arr = volumes ? json_object_get(doc, "Volumes") : doc;
	json_array_foreach(arr, i, e) {
		labels = json_object_get(e, "Labels");
		k = json_string_value(json_object_get(labels,
		    LABEL_RUNTIME_KEY));
		if (json_is_string(json_object_get(e, volumes ? "Name" :
		    "Id")) && strcmp(json_string_value(json_object_get(e,
		    volumes ? "Name" : "Id")), ref) == 0 && k != NULL &&
		    runtime_labels_check(labels, OWNER, k) == NULL &&
		    (strcmp(k, RKEY) == 0) == same)
			return 1;
	}
	return 0;
}

static void
uids(const struct docker_parser *p)
{
	uint32_t	*u, *again;
	ssize_t		 n, m, i;

	n = create_uids_take(p, OWNER, FIRST, COUNT, &u);
	if (n < -1 || (n == -1 && u != NULL) ||
	    (n == -1) != (p->dp_status != 200 || !json_is_array(doc)) ||
	    (n >= 0 && (size_t)n > json_array_size(doc)))
		abort();
	for (i = 0; i < n; i++)
		if (u[i] < FIRST || u[i] >= FIRST + COUNT)
			abort();
	m = create_uids_take(p, OWNER, FIRST, COUNT, &again);
	if (m != n || (n > 0 && memcmp(u, again, n * sizeof(*u)) != 0))
		abort();
	free(u);
	free(again);
}

static void
ids(const struct docker_parser *p)
{
	char	(*id)[SPACE_ID_SIZE], (*again)[SPACE_ID_SIZE];
	ssize_t	 n, m, i;

	n = create_ids_take(p, OWNER, &id);
	if (n < -1 || (n == -1 && id != NULL) ||
	    (n == -1) != (p->dp_status != 200 || !json_is_array(doc)))
		abort();
	for (i = 0; i < n; i++) {
		if (memchr(id[i], '\0', sizeof(id[i])) == NULL ||
		    !space_id_valid(id[i]) || !space_listed(id[i]) ||
		    (i > 0 && strcmp(id[i - 1], id[i]) >= 0) ||
		    !create_id_listed(id, n, id[i]))
			abort();
	}
	m = create_ids_take(p, OWNER, &again);
	if (m != n || (n > 0 && memcmp(id, again, n * sizeof(*id)) != 0))
		abort();
	free(id);
	free(again);
}

static void
runtime(const struct docker_parser *p, int volumes, int same, size_t room)
{
	char	 out[ROOM][SPACE_RESOURCE_MAX], again[ROOM][SPACE_RESOURCE_MAX];
	size_t	 n, i;

	memset(out, 0, sizeof(out));
	memset(again, 0, sizeof(again));
	n = create_runtime_take(p, volumes, OWNER, RKEY, same, out, room);
	if (n > room || (n > 0 && p->dp_status != 200))
		abort();
	for (i = 0; i < n; i++)
		if (memchr(out[i], '\0', sizeof(out[i])) == NULL ||
		    !docker_plain_ref(out[i]) ||
		    !runtime_listed(volumes, out[i], same))
			abort();
	if (create_runtime_take(p, volumes, OWNER, RKEY, same, again, room) !=
	    n || memcmp(out, again, sizeof(out)) != 0)
		abort();
}

/*
 * One slot at a time, as the marks must be: of the first subnets only
 * (what they mark, the fast marks must too), so that a run stays fast.
 */
static void
pool_slowly(const struct net_pool *np, uint8_t *want)
{
	const json_t	*n, *c;
	const char	*s;
	unsigned	 a, b, cc, d, pre;
	uint64_t	 lo, hi, s0, s1;
	size_t		 i, j, k, seen = 0;
	char		 canon[32];

	json_array_foreach(doc, i, n)
		json_array_foreach(json_object_get(json_object_get(n, "IPAM"),
		    "Config"), j, c) {
			s = json_string_value(json_object_get(c, "Subnet"));
			/* Only the canonical form: a rarer one is skipped. */
			if (seen++ == 16)
				return;
			if (s == NULL || sscanf(s, "%3u.%3u.%3u.%3u/%2u", &a,
			    &b, &cc, &d, &pre) != 5 || a > 255 || b > 255 ||
			    cc > 255 || d > 255 || pre > 32)
				continue;
			snprintf(canon, sizeof(canon), "%u.%u.%u.%u/%u", a, b,
			    cc, d, pre);
			if (strcmp(canon, s) != 0)
				continue;
			lo = ((uint64_t)a << 24 | b << 16 | cc << 8 | d) &
			    (pre == 0 ? 0 : 0xffffffffU << (32 - pre));
			hi = lo + ((uint64_t)1 << (32 - pre)) - 1;
			for (k = 0; k < net_pool_slots(np); k++) {
				s0 = np->np_base + ((uint64_t)k <<
				    (32 - np->np_prefix));
				s1 = s0 + ((uint64_t)1 << (32 - np->np_prefix)) -
				    1;
				if (s0 <= hi && lo <= s1)
					net_pool_set(want, k);
			}
		}
}

static void
pool(const struct docker_parser *p, unsigned which)
{
	static const struct net_pool pools[] = {
		{ 0x0ad50000, 24, 29 }, { 0x0ad50000, 16, 29 },
		{ 0x0a000000, 16, 24 }, { 0xac100000, 12, 24 },
	};
	const struct net_pool	*np = &pools[which % 4];
	uint8_t			 used[NETPOOL_BITMAP], want[NETPOOL_BITMAP];
	size_t			 i;
	int			 rc;

	memset(used, 0, sizeof(used));
	memset(want, 0, sizeof(want));
	rc = net_pool_mark_body(p->dp_status == 200 ? p->dp_body : NULL,
	    p->dp_body_len, np, used);
	if (rc != (p->dp_status == 200 && json_is_array(doc) ? 0 : -1))
		abort();
	for (i = net_pool_slots(np); i < NETPOOL_BITMAP * 8; i++)
		if (used[i / 8] & (1 << (i % 8)))
			abort();
	if (rc == 0) {
		pool_slowly(np, want);
		/* What the slow marks take, the fast ones take too. */
		for (i = 0; i < NETPOOL_BITMAP; i++)
			if ((want[i] & ~used[i]) != 0)
				abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct docker_parser	 p;
	size_t			 room;
	int			 running;
	const json_t		*r;

	if (size < 1)
		return 0;
	doc = fuzz_answer(&p, data, size);
	room = 1 + (data[0] >> 3 & 0xf) % ROOM;
	switch (data[0] & 7) {
	case 0:
		uids(&p);
		break;
	case 1:
		ids(&p);
		break;
	case 2:
	case 3:
		runtime(&p, data[0] & 1, data[0] & 0x40 ? 1 : 0, room);
		break;
	case 4:
		if (create_runtime_labels(&p, RKEY) == NULL &&
		    (!json_is_object(doc) || runtime_labels_check(
		    json_object_get(doc, "Labels"), NULL, RKEY) != NULL))
			abort();
		break;
	case 5:
		running = create_running(&p);
		r = json_object_get(json_object_get(doc, "State"), "Running");
		if (running != (p.dp_status == 200 && json_is_object(doc) &&
		    p.dp_body_len <= HARDEN_INSPECT_MAX && json_is_true(r)))
			abort();
		break;
	default:
		pool(&p, data[0] >> 3);
		break;
	}
	json_decref(doc);
	return 0;
}
