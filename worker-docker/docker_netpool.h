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

#ifndef SPACED_DOCKER_NETPOOL_H
#define SPACED_DOCKER_NETPOOL_H

/*
 * The outer networks' subnets, carved from the pool spaced.conf names
 * (a base and its prefix) in slots of one prefix, so that a space never
 * takes one of the engine's default pools.  Pure: no I/O, no globals.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* At most 2^13 slots: a bitmap of 1 KiB in a create's state. */
#define NETPOOL_SLOT_BITS	13
#define NETPOOL_BITMAP		((1 << NETPOOL_SLOT_BITS) / 8)
#define NETPOOL_CIDR_MAX	20	/* "255.255.255.255/32" */

struct net_pool {
	uint32_t	 np_base;	/* host order, aligned to its prefix */
	uint32_t	 np_pool_prefix;
	uint32_t	 np_prefix;	/* of each slot */
};

/* 1 when the pool is usable: aligned, 8..29, at most 2^13 slots. */
int	 net_pool_valid(const struct net_pool *);
size_t	 net_pool_slots(const struct net_pool *);
/*
 * Marks in used (NETPOOL_BITMAP bytes) every slot that an IPv4 subnet
 * of the engine's GET /networks answer overlaps; -1 when it is not a
 * list.
 */
int	 net_pool_mark(const json_t *networks, const struct net_pool *,
	    uint8_t *used);
/* The same of the answer's body (NULL: no answer), read in one pass. */
int	 net_pool_mark_body(const void *body, size_t len,
	    const struct net_pool *, uint8_t *used);
void	 net_pool_set(uint8_t *used, size_t slot);
/* The first free slot from start on, round the pool; -1 if none. */
long	 net_pool_pick(const uint8_t *used, size_t nslots, size_t start);
/* "a.b.c.d/p" of a slot. */
int	 net_pool_cidr(const struct net_pool *, size_t slot, char *, size_t);
/* 1 when cidr is exactly one slot of the pool. */
int	 net_pool_holds(const struct net_pool *, const char *cidr);

#endif /* SPACED_DOCKER_NETPOOL_H */
