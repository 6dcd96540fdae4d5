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
 * fuzz-link: worker-docker/docker_harden.c worker-docker/docker_verify.c worker-docker/docker_verify_res.c worker-docker/docker_netpool.c common/proto/labels.c common/proto/agent.c
 *
 * Arbitrary bytes as inspect JSON to every checker: parsed with the
 * checkers' own capped parser, then fed to each, also when the parse
 * fails (NULL is an inspect too).  They must never crash, and always
 * return a bounded list of unique, NUL-terminated names; a value that
 * is not an object must never verify clean.
 */

#include <stdint.h>
#include <string.h>

#include "worker-docker/docker_harden.h"
#include "regress/lib/harden_fixture.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
sane(const struct harden_report *r, const json_t *o)
{
	size_t	 i, j;

	if (r->hr_n > HARDEN_REPORT_MAX)
		__builtin_trap();
	if (!json_is_object(o) && r->hr_n == 0)
		__builtin_trap();
	for (i = 0; i < r->hr_n; i++) {
		if (memchr(r->hr_v[i].hv_check, '\0',
		    sizeof(r->hr_v[i].hv_check)) == NULL ||
		    memchr(r->hr_v[i].hv_message, '\0',
		    sizeof(r->hr_v[i].hv_message)) == NULL ||
		    r->hr_v[i].hv_check[0] == '\0')
			__builtin_trap();
		for (j = i + 1; j < r->hr_n; j++)
			if (strcmp(r->hr_v[i].hv_check,
			    r->hr_v[j].hv_check) == 0)
				__builtin_trap();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct harden_params	 p;
	static int			 init;
	struct harden_report		 r;
	json_t				*o;
	int				 i;

	if (!init) {
		fx_params(&p);
		init = 1;
	}
	o = harden_json_parse(data, size);
	for (i = 0; i < 8; i++) {
		harden_report_init(&r);
		switch (i) {
		case 0: harden_verify_space(o, &p, &r); break;
		case 1: harden_verify_gatekeeper(o, &p, &r); break;
		case 2: harden_verify_network(o, &p, &r); break;
		case 3: harden_verify_volume(o, &p, ROLE_SOCKET, &r); break;
		case 4: harden_verify_volume(o, &p, ROLE_HOME, &r); break;
		case 5: harden_verify_runtime_volume(o, &p, &r); break;
		case 6: harden_verify_created(o, &r); break;
		case 7:
			/* The labels check on whatever Labels there are. */
			(void)space_labels_parse(json_object_get(
			    json_object_get(o, "Config"), "Labels"),
			    FX_OWNER, NULL, -1, NULL);
			(void)runtime_labels_check(json_object_get(o,
			    "Labels"), FX_OWNER, FX_KEY);
			continue;
		}
		sane(&r, o);
	}
	json_decref(o);
	return 0;
}
