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
 * The resolved-address block: each range with its first and last
 * address inside and the neighbours just outside (the positive control:
 * the address next door is let out), every embedded IPv4 form, and the
 * public addresses that must stay reachable.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <string.h>

#include <criterion/criterion.h>

#include "gatekeeper/spaced-gatekeeper/gk_rules.h"

static struct sockaddr_storage
ss_of(const char *addr)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(443);
	} else if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(443);
	} else
		cr_assert_fail("test address %s does not parse", addr);
	return ss;
}

static int
blocked(const char *addr)
{
	struct sockaddr_storage	ss = ss_of(addr);

	return gk_addr_blocked((struct sockaddr *)&ss);
}

/*
 * Each range: first, last, and the neighbours below and above when
 * those lie outside every blocked range (NULL when they do not).
 */
static const struct {
	const char	*range, *first, *last, *below, *above;
} v4_ranges[] = {
	{ "0.0.0.0/8", "0.0.0.0", "0.255.255.255", NULL, "1.0.0.0" },
	{ "10.0.0.0/8", "10.0.0.0", "10.255.255.255", "9.255.255.255",
	    "11.0.0.0" },
	{ "100.64.0.0/10", "100.64.0.0", "100.127.255.255",
	    "100.63.255.255", "100.128.0.0" },
	{ "127.0.0.0/8", "127.0.0.0", "127.255.255.255", "126.255.255.255",
	    "128.0.0.0" },
	{ "169.254.0.0/16", "169.254.0.0", "169.254.255.255",
	    "169.253.255.255", "169.255.0.0" },
	{ "172.16.0.0/12", "172.16.0.0", "172.31.255.255", "172.15.255.255",
	    "172.32.0.0" },
	{ "192.0.0.0/24", "192.0.0.0", "192.0.0.255", "191.255.255.255",
	    "192.0.1.0" },
	{ "192.168.0.0/16", "192.168.0.0", "192.168.255.255",
	    "192.167.255.255", "192.169.0.0" },
	{ "198.18.0.0/15", "198.18.0.0", "198.19.255.255", "198.17.255.255",
	    "198.20.0.0" },
	{ "224.0.0.0/4", "224.0.0.0", "239.255.255.255", "223.255.255.255",
	    NULL },
	{ "240.0.0.0/4", "240.0.0.0", "255.255.255.255", NULL, NULL },
};

Test(addr, v4_ranges_and_edges)
{
	size_t	i;

	for (i = 0; i < sizeof(v4_ranges) / sizeof(v4_ranges[0]); i++) {
		cr_expect(blocked(v4_ranges[i].first), "%s: first %s let out",
		    v4_ranges[i].range, v4_ranges[i].first);
		cr_expect(blocked(v4_ranges[i].last), "%s: last %s let out",
		    v4_ranges[i].range, v4_ranges[i].last);
		if (v4_ranges[i].below != NULL)
			cr_expect(!blocked(v4_ranges[i].below),
			    "%s: %s below it blocked", v4_ranges[i].range,
			    v4_ranges[i].below);
		if (v4_ranges[i].above != NULL)
			cr_expect(!blocked(v4_ranges[i].above),
			    "%s: %s above it blocked", v4_ranges[i].range,
			    v4_ranges[i].above);
	}
}

static const char *v4_blocked_samples[] = {
	"127.0.0.1", "10.1.2.3", "172.17.0.1", "192.168.1.1",
	"169.254.169.254",	/* cloud metadata */
	"100.100.100.200",	/* Alibaba metadata, inside CGNAT */
	"0.0.0.0", "224.0.0.251", "255.255.255.255", "198.18.0.1",
	"192.0.0.170",
};

static const char *public_samples[] = {
	"1.1.1.1", "8.8.8.8", "9.9.9.9", "104.16.0.1",
	"192.0.2.1", "198.51.100.7", "203.0.113.5",	/* documentation */
	"2606:4700::1111", "2001:4860:4860::8888", "2001:db8::1",
	"2a00:1450:4001::1",
	"2000::",				/* first of 2000::/3 */
	"3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", /* last of 2000::/3 */
	"2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", /* just below Teredo */
	"2001:1::",				/* just above Teredo */
	"2001:ffff::1",
	"2002:0101:0101::1",			/* 6to4 of 1.1.1.1 */
	"2002:0808:0808::",			/* 6to4 of 8.8.8.8 */
	"2002:cb00:7105::1",			/* 6to4 of 203.0.113.5 */
	"2002:ac0f:ffff::",			/* 172.15.255.255 */
	"2002:ac20::",				/* 172.32.0.0 */
	"2003::1",
	"3fff::1",
};

Test(addr, blocked_and_public_samples)
{
	size_t	i;

	for (i = 0; i < sizeof(v4_blocked_samples) /
	    sizeof(v4_blocked_samples[0]); i++)
		cr_expect(blocked(v4_blocked_samples[i]), "%s let out",
		    v4_blocked_samples[i]);
	for (i = 0; i < sizeof(public_samples) / sizeof(public_samples[0]);
	    i++)
		cr_expect(!blocked(public_samples[i]), "public %s blocked",
		    public_samples[i]);
}

static const char *v6_blocked_samples[] = {
	"::", "::1",
	"fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fd12:3456::1",
	"fe80::", "fe80::1", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	"fec0::", "fec0::1", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	"ff00::", "ff02::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	/* IPv4-mapped, blocked whole: private and public inside alike */
	"::ffff:10.0.0.1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
	"::ffff:1.1.1.1",
	/* IPv4-compatible ::/96 and IPv4-translated ::ffff:0:0:0/96 */
	"::7f00:1", "::1.1.1.1", "::ffff:0:7f00:1", "::ffff:0:808:808",
	/* NAT64 64:ff9b::/96 and local-use 64:ff9b:1::/48, whole */
	"64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::808:808",
	"64:ff9b:1::1", "64:ff9b:1:ffff::808:808", "64:ff9b:1::7f00:1",
	/* Teredo 2001::/32, whole */
	"2001::", "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
	"2001:0:ffff:ffff:ffff:ffff:ffff:ffff",
	/* 6to4 2002::/16 with a blocked IPv4 in bits 16-47 */
	"2002:c0a8:0101::", "2002:c0a8:0101::1", "2002:0a00:0001::",
	"2002:7f00:0001::", "2002:a9fe:a9fe::", "2002:ac10::",
	"2002:ac1f:ffff:ffff:ffff:ffff:ffff:ffff", "2002::",
	"2002:e000::", "2002:ffff:ffff::",
	/* outside 2000::/3 */
	"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "4000::", "4000::1",
	"100::1", "8000::1", "e000::1",
};

Test(addr, v6_blocked)
{
	size_t	i;

	for (i = 0; i < sizeof(v6_blocked_samples) /
	    sizeof(v6_blocked_samples[0]); i++)
		cr_expect(blocked(v6_blocked_samples[i]), "%s let out",
		    v6_blocked_samples[i]);
}

/*
 * 6to4 checks the embedded IPv4 against the same list: every v4 range's
 * first and last address, wrapped, is blocked, and its public
 * neighbours wrapped are not.  The control is the neighbour: a 6to4
 * address as such is let out.
 */
Test(addr, sixtofour_embeds_every_v4_range)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	struct in_addr		 a;
	const char		*probe[4];
	size_t			 i, j;

	for (i = 0; i < sizeof(v4_ranges) / sizeof(v4_ranges[0]); i++) {
		probe[0] = v4_ranges[i].first;
		probe[1] = v4_ranges[i].last;
		probe[2] = v4_ranges[i].below;
		probe[3] = v4_ranges[i].above;
		for (j = 0; j < 4; j++) {
			if (probe[j] == NULL)
				continue;
			cr_assert_eq(inet_pton(AF_INET, probe[j], &a), 1);
			ss = ss_of("2002::1");
			memcpy(&sin6->sin6_addr.s6_addr[2], &a, 4);
			cr_expect_eq(gk_addr_blocked((struct sockaddr *)&ss),
			    j < 2, "6to4 of %s (%s)", probe[j],
			    v4_ranges[i].range);
		}
	}
}

Test(addr, other_families_blocked)
{
	struct sockaddr_un	sun;
	struct sockaddr_storage	ss;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	cr_expect(gk_addr_blocked((struct sockaddr *)&sun));
	memset(&ss, 0, sizeof(ss));
	ss.ss_family = AF_UNSPEC;
	cr_expect(gk_addr_blocked((struct sockaddr *)&ss));
	cr_expect(gk_addr_blocked(NULL));
}

Test(choose, prefers_first_ipv4)
{
	struct sockaddr_storage	a[4];
	size_t			chosen;

	a[0] = ss_of("2606:4700::1111");
	a[1] = ss_of("1.1.1.1");
	a[2] = ss_of("1.0.0.1");
	chosen = 99;
	cr_expect_eq(gk_choose_address(a, 3, &chosen), GK_ALLOW);
	cr_expect_eq(chosen, 1);

	a[0] = ss_of("8.8.8.8");
	a[1] = ss_of("8.8.4.4");
	cr_expect_eq(gk_choose_address(a, 2, &chosen), GK_ALLOW);
	cr_expect_eq(chosen, 0);

	/* IPv6 only: the first answer. */
	a[0] = ss_of("2606:4700::1111");
	a[1] = ss_of("2606:4700::1001");
	chosen = 99;
	cr_expect_eq(gk_choose_address(a, 2, &chosen), GK_ALLOW);
	cr_expect_eq(chosen, 0);
}

Test(choose, any_blocked_answer_refuses_all)
{
	struct sockaddr_storage	a[3];
	size_t			chosen;

	a[0] = ss_of("1.1.1.1");
	a[1] = ss_of("8.8.8.8");
	a[2] = ss_of("127.0.0.1");
	/* Control: the first two alone are let out. */
	cr_expect_eq(gk_choose_address(a, 2, &chosen), GK_ALLOW);
	cr_expect_eq(gk_choose_address(a, 3, &chosen),
	    GK_DENY_BLOCKED_ADDRESS);
	a[2] = ss_of("::ffff:10.0.0.1");
	cr_expect_eq(gk_choose_address(a, 3, &chosen),
	    GK_DENY_BLOCKED_ADDRESS);
	a[0] = ss_of("fe80::1");
	a[2] = ss_of("9.9.9.9");
	cr_expect_eq(gk_choose_address(a, 3, &chosen),
	    GK_DENY_BLOCKED_ADDRESS);
	cr_expect_eq(gk_choose_address(a, 0, &chosen), GK_DENY_MALFORMED);
	cr_expect_eq(gk_choose_address(NULL, 3, &chosen), GK_DENY_MALFORMED);
}
