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
 * fuzz-link: regress/fuzz/fuzz_tv.c worker-docker/listing_parse.c worker-docker/tools_listing.c worker-docker/docker_engine.c worker-docker/docker_check.c worker-docker/docker_env.c worker-docker/docker_harden.c worker-docker/docker_verify.c worker-docker/docker_verify_res.c worker-docker/docker_netpool.c common/proto/labels.c common/proto/agent.c common/lib/log.c
 *
 * The engine's listings, hostile, as the space and tools operations
 * pick out what is ours: the first byte picks the listing (containers,
 * volumes, networks, with or without a space's id; or tools list's
 * volumes, then after a NUL the containers that mount them), the rest
 * is the engine's body.  Invariants: nothing kept that the labels do
 * not make ours (the owner's, of the space asked for); every string kept
 * was one of the input's strings, whole (never cut, never made up);
 * the caps hold (SP_RES_MAX, TV_VOLUMES_MAX, TOOLS_MOUNTS_MAX); the
 * volumes come sorted; and the same bytes give the same result.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "worker-docker/space.h"

/* tools_volume.h's enums clash with space.h's: only what is used. */
#define TV_VOLUMES_MAX	64
struct tv;
void	 tools_take_volumes(struct tv *, const struct docker_parser *);
void	 tools_take_mounts(struct tv *, const struct docker_parser *);
struct tv	*fuzz_tv_new(const char *);
void		 fuzz_tv_free(struct tv *);
size_t		 fuzz_tv_nvols(const struct tv *);
const struct tools_volume_info *fuzz_tv_vol(const struct tv *, size_t);

#define OWNER	"0123456789abcdef0123456789abcdef:1000"
#define ID	"0123456789ab"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static json_t	*strings;	/* every string of the input, as a set */

static void
collect(json_t *j)
{
	const char	*k;
	json_t		*v;
	size_t		 i;

	if (json_is_string(j))
		json_object_set_new(strings, json_string_value(j), json_true());
	else if (json_is_array(j))
		json_array_foreach(j, i, v)
			collect(v);
	else if (json_is_object(j))
		json_object_foreach(j, k, v)
			collect(v);
}

static void
collect_body(const uint8_t *b, size_t len)
{
	json_t	*o;

	if ((o = json_loadb((const char *)b, len, 0, NULL)) != NULL) {
		collect(o);
		json_decref(o);
	}
}

/* s is NUL-ended in its field and was a string of the input, whole. */
static void
kept(const char *s, size_t size, int may_be_empty)
{
	if (memchr(s, '\0', size) == NULL)
		abort();
	if (s[0] == '\0' && may_be_empty)
		return;
	if (json_object_get(strings, s) == NULL)
		abort();
}

static void
space_listing(enum sp_res_type type, const char *id, const uint8_t *b,
    size_t len)
{
	static struct sp	 sp, again;
	struct docker_parser	 p;
	const struct sp_res	*r;
	char			 slash[SPACE_RESOURCE_MAX + 1];
	size_t			 i;
	int			 rv;

	memset(&p, 0, sizeof(p));
	p.dp_status = 200;
	p.dp_body = (uint8_t *)b;
	p.dp_body_len = len;
	memset(&sp, 0, sizeof(sp));
	strlcpy(sp.sq.sq_owner, OWNER, sizeof(sp.sq.sq_owner));
	rv = take_listing(&sp, &p, type, id);
	if ((rv != 0 && rv != -1) || (rv == -1 && sp.nres != 0) ||
	    sp.nres > SP_RES_MAX)
		abort();
	for (i = 0; i < sp.nres; i++) {
		r = &sp.res[i];
		if (r->r_type != type || !docker_plain_ref(r->r_ref) ||
		    !space_id_valid(r->r_id) ||
		    (id != NULL && strcmp(r->r_id, id) != 0) ||
		    r->r_role < -1 || r->r_role >= ROLE_MAX)
			abort();
		kept(r->r_ref, sizeof(r->r_ref), 0);
		kept(r->r_id, sizeof(r->r_id), 0);
		kept(r->r_state, sizeof(r->r_state), 1);
		if (type != RES_CONTAINER && r->r_state[0] != '\0')
			abort();
		/* A container's name as the engine gives it: "/name". */
		if (memchr(r->r_name, '\0', sizeof(r->r_name)) == NULL)
			abort();
		snprintf(slash, sizeof(slash), "/%s", r->r_name);
		if (json_object_get(strings, r->r_name) == NULL &&
		    (type != RES_CONTAINER ||
		    json_object_get(strings, slash) == NULL))
			abort();
		if (r->r_meta.sm_id[0] != '\0' &&
		    (!space_meta_valid(&r->r_meta) ||
		    strcmp(r->r_meta.sm_id, r->r_id) != 0 ||
		    strcmp(r->r_meta.sm_owner, OWNER) != 0 ||
		    r->r_role != ROLE_SPACE || type != RES_CONTAINER))
			abort();
	}
	/* The same bytes, the same resources. */
	memset(&again, 0, sizeof(again));
	strlcpy(again.sq.sq_owner, OWNER, sizeof(again.sq.sq_owner));
	if (take_listing(&again, &p, type, id) != rv ||
	    again.nres != sp.nres || (sp.nres > 0 &&
	    memcmp(again.res, sp.res, sp.nres * sizeof(*sp.res)) != 0))
		abort();
	free(sp.res);
	free(again.res);
}

static void
tools_listing(const uint8_t *b, size_t len)
{
	const struct tools_volume_info	*v;
	const uint8_t			*nul;
	struct docker_parser		 vols, ctrs;
	struct tv			*tv;
	size_t				 i, k, n;

	memset(&vols, 0, sizeof(vols));
	memset(&ctrs, 0, sizeof(ctrs));
	vols.dp_status = ctrs.dp_status = 200;
	vols.dp_body = (uint8_t *)b;
	vols.dp_body_len = len;
	if ((nul = memchr(b, '\0', len)) != NULL) {
		vols.dp_body_len = nul - b;
		ctrs.dp_body = (uint8_t *)nul + 1;
		ctrs.dp_body_len = len - (nul - b) - 1;
	}
	collect_body(vols.dp_body, vols.dp_body_len);
	tv = fuzz_tv_new(OWNER);
	tools_take_volumes(tv, &vols);
	if (ctrs.dp_body != NULL) {
		collect_body(ctrs.dp_body, ctrs.dp_body_len);
		tools_take_mounts(tv, &ctrs);
	}
	if ((n = fuzz_tv_nvols(tv)) > TV_VOLUMES_MAX)
		abort();
	for (i = 0; i < n; i++) {
		v = fuzz_tv_vol(tv, i);
		if (!docker_plain_ref(v->tv_name) ||
		    !tools_label_key_valid(v->tv_key) ||
		    (v->tv_created[0] != '\0' &&
		    !space_created_valid(v->tv_created)) ||
		    v->tv_nmounts > TOOLS_MOUNTS_MAX ||
		    (i > 0 && strcmp(fuzz_tv_vol(tv, i - 1)->tv_name,
		    v->tv_name) > 0))
			abort();
		kept(v->tv_name, sizeof(v->tv_name), 0);
		kept(v->tv_key, sizeof(v->tv_key), 0);
		kept(v->tv_description, sizeof(v->tv_description), 1);
		kept(v->tv_created, sizeof(v->tv_created), 1);
		for (k = 0; k < v->tv_nmounts; k++) {
			if (!space_id_valid(v->tv_mounts[k]))
				abort();
			kept(v->tv_mounts[k], sizeof(v->tv_mounts[k]), 0);
		}
	}
	fuzz_tv_free(tv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*id;

	if (size < 1)
		return 0;
	if ((strings = json_object()) == NULL)
		abort();
	id = data[0] & 0x10 ? ID : NULL;
	switch (data[0] & 3) {
	case 3:
		tools_listing(data + 1, size - 1);
		break;
	default:
		collect_body(data + 1, size - 1);
		space_listing((enum sp_res_type)(data[0] & 3), id, data + 1,
		    size - 1);
		break;
	}
	json_decref(strings);
	return 0;
}
