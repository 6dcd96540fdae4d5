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

#ifndef SPACED_SPACE_LIMITS_H
#define SPACED_SPACE_LIMITS_H

/*
 * The limits a place sets on a space, by name, as a set: spaced.conf's
 * "native accept missing limits" and what the native place finds
 * absent on its host.  Pure.
 */

#include <stdint.h>

#define SPACE_LIMIT_MEMORY	0x01
#define SPACE_LIMIT_SWAP	0x02
#define SPACE_LIMIT_PIDS	0x04
#define SPACE_LIMIT_CPU		0x08
#define SPACE_LIMITS_ALL	0x0f

/* "none", "all" or names joined by commas: 0, or -1 with why. */
int		 space_limits_parse(const char *, uint8_t *,
		    const char **errstr);
/* The name of one limit's bit, NULL for anything else. */
const char	*space_limit_name(uint8_t bit);

#endif /* SPACED_SPACE_LIMITS_H */
