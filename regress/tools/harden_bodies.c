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
 * Prints one create body of the harden fixture, for
 * regress/unit/spaced-docker/record.sh: space, gatekeeper, network, sock, work,
 * home or runtime.  Built by record.sh itself; never installed.
 */

#include <stdio.h>
#include <string.h>

#include "regress/lib/harden_fixture.h"

int
main(int argc, char *argv[])
{
	struct harden_params	 p;
	const char		*err = "unknown body";
	json_t			*b = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: harden_bodies what\n");
		return 2;
	}
	fx_params(&p);
	if (strcmp(argv[1], "space") == 0)
		b = harden_space_create(&p, &err);
	else if (strcmp(argv[1], "gatekeeper") == 0)
		b = harden_gatekeeper_create(&p, &err);
	else if (strcmp(argv[1], "network") == 0)
		b = harden_network_create(&p, &err);
	else if (strcmp(argv[1], "sock") == 0)
		b = harden_volume_create(&p, ROLE_SOCKET, &err);
	else if (strcmp(argv[1], "work") == 0)
		b = harden_volume_create(&p, ROLE_WORK, &err);
	else if (strcmp(argv[1], "home") == 0)
		b = harden_volume_create(&p, ROLE_HOME, &err);
	else if (strcmp(argv[1], "runtime") == 0)
		b = harden_runtime_volume_create(&p, &err);
	if (b == NULL) {
		fprintf(stderr, "harden_bodies: %s\n", err);
		return 1;
	}
	if (json_dumpf(b, stdout, JSON_SORT_KEYS | JSON_INDENT(1)) == -1)
		return 1;
	putchar('\n');
	json_decref(b);
	return 0;
}
