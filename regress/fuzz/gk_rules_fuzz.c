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
 * fuzz-link: gatekeeper/spaced-gatekeeper/gk_rules.c
 *
 * The input is "<CONNECT target>\n<window path>" (without a newline both
 * are the whole input).  Every rule runs on it, and what they let
 * through is checked against invariants written independently of
 * gk_rules.c: an allowed target is a lowercase name that no address
 * parser reads, a path let through has no ".." at any depth of a
 * separate, simpler decoder, and the address block agrees with itself
 * across its embedded forms.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gatekeeper/spaced-gatekeeper/gk_rules.h"

#define CHECK(x)	do { if (!(x)) abort(); } while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	*allow_names[] = {
	"api.openai.com", "auth.openai.com", "example.com", "registry.npmjs.org",
};
static const struct gk_allowlist allow = { allow_names, 4 };

static void
check_allowed_name(const char *target, size_t len, const char *name,
    enum gk_mode mode)
{
	char		again[GK_NAME_MAX + 1];
	unsigned char	v6[16];
	struct in_addr	a;
	size_t		i, n;

	n = strlen(name);
	CHECK(n >= 3 && n <= GK_NAME_MAX);
	for (i = 0; i < n; i++)
		CHECK((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') ||
		    name[i] == '-' || name[i] == '.');
	CHECK(strchr(name, '.') != NULL);
	CHECK(gk_name_normalize(name, n, again, sizeof(again)) == 0);
	CHECK(strcmp(name, again) == 0);
	CHECK(inet_aton(name, &a) == 0);
	CHECK(inet_pton(AF_INET, name, &a) != 1);
	CHECK(inet_pton(AF_INET6, name, v6) != 1);
	CHECK(strcmp(name, "auth.openai.com") != 0);
	/* The target is the name, in any case, with at most one dot more. */
	CHECK(len > 4 && memcmp(target + len - 4, ":443", 4) == 0);
	CHECK(strncasecmp(target, name, n) == 0);
	CHECK(len == n + 4 || (len == n + 5 && target[n] == '.'));
	if (mode == GK_MODE_ALLOWLIST)
		CHECK(gk_allowlist_has(&allow, name));
}

static void
fuzz_target(const char *t, size_t len)
{
	char		name_a[GK_NAME_MAX + 1], name_o[GK_NAME_MAX + 1];
	char		*host, *port;
	enum gk_refusal	 ra, ro;
	int		 split;

	ra = gk_refuse_target(t, len, GK_MODE_ALLOWLIST, &allow, name_a,
	    sizeof(name_a));
	ro = gk_refuse_target(t, len, GK_MODE_OPEN, &allow, name_o,
	    sizeof(name_o));
	CHECK((ra == GK_ALLOW) == (strcmp(gk_refusal_str(ra), "allow") == 0));
	CHECK((ro == GK_ALLOW) == (strcmp(gk_refusal_str(ro), "allow") == 0));
	CHECK(ra != GK_DENY_BLOCKED_ADDRESS && ro != GK_DENY_BLOCKED_ADDRESS);
	CHECK(ro != GK_DENY_NOT_ON_ALLOWLIST);
	/* The modes differ only by the allowlist. */
	if (ra != GK_DENY_NOT_ON_ALLOWLIST)
		CHECK(ra == ro);
	else
		CHECK(ro == GK_ALLOW);
	if (ra == GK_ALLOW) {
		check_allowed_name(t, len, name_a, GK_MODE_ALLOWLIST);
		CHECK(strcmp(name_a, name_o) == 0);
	} else
		CHECK(name_a[0] == '\0');
	if (ro == GK_ALLOW)
		check_allowed_name(t, len, name_o, GK_MODE_OPEN);
	else
		CHECK(name_o[0] == '\0');
	/* Splitting agrees with the malformed verdict. */
	host = malloc(len + 1);
	port = malloc(len + 1);
	CHECK(host != NULL && port != NULL);
	split = gk_split_target(t, len, host, len + 1, port, len + 1);
	CHECK((split == 0) == (ro != GK_DENY_MALFORMED));
	if (ro == GK_ALLOW)
		CHECK(gk_port_ok(port) && strcmp(port, "443") == 0);
	free(host);
	free(port);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * The reference: a rest walks out when some decoding depth has a ".."
 * segment, a NUL, or an escape that does not decode.  Written as plain
 * string rebuilding, unlike the in-place rounds of gk_rules.c.
 */
static int
reference_walks_out(const char *rest, size_t len)
{
	char	*cur, *next, *seg;
	size_t	 i, n, start;
	int	 out = 0;

	if (len > GK_PATH_REST_MAX)
		return 1;
	cur = malloc(len + 1);
	CHECK(cur != NULL);
	memcpy(cur, rest, len);
	n = len;
	for (;;) {
		start = 0;
		for (i = 0; i <= n; i++) {
			if (i < n && cur[i] == '\0') {
				out = 1;
				goto done;
			}
			if (i < n && strchr("/\\;?#", cur[i]) == NULL)
				continue;
			seg = cur + start;
			if (i - start == 2 && seg[0] == '.' && seg[1] == '.') {
				out = 1;
				goto done;
			}
			start = i + 1;
		}
		next = malloc(n + 1);
		CHECK(next != NULL);
		for (i = 0, start = 0; i < n; i++) {
			if (cur[i] == '%') {
				if (n - i < 3) {
					free(next);
					out = 1;
					goto done;
				}
				if (hexval(cur[i + 1]) < 0 ||
				    hexval(cur[i + 2]) < 0) {
					free(next);
					out = 1;
					goto done;
				}
				next[start++] = hexval(cur[i + 1]) * 16 +
				    hexval(cur[i + 2]);
				i += 2;
			} else
				next[start++] = cur[i];
		}
		if (start == n && memcmp(next, cur, n) == 0) {
			free(next);
			goto done;
		}
		free(cur);
		cur = next;
		n = start;
	}
 done:
	free(cur);
	return out;
}

static void
fuzz_path(const char *p, size_t len)
{
	char		 id[GK_GRANT_ID_MAX + 1];
	const char	*rest;
	size_t		 restlen, i, idlen;
	int		 w;

	w = gk_grant_id_ok(p, len);
	CHECK(w == 0 || w == 1);
	if (w == 1)
		for (i = 0; i < len; i++)
			CHECK(strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    p[i]) != NULL && p[i] != '\0');

	w = gk_path_walks_out(p, len);
	CHECK(w == 0 || w == 1);
	CHECK(w == reference_walks_out(p, len));
	CHECK(gk_path_walks_out(p, len) == w);

	if (gk_window_split(p, len, id, sizeof(id), &rest, &restlen) == 0) {
		idlen = strlen(id);
		CHECK(idlen >= 1 && idlen <= GK_GRANT_ID_MAX);
		for (i = 0; i < idlen; i++)
			CHECK(strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    id[i]) != NULL && id[i] != '\0');
		CHECK(len >= 8 + idlen && memcmp(p, "/model/", 7) == 0);
		CHECK(memcmp(p + 7, id, idlen) == 0 && p[7 + idlen] == '/');
		CHECK(rest == p + 8 + idlen && restlen == len - 8 - idlen);
		/* Routed means control would have taken it: one rule. */
		CHECK(gk_grant_id_ok(id, idlen) == 1);
		CHECK(reference_walks_out(rest, restlen) ==
		    gk_path_walks_out(rest, restlen));
	}
}

/* The spec's IPv4 list again, by octets, apart from gk_rules.c's table. */
static int
reference_v4_blocked(const uint8_t *o)
{
	return o[0] == 0 || o[0] == 10 || o[0] == 127 || o[0] >= 224 ||
	    (o[0] == 100 && o[1] >= 64 && o[1] <= 127) ||
	    (o[0] == 169 && o[1] == 254) ||
	    (o[0] == 172 && o[1] >= 16 && o[1] <= 31) ||
	    (o[0] == 192 && o[1] == 0 && o[2] == 0) ||
	    (o[0] == 192 && o[1] == 168) ||
	    (o[0] == 198 && (o[1] == 18 || o[1] == 19));
}

static void
fuzz_addresses(const uint8_t *data, size_t len)
{
	struct sockaddr_storage	 ss[3];
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss[0];
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss[1];
	struct sockaddr_in6	*wrap = (struct sockaddr_in6 *)&ss[2];
	const uint8_t		*v6;
	size_t			 chosen;
	int			 b4, b6, bw;
	enum gk_refusal		 r;

	if (len < 4)
		return;
	memset(ss, 0, sizeof(ss));
	sin->sin_family = AF_INET;
	memcpy(&sin->sin_addr, data, 4);
	b4 = gk_addr_blocked((struct sockaddr *)sin);
	CHECK(b4 == reference_v4_blocked(data));

	/* The same IPv4 inside 6to4 gets the same verdict. */
	wrap->sin6_family = AF_INET6;
	wrap->sin6_addr.s6_addr[0] = 0x20;
	wrap->sin6_addr.s6_addr[1] = 0x02;
	memcpy(&wrap->sin6_addr.s6_addr[2], data, 4);
	bw = gk_addr_blocked((struct sockaddr *)wrap);
	CHECK(bw == b4);
	/* Mapped, NAT64 and Teredo are refused whatever they carry. */
	memset(&wrap->sin6_addr, 0, 16);
	wrap->sin6_addr.s6_addr[10] = wrap->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&wrap->sin6_addr.s6_addr[12], data, 4);
	CHECK(gk_addr_blocked((struct sockaddr *)wrap));
	memcpy(wrap->sin6_addr.s6_addr, "\x00\x64\xff\x9b", 4);
	memset(&wrap->sin6_addr.s6_addr[10], 0, 2);
	CHECK(gk_addr_blocked((struct sockaddr *)wrap));
	memcpy(wrap->sin6_addr.s6_addr, "\x20\x01\x00\x00", 4);
	CHECK(gk_addr_blocked((struct sockaddr *)wrap));

	if (len < 16)
		return;
	v6 = data + len - 16;
	sin6->sin6_family = AF_INET6;
	memcpy(&sin6->sin6_addr, v6, 16);
	b6 = gk_addr_blocked((struct sockaddr *)sin6);
	if ((v6[0] & 0xe0) != 0x20)
		CHECK(b6);
	if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_SITELOCAL(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_MULTICAST(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) ||
	    IN6_IS_ADDR_V4COMPAT(&sin6->sin6_addr))
		CHECK(b6);

	r = gk_choose_address(ss, 2, &chosen);
	if (b4 || b6)
		CHECK(r == GK_DENY_BLOCKED_ADDRESS);
	else
		CHECK(r == GK_ALLOW && chosen == 0);
	r = gk_choose_address(&ss[1], 1, &chosen);
	CHECK(r == (b6 ? GK_DENY_BLOCKED_ADDRESS : GK_ALLOW));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data, *nl;
	char		*withport;
	size_t		 tlen;

	nl = memchr(s, '\n', size);
	tlen = nl != NULL ? (size_t)(nl - s) : size;
	fuzz_target(s, tlen);
	/* The same host with the one port that passes, so names get far. */
	if ((withport = malloc(tlen + 4)) != NULL) {
		memcpy(withport, s, tlen);
		memcpy(withport + tlen, ":443", 4);
		fuzz_target(withport, tlen + 4);
		free(withport);
	}
	if (nl != NULL)
		fuzz_path(nl + 1, size - tlen - 1);
	else
		fuzz_path(s, size);
	fuzz_addresses(data, size);
	return 0;
}
