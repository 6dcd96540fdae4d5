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

#ifndef SPACED_TOOLS_PRUNE_H
#define SPACED_TOOLS_PRUNE_H

/* An owner's tools volumes, for the prunes of ensure and of a move. */

#include <stddef.h>
#include <time.h>

#include "place_proto.h"
#include "docker_parse.h"

/*
 * A tools volume given to a create or start (te_hold) is kept from the
 * ensure's answer to that request's end (the same peer id): till its
 * container mounts it, the engine would let a prune delete it, and the
 * container's create would then make an empty volume of the name, with
 * no labels, that no ensure takes again.  The request claims it as it
 * begins and unkeeps it at its end, whatever the end; spaced's cancel
 * of the peer unkeeps it too; one that no request claimed within
 * TOOLS_KEEP_UNCLAIMED_S (spaced sends the create as the answer comes)
 * is let go at the next look.  now is tools_clock()'s.
 */
#define TOOLS_KEEP_UNCLAIMED_S	120
time_t	 tools_clock(void);
void	 tools_keep(const char *volume, uint32_t peerid, time_t now);
void	 tools_claim(uint32_t peerid);
void	 tools_unkeep(uint32_t peerid);
int	 tools_kept(const char *volume, time_t now);

/* The query of owner's tools volumes, for GET /volumes?filters=. */
void	 tools_owner_filter(char *, size_t, const char *owner);
/*
 * From a GET /volumes answer, the names of owner's tools volumes but
 * keep, those of tk (each profile's current one) and the kept ones, at
 * most max: what a prune deletes (the engine refuses one that a
 * container mounts).  An answer that does not parse gives none.
 */
size_t	 tools_prune_list(const struct docker_parser *, const char *owner,
	    const char *keep, const struct tools_keep *tk,
	    char (*)[SPACE_RESOURCE_MAX], size_t max);

#endif /* SPACED_TOOLS_PRUNE_H */
