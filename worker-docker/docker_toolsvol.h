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

#ifndef SPACED_DOCKER_TOOLSVOL_H
#define SPACED_DOCKER_TOOLSVOL_H

/* The tools volume's operations (docker_toolsvol.c), for the op table. */

#include <stddef.h>
#include <stdint.h>

#include "docker_req.h"
#include "place_proto.h"

extern const struct docker_op	docker_toolsvol_ops[];
extern const size_t		docker_toolsvol_nops;

/* The query of owner's tools volumes, for GET /volumes?filters=. */
void	tools_owner_filter(char *, size_t, const char *owner);
/*
 * From a GET /volumes answer, the names of owner's tools volumes but
 * keep, at most max: what a prune deletes (the engine refuses one that a
 * container mounts).  An answer that does not parse gives none.
 */
size_t	tools_prune_list(const struct docker_parser *, const char *owner,
	    const char *keep, char (*)[SPACE_RESOURCE_MAX], size_t max);
/* An IMSG_TOOLS_FILE: the fd goes to its ensure, or is closed. */
void	docker_toolsvol_file(uint32_t peerid, const struct tools_file_msg *,
	    int fd);

#endif /* SPACED_DOCKER_TOOLSVOL_H */
