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


#ifndef SPACED_DOCKER_SPACE_DISK_H
#define SPACED_DOCKER_SPACE_DISK_H

#include <stddef.h>

#include <jansson.h>

#include "place_proto.h"

#define DISK_SPACES_MAX	4096	/* records a sweep gives */

/* The spaces of one installation and their bytes, from /system/df. */
struct disk_df {
	char			 install[INSTALL_ID_MAX + 1];
	struct space_disk	*spaces;	/* malloc'd */
	size_t			 n;
};

void	disk_df_take(struct disk_df *, const json_t *);

#endif /* SPACED_DOCKER_SPACE_DISK_H */
