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
 * The outer networks' pool (issue 27, M4): what the engine's networks
 * take of it, the next free slot, and the checker of a network's subnet.
 */

#include <criterion/criterion.h>
#include <string.h>

#include "worker-docker/docker_harden.h"
#include "worker-docker/docker_netpool.h"
#include "harden_fixture.h"

/* 10.213.0.0/24 in /29s: 32 slots */
static const struct net_pool pool = { 0x0ad50000, 24, 29 };

Test(netpool, valid_pools)
{
	struct net_pool	 p = pool;

	cr_assert(net_pool_valid(&p));
	cr_assert_eq(net_pool_slots(&p), 32);
	p.np_base = 0x0ad50008;		/* host bits */
	cr_assert(!net_pool_valid(&p));
	p = pool;
	p.np_prefix = 30;
	cr_assert(!net_pool_valid(&p));
	p = (struct net_pool){ 0x0a000000, 8, 29 };	/* 2^21 slots */
	cr_assert(!net_pool_valid(&p));
	p = (struct net_pool){ 0x0ad50000, 16, 29 };	/* 8192 */
	cr_assert(net_pool_valid(&p));
}

Test(netpool, engine_networks_mark_what_they_overlap)
{
	uint8_t		 used[NETPOOL_BITMAP];
	json_t		*nets;
	char		 cidr[NETPOOL_CIDR_MAX];

	memset(used, 0, sizeof(used));
	nets = json_loads("[{\"IPAM\":{\"Config\":["
	    "{\"Subnet\":\"10.213.0.0/29\"},{\"Subnet\":\"fd00::/64\"}]}},"
	    "{\"IPAM\":{\"Config\":[{\"Subnet\":\"10.213.0.16/28\"}]}},"
	    "{\"IPAM\":{\"Config\":[{\"Subnet\":\"10.213.0.200/30\"}]}},"
	    "{\"IPAM\":{\"Config\":[{\"Subnet\":\"172.17.0.0/16\"}]}},"
	    "{\"IPAM\":{\"Config\":null}}, {}]", 0, NULL);
	cr_assert_not_null(nets);
	cr_assert_eq(net_pool_mark(nets, &pool, used), 0);
	json_decref(nets);
	/* slot 0, slots 2 and 3 (a /28), slot 25 (.200/30) */
	cr_assert_eq(net_pool_pick(used, 32, 0), 1);
	cr_assert_eq(net_pool_pick(used, 32, 2), 4);
	cr_assert_eq(net_pool_pick(used, 32, 25), 26);
	cr_assert_eq(net_pool_cidr(&pool, 26, cidr, sizeof(cidr)), 0);
	cr_assert_str_eq(cidr, "10.213.0.208/29");
	/* a network over the whole pool takes every slot */
	nets = json_loads("[{\"IPAM\":{\"Config\":[{\"Subnet\":"
	    "\"10.0.0.0/8\"}]}}]", 0, NULL);
	cr_assert_eq(net_pool_mark(nets, &pool, used), 0);
	json_decref(nets);
	cr_assert_eq(net_pool_pick(used, 32, 7), -1);
	nets = json_object();
	cr_assert_eq(net_pool_mark(nets, &pool, used), -1);
	json_decref(nets);
}

Test(netpool, holds_only_its_own_slots)
{
	cr_assert(net_pool_holds(&pool, "10.213.0.8/29"));
	cr_assert(!net_pool_holds(&pool, "10.213.0.12/29"));	/* host bits */
	cr_assert(!net_pool_holds(&pool, "10.213.0.8/28"));
	cr_assert(!net_pool_holds(&pool, "10.213.1.8/29"));
	cr_assert(!net_pool_holds(&pool, "192.168.16.0/20"));
	cr_assert(!net_pool_holds(&pool, NULL));
	cr_assert(!net_pool_holds(&pool, "10.213.0.8"));
}

/* The checker: with a pool, exactly one subnet, a slot of it. */
Test(netpool, verify_names_a_subnet_outside_the_pool)
{
	struct harden_params	 p;
	struct harden_report	 r;
	json_t			*n;
	const char		*net = "{\"Name\":\"" FX_NET "\",\"Labels\":%s,"
	    "\"Driver\":\"bridge\",\"Internal\":false,\"EnableIPv6\":false,"
	    "\"Scope\":\"local\",\"Attachable\":false,\"Ingress\":false,"
	    "\"IPAM\":{\"Config\":[{\"Subnet\":\"%s\"}]}}";
	char			 buf[2048], *labels;
	json_t			*lo;
	const char		*subnets[] = { "10.213.0.8/29", "192.168.16.0/20",
	    "10.213.0.8/28" };
	size_t			 i;

	fx_params(&p);
	p.hp_pool = pool;
	lo = space_labels_build(&p.hp_meta, ROLE_NETWORK);
	labels = json_dumps(lo, JSON_COMPACT);
	json_decref(lo);
	for (i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), net, labels, subnets[i]);
		cr_assert_not_null(n = json_loads(buf, 0, NULL));
		harden_report_init(&r);
		harden_verify_network(n, &p, &r);
		json_decref(n);
		cr_assert_eq(harden_report_has(&r, "network_subnet"), i > 0,
		    "%s", subnets[i]);
		cr_assert_eq(r.hr_n, i > 0, "%s: %s", subnets[i],
		    r.hr_n ? r.hr_v[0].hv_check : "");
	}
	/* without a pool, whatever the engine gave (a space made before) */
	p.hp_pool.np_pool_prefix = 0;
	snprintf(buf, sizeof(buf), net, labels, subnets[1]);
	n = json_loads(buf, 0, NULL);
	harden_report_init(&r);
	harden_verify_network(n, &p, &r);
	json_decref(n);
	cr_assert_eq(r.hr_n, 0);
	free(labels);
}

/* The slots a subnet overlaps, one by one: what the marks must be. */
static void
mark_slowly(const struct net_pool *np, uint32_t addr, uint32_t prefix,
    uint8_t *used)
{
	uint64_t	 lo, hi, s0, s1;
	size_t		 s;

	lo = addr & (prefix == 0 ? 0 : 0xffffffffU << (32 - prefix));
	hi = lo + ((uint64_t)1 << (32 - prefix)) - 1;
	for (s = 0; s < net_pool_slots(np); s++) {
		s0 = np->np_base + ((uint64_t)s << (32 - np->np_prefix));
		s1 = s0 + ((uint64_t)1 << (32 - np->np_prefix)) - 1;
		if (s0 <= hi && lo <= s1)
			net_pool_set(used, s);
	}
}

/*
 * Whole bytes are marked at once: a subnet over the pool costs a
 * bitmap's bytes, not a pass over every slot (a listing of such took
 * seconds of the worker's).  The marks are those of one slot at a time.
 */
Test(netpool, marks_by_bytes_are_the_slots_overlapped)
{
	static const struct net_pool pools[] = {
		{ 0x0ad50000, 24, 29 }, { 0x0ad50000, 16, 29 },
		{ 0x0a000000, 16, 24 }, { 0x0ad50000, 20, 20 },
	};
	uint8_t		 used[NETPOOL_BITMAP], want[NETPOOL_BITMAP];
	char		 body[128];
	uint32_t	 addr, prefix;
	size_t		 i, k;

	srandom(7);
	for (i = 0; i < sizeof(pools) / sizeof(pools[0]); i++)
		for (k = 0; k < 2000; k++) {
			prefix = random() % 33;
			addr = pools[i].np_base + (uint32_t)(random() %
			    (1 << (32 - pools[i].np_pool_prefix + 2))) -
			    (1 << (32 - pools[i].np_pool_prefix));
			if (k % 50 == 0)
				addr = random();
			snprintf(body, sizeof(body), "[{\"IPAM\":{\"Config\":"
			    "[{\"Subnet\":\"%u.%u.%u.%u/%u\"}]}}]", addr >> 24,
			    (addr >> 16) & 0xff, (addr >> 8) & 0xff,
			    addr & 0xff, prefix);
			memset(used, 0, sizeof(used));
			memset(want, 0, sizeof(want));
			cr_assert_eq(net_pool_mark_body(body, strlen(body),
			    &pools[i], used), 0);
			mark_slowly(&pools[i], addr, prefix, want);
			cr_assert_arr_eq(used, want, sizeof(used), "%s in pool "
			    "%zu", body, i);
		}
	/* No answer, no list: -1. */
	cr_assert_eq(net_pool_mark_body(NULL, 0, &pools[0], used), -1);
	cr_assert_eq(net_pool_mark_body("{}", 2, &pools[0], used), -1);
	cr_assert_eq(net_pool_mark_body("[", 1, &pools[0], used), -1);
}

/* A listing at the call's cap of subnets over the whole pool. */
Test(netpool, a_full_listing_of_wide_subnets_takes_every_slot)
{
	static const struct net_pool big = { 0x0ad50000, 16, 29 };
	uint8_t		 used[NETPOOL_BITMAP];
	char		*b;
	size_t		 len = 0, i, cap = 8 * 1024 * 1024;

	cr_assert_not_null(b = malloc(cap));
	len += snprintf(b, cap, "[{\"IPAM\":{\"Config\":[");
	for (i = 0; len < cap - 64; i++)
		len += snprintf(b + len, cap - len, "%s{\"Subnet\":"
		    "\"0.0.0.0/0\"}", i > 0 ? "," : "");
	len += snprintf(b + len, cap - len, "]}}]");
	memset(used, 0, sizeof(used));
	cr_assert_eq(net_pool_mark_body(b, len, &big, used), 0);
	free(b);
	cr_assert_eq(net_pool_pick(used, net_pool_slots(&big), 0), -1);
}
