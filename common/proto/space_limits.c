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

/* The limits' names as spaced.conf(5) and verify say them. */

#include <stddef.h>
#include <string.h>

#include "space_limits.h"

static const struct {
	uint8_t		 bit;
	const char	*name;
} limits[] = {
	{ SPACE_LIMIT_MEMORY,	"memory" },
	{ SPACE_LIMIT_SWAP,	"swap" },
	{ SPACE_LIMIT_PIDS,	"pids" },
	{ SPACE_LIMIT_CPU,	"cpu" },
};
#define NLIMITS	(sizeof(limits) / sizeof(limits[0]))

const char *
space_limit_name(uint8_t bit)
{
	size_t	 i;

	for (i = 0; i < NLIMITS; i++)
		if (limits[i].bit == bit)
			return limits[i].name;
	return NULL;
}

int
space_limits_parse(const char *s, uint8_t *set, const char **errstr)
{
	size_t	 i, n;
	uint8_t	 seen = 0;

	*set = 0;
	if (strcmp(s, "none") == 0)
		return 0;
	if (strcmp(s, "all") == 0) {
		*set = SPACE_LIMITS_ALL;
		return 0;
	}
	for (;;) {
		n = strcspn(s, ",");
		for (i = 0; i < NLIMITS; i++)
			if (strlen(limits[i].name) == n &&
			    strncmp(limits[i].name, s, n) == 0)
				break;
		if (i == NLIMITS || (seen & limits[i].bit)) {
			*errstr = "not none, all, or memory, swap, pids and "
			    "cpu joined by commas, each once";
			return -1;
		}
		seen |= limits[i].bit;
		if (s[n] == '\0')
			break;
		s += n + 1;
	}
	*set = seen;
	return 0;
}
