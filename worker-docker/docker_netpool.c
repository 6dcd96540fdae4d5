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
 * The outer networks' pool: which slots the engine's networks already
 * overlap, the next free one, and whether a subnet is one of ours.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docker_netpool.h"

static uint32_t
mask(uint32_t prefix)
{
	return prefix == 0 ? 0 : 0xffffffffU << (32 - prefix);
}

int
net_pool_valid(const struct net_pool *np)
{
	return np->np_pool_prefix >= 8 && np->np_prefix <= 29 &&
	    np->np_pool_prefix <= np->np_prefix &&
	    np->np_prefix - np->np_pool_prefix <= NETPOOL_SLOT_BITS &&
	    (np->np_base & ~mask(np->np_pool_prefix)) == 0;
}

size_t
net_pool_slots(const struct net_pool *np)
{
	return (size_t)1 << (np->np_prefix - np->np_pool_prefix);
}

/* "a.b.c.d/p" as host-order address and prefix; -1 if not IPv4 CIDR. */
static int
parse_cidr(const char *s, uint32_t *addr, uint32_t *prefix)
{
	char		 a[INET_ADDRSTRLEN];
	const char	*slash;
	struct in_addr	 in;
	char		*end;
	long		 p;

	if (s == NULL || (slash = strchr(s, '/')) == NULL ||
	    (size_t)(slash - s) >= sizeof(a))
		return -1;
	memcpy(a, s, slash - s);
	a[slash - s] = '\0';
	p = strtol(slash + 1, &end, 10);
	if (inet_pton(AF_INET, a, &in) != 1 || *end != '\0' ||
	    end == slash + 1 || p < 0 || p > 32)
		return -1;
	*addr = ntohl(in.s_addr);
	*prefix = p;
	return 0;
}

void
net_pool_set(uint8_t *used, size_t slot)
{
	used[slot / 8] |= 1 << (slot % 8);
}

/*
 * Marks the slots [addr/prefix] covers, where it meets the pool: whole
 * bytes at once, so that each of a listing's subnets costs at most a
 * bitmap's bytes, never a pass over every slot.
 */
static void
mark_range(const struct net_pool *np, uint32_t addr, uint32_t prefix,
    uint8_t *used)
{
	uint64_t	 lo, hi, plo, phi, s, e;
	uint32_t	 step = np->np_prefix;

	lo = addr & mask(prefix);
	hi = lo + ((uint64_t)1 << (32 - prefix)) - 1;
	plo = np->np_base;
	phi = plo + ((uint64_t)1 << (32 - np->np_pool_prefix)) - 1;
	if (hi < plo || lo > phi)
		return;
	if (lo < plo)
		lo = plo;
	if (hi > phi)
		hi = phi;
	s = (lo - plo) >> (32 - step);
	e = (hi - plo) >> (32 - step);
	for (; s <= e && s % 8 != 0; s++)
		net_pool_set(used, s);
	if (s + 8 <= e + 1) {
		memset(&used[s / 8], 0xff, (e + 1 - s) / 8);
		s += (e + 1 - s) / 8 * 8;
	}
	for (; s <= e; s++)
		net_pool_set(used, s);
}

int
net_pool_mark(const json_t *networks, const struct net_pool *np,
    uint8_t *used)
{
	const json_t	*n, *c;
	size_t		 i, j;
	uint32_t	 addr, prefix;

	if (!json_is_array(networks))
		return -1;
	json_array_foreach(networks, i, n)
		json_array_foreach(json_object_get(json_object_get(n, "IPAM"),
		    "Config"), j, c)
			if (parse_cidr(json_string_value(json_object_get(c,
			    "Subnet")), &addr, &prefix) == 0)
				mark_range(np, addr, prefix, used);
	return 0;
}

int
net_pool_mark_body(const void *body, size_t len, const struct net_pool *np,
    uint8_t *used)
{
	json_t	*o = NULL;
	int	 rc;

	if (body != NULL)
		o = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
	rc = net_pool_mark(o, np, used);
	json_decref(o);
	return rc;
}

long
net_pool_pick(const uint8_t *used, size_t nslots, size_t start)
{
	size_t	 i, s;

	for (i = 0; i < nslots; i++) {
		s = (start + i) % nslots;
		if ((used[s / 8] & (1 << (s % 8))) == 0)
			return (long)s;
	}
	return -1;
}

int
net_pool_cidr(const struct net_pool *np, size_t slot, char *buf, size_t len)
{
	uint32_t	 a = np->np_base + ((uint32_t)slot << (32 - np->np_prefix));
	int		 n;

	if (slot >= net_pool_slots(np))
		return -1;
	n = snprintf(buf, len, "%u.%u.%u.%u/%u", a >> 24, (a >> 16) & 0xff,
	    (a >> 8) & 0xff, a & 0xff, np->np_prefix);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
net_pool_holds(const struct net_pool *np, const char *cidr)
{
	uint32_t	 addr, prefix;

	return parse_cidr(cidr, &addr, &prefix) == 0 &&
	    prefix == np->np_prefix && (addr & ~mask(prefix)) == 0 &&
	    (addr & mask(np->np_pool_prefix)) == np->np_base;
}
