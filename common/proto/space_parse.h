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


#ifndef SPACED_SPACE_PARSE_H
#define SPACED_SPACE_PARSE_H

/*
 * The space operations' pure checks, shared by spaced (what a client
 * asks, what a place answers) and spacectl (what a user types).  No
 * I/O, no globals.
 */

#include <stddef.h>
#include <stdint.h>

#include "ctl_proto.h"

int	 ctl_space_check(const struct ctl_space *cs, int id_wanted,
	    const char **errstr);

int	 space_memory_parse(const char *s, uint64_t *bytes,
	    const char **errstr);

/* 1 if s, within len bytes, is a NUL-terminated [a-z0-9_]+ code. */
int	 space_code_valid(const char *s, size_t len);

#endif /* SPACED_SPACE_PARSE_H */
