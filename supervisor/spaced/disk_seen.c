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
 * The last disk sweep's word on each space, for show and verify: a
 * table of its own, so that the sweep (disk.c) and the records of the
 * place (place.c) both reach it without reaching each other.
 */

#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "spaced.h"

static struct {
	struct disk_seen	*seen;
	size_t			 n;
} table;

const struct disk_seen *
disk_seen_find(const char *id)
{
	size_t	 i;

	for (i = 0; i < table.n; i++)
		if (strcmp(table.seen[i].ds_id, id) == 0)
			return &table.seen[i];
	return NULL;
}

/* A sweep's table (malloc'd) replaces the last one. */
void
disk_seen_set(struct disk_seen *seen, size_t n)
{
	free(table.seen);
	table.seen = seen;
	table.n = n;
}

/* The last sweep's word on a space: 0 when it was not measured. */
int
disk_of(const char *id, uint64_t *used, uint64_t *limit, int *over)
{
	const struct disk_seen	*ds;

	if ((ds = disk_seen_find(id)) == NULL)
		return 0;
	*used = ds->ds_used;
	*limit = config_disk_limit(spaced_config());
	*over = ds->ds_over;
	return 1;
}
