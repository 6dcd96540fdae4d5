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


#ifndef SPACED_DOCKER_RUNTIME_H
#define SPACED_DOCKER_RUNTIME_H

/*
 * The relay binary spaced passed once after READY (IMSG_DOCKER_RUNTIME):
 * a read-only fd of it (read it with pread: its offset is shared with
 * spaced's own copy), its key and its size.  Kept in docker.c.
 */

#include <stdint.h>

/* -1 and "" until spaced sent it (never, when spaced has no relay). */
int		 docker_runtime_fd(void);
const char	*docker_runtime_key(void);
uint64_t	 docker_runtime_size(void);

#endif /* SPACED_DOCKER_RUNTIME_H */
