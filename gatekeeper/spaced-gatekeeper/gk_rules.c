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
 * The gatekeeper's decisions, as pure functions over bytes a space sent.
 * Every function here reads only its arguments, touches no global and
 * does no I/O, and every loop is bounded by its input, which is itself
 * capped: a name by GK_NAME_MAX, a window path rest by GK_PATH_REST_MAX.
 * When in doubt a rule refuses: a space loses nothing it needs by a
 * refusal, and gains a way out by a mistaken allow.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gk_rules.h"

#define LABEL_MAX	63

const char *
gk_refusal_str(enum gk_refusal r)
{
	switch (r) {
	case GK_ALLOW:
		return "allow";
	case GK_DENY_MALFORMED:
		return "deny:malformed";
	case GK_DENY_NOT_A_NAME:
		return "deny:not-a-name";
	case GK_DENY_PORT:
		return "deny:port";
	case GK_DENY_ALWAYS_REFUSED:
		return "deny:always-refused";
	case GK_DENY_NOT_ON_ALLOWLIST:
		return "deny:not-on-allowlist";
	case GK_DENY_BLOCKED_ADDRESS:
		return "deny:blocked-address";
	}
	/* A value outside the enum is a bug; never let it read as allow. */
	return "deny:malformed";
}

static int
is_ldh(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-';
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int
hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static unsigned char
to_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

/*
 * The last label is what tells a name from an address: inet_aton(3) and
 * getaddrinfo(3) read "1746020849", "1.1.257", "0177.0.0.1" and
 * "0x1.0x1.0x1.0x1" as addresses, and every one of those ends in a label
 * of digits or in "0x" and hex digits.  A last label that starts with
 * "0x" is refused whatever follows: no top-level domain starts that way,
 * and glibc reads a bare "0x" as zero.
 */
static int
last_label_is_numeric(const char *label, size_t len)
{
	size_t	i;

	if (len >= 2 && label[0] == '0' && to_lower(label[1]) == 'x')
		return 1;
	for (i = 0; i < len; i++)
		if (!is_digit(label[i]))
			return 0;
	return 1;
}

/*
 * A name the corridor takes, and the only thing an allowlist may hold:
 * two or more LDH labels, the last no address, one trailing dot
 * stripped.  The lowercase name goes to out (GK_NAME_MAX + 1 bytes).
 */
int
gk_name_normalize(const char *in, size_t inlen, char *out, size_t outsz)
{
	size_t	 i, label_start, labels;

	if (in == NULL || out == NULL)
		return -1;
	/* Exactly one trailing dot is the root; a second one is an error. */
	if (inlen > 0 && in[inlen - 1] == '.')
		inlen--;
	if (inlen == 0 || inlen > GK_NAME_MAX || inlen + 1 > outsz)
		return -1;

	labels = 0;
	label_start = 0;
	for (i = 0; i <= inlen; i++) {
		if (i < inlen && in[i] != '.') {
			/* Any other byte (NUL, %, _, U+3002 in UTF-8) refuses. */
			if (!is_ldh(in[i]))
				return -1;
			continue;
		}
		/* The label in[label_start, i). */
		if (i == label_start || i - label_start > LABEL_MAX)
			return -1;
		if (in[label_start] == '-' || in[i - 1] == '-')
			return -1;
		labels++;
		if (i == inlen && last_label_is_numeric(in + label_start,
		    i - label_start))
			return -1;
		label_start = i + 1;
	}
	/* A single label has no last label that could tell it apart. */
	if (labels < 2)
		return -1;

	for (i = 0; i < inlen; i++)
		out[i] = to_lower(in[i]);
	out[inlen] = '\0';
	return 0;
}

/*
 * Find host and port in "host:port" or "[v6]:port" without copying, so
 * the rules can see a host longer than any buffer and refuse it by name.
 */
static int
split_target_span(const char *target, size_t len, const char **host,
    size_t *hostlen, const char **port, size_t *portlen)
{
	const char	*colon, *close;

	if (target == NULL || len == 0 || memchr(target, '\0', len) != NULL)
		return -1;
	if (target[0] == '[') {
		/*
		 * The host keeps its brackets: only an address is ever
		 * written that way, and "[example.com]" must not read as
		 * the name inside it.
		 */
		close = memchr(target, ']', len);
		if (close == NULL || close == target + 1 ||
		    (size_t)(close - target) + 1 >= len || close[1] != ':')
			return -1;
		*host = target;
		*hostlen = close - target + 1;
		colon = close + 1;
	} else {
		colon = memrchr(target, ':', len);
		if (colon == NULL || colon == target)
			return -1;
		*host = target;
		*hostlen = colon - target;
	}
	*port = colon + 1;
	*portlen = target + len - *port;
	/* No digits after the colon is no port at all. */
	if (*portlen == 0)
		return -1;
	return 0;
}

/* As split_target_span, copied and NUL-terminated; -1 when too long. */
int
gk_split_target(const char *target, size_t len, char *host, size_t hostsz,
    char *port, size_t portsz)
{
	const char	*h, *p;
	size_t		 hl, pl;

	if (host == NULL || port == NULL)
		return -1;
	if (split_target_span(target, len, &h, &hl, &p, &pl) == -1)
		return -1;
	if (hl + 1 > hostsz || pl + 1 > portsz)
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	memcpy(port, p, pl);
	port[pl] = '\0';
	return 0;
}

/*
 * Exactly the three bytes "443": strtonum(3) and friends would take
 * "0443", "+443" and " 443", and a 16-bit cast would take 65979.
 */
static int
port_span_ok(const char *port, size_t len)
{
	return len == 3 && memcmp(port, "443", 3) == 0;
}

int
gk_port_ok(const char *port)
{
	if (port == NULL)
		return 0;
	return port_span_ok(port, strlen(port));
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

int
gk_allowlist_has(const struct gk_allowlist *al, const char *name)
{
	if (al == NULL || al->al_names == NULL || al->al_count == 0 ||
	    name == NULL)
		return 0;
	return bsearch(&name, al->al_names, al->al_count,
	    sizeof(al->al_names[0]), name_cmp) != NULL;
}

void
gk_allowlist_sort(struct gk_allowlist *al)
{
	if (al == NULL || al->al_names == NULL || al->al_count < 2)
		return;
	qsort(al->al_names, al->al_count, sizeof(al->al_names[0]), name_cmp);
}

/*
 * Every rule that needs no lookup, in order: split (malformed), name
 * (not-a-name), port, always refused, allowlist (in allowlist mode).  On
 * GK_ALLOW the normalized name is in name (GK_NAME_MAX + 1 bytes); on a
 * refusal name is the empty string.
 */
enum gk_refusal
gk_refuse_target(const char *target, size_t len, enum gk_mode mode,
    const struct gk_allowlist *al, char *name, size_t namesz)
{
	const char	*host, *port;
	size_t		 hostlen, portlen;

	if (name == NULL || namesz < GK_NAME_MAX + 1)
		return GK_DENY_MALFORMED;
	name[0] = '\0';
	if (split_target_span(target, len, &host, &hostlen, &port,
	    &portlen) == -1)
		return GK_DENY_MALFORMED;
	if (gk_name_normalize(host, hostlen, name, namesz) == -1) {
		name[0] = '\0';
		return GK_DENY_NOT_A_NAME;
	}
	if (!port_span_ok(port, portlen)) {
		name[0] = '\0';
		return GK_DENY_PORT;
	}
	/* After normalization, so AUTH.OPENAI.COM. is the same name. */
	if (strcmp(name, GK_ALWAYS_REFUSED) == 0) {
		name[0] = '\0';
		return GK_DENY_ALWAYS_REFUSED;
	}
	if (mode != GK_MODE_OPEN && !gk_allowlist_has(al, name)) {
		name[0] = '\0';
		return GK_DENY_NOT_ON_ALLOWLIST;
	}
	return GK_ALLOW;
}

/* IPv4 ranges of the spec, host byte order. */
static const struct {
	uint32_t	net;
	unsigned int	prefix;
} blocked_v4[] = {
	{ 0x00000000, 8 },	/* 0.0.0.0/8 "this network" */
	{ 0x0a000000, 8 },	/* 10.0.0.0/8 private */
	{ 0x64400000, 10 },	/* 100.64.0.0/10 carrier-grade NAT */
	{ 0x7f000000, 8 },	/* 127.0.0.0/8 loopback */
	{ 0xa9fe0000, 16 },	/* 169.254.0.0/16 link-local, metadata */
	{ 0xac100000, 12 },	/* 172.16.0.0/12 private */
	{ 0xc0000000, 24 },	/* 192.0.0.0/24 IETF protocol assignments */
	{ 0xc0a80000, 16 },	/* 192.168.0.0/16 private */
	{ 0xc6120000, 15 },	/* 198.18.0.0/15 benchmarking */
	{ 0xe0000000, 4 },	/* 224.0.0.0/4 multicast */
	{ 0xf0000000, 4 },	/* 240.0.0.0/4 reserved, broadcast */
};

static int
v4_blocked(uint32_t a)
{
	size_t		i;
	uint32_t	mask;

	for (i = 0; i < sizeof(blocked_v4) / sizeof(blocked_v4[0]); i++) {
		mask = 0xffffffffU << (32 - blocked_v4[i].prefix);
		if ((a & mask) == blocked_v4[i].net)
			return 1;
	}
	return 0;
}

static uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * Only global unicast (2000::/3) is let out.  Everything below it is
 * refused whole, which covers the spec's ::, ::1, fc00::/7, fe80::/10 and
 * ff00::/8, the site-local fec0::/10, and ::ffff:0:0/96, ::/96 (IPv4
 * compatible), ::ffff:0:0:0/96 (IPv4 translated), 64:ff9b::/96 and
 * 64:ff9b:1::/48 (NAT64): those are stricter than the spec, which only
 * checked the IPv4 inside the first ones, and an answer in them is never
 * a public host on its own.  Inside 2000::/3, Teredo 2001:0::/32 is
 * refused whole because its client address is obfuscated, and 6to4
 * 2002::/16 is refused when the IPv4 in bits 16-47 is.
 */
static int
v6_blocked(const uint8_t *a)
{
	if ((a[0] & 0xe0) != 0x20)
		return 1;
	if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00)
		return 1;
	if (a[0] == 0x20 && a[1] == 0x02)
		return v4_blocked(be32_at(a + 2));
	return 0;
}

/* 1 when the address is in a blocked range (the tables above). */
int
gk_addr_blocked(const struct sockaddr *sa)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;

	if (sa == NULL)
		return 1;
	switch (sa->sa_family) {
	case AF_INET:
		sin = (const struct sockaddr_in *)sa;
		return v4_blocked(ntohl(sin->sin_addr.s_addr));
	case AF_INET6:
		sin6 = (const struct sockaddr_in6 *)sa;
		return v6_blocked(sin6->sin6_addr.s6_addr);
	default:
		/* A family we cannot judge is not one we connect to. */
		return 1;
	}
}

enum gk_refusal
gk_choose_address(const struct sockaddr_storage *answers, size_t n,
    size_t *chosen)
{
	size_t	i, pick;

	if (answers == NULL || n == 0)
		return GK_DENY_MALFORMED;
	/* Any blocked answer refuses all: the next lookup may pick it. */
	for (i = 0; i < n; i++)
		if (gk_addr_blocked((const struct sockaddr *)&answers[i]))
			return GK_DENY_BLOCKED_ADDRESS;
	pick = 0;
	for (i = 0; i < n; i++)
		if (answers[i].ss_family == AF_INET) {
			pick = i;
			break;
		}
	if (chosen != NULL)
		*chosen = pick;
	return GK_ALLOW;
}

/* 1 when one of the segments between / \ ; ? # is exactly "..". */
static int
has_dotdot_segment(const char *s, size_t len)
{
	size_t	i, start;

	start = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '/' && s[i] != '\\' && s[i] != ';' &&
		    s[i] != '?' && s[i] != '#')
			continue;
		if (i - start == 2 && s[start] == '.' && s[start + 1] == '.')
			return 1;
		start = i + 1;
	}
	return 0;
}

/*
 * One round of %XX decoding, in place.  Returns the new length, or -1 on
 * an escape that is not '%' and two hex digits.
 */
static ssize_t
decode_round(char *s, size_t len)
{
	size_t	i, o;
	int	hi, lo;

	for (i = 0, o = 0; i < len; i++, o++) {
		if (s[i] != '%') {
			s[o] = s[i];
			continue;
		}
		if (len - i < 3 || (hi = hex_value(s[i + 1])) == -1 ||
		    (lo = hex_value(s[i + 2])) == -1)
			return -1;
		s[o] = (char)(hi << 4 | lo);
		i += 2;
	}
	return (ssize_t)o;
}

/*
 * The window's path rule on <rest> of /model/<grant>/<rest>: decode
 * until a round decodes to itself (no '%' left), and refuse a ".."
 * segment (split on / \ ; ? #) before the first round and after every
 * one.  1 also for a bad escape, a NUL, or more than GK_PATH_REST_MAX.
 * No bound on the rounds, on purpose: a bound of three let a
 * four-times-encoded ".." through.  The cost: docs/perf.md.
 */
int
gk_path_walks_out(const char *rest, size_t len)
{
	char	buf[GK_PATH_REST_MAX];
	ssize_t	n;

	if (len == 0)
		return 0;
	if (rest == NULL || len > sizeof(buf))
		return 1;
	memcpy(buf, rest, len);
	for (;;) {
		/* A NUL, raw or decoded, ends a path early for some server. */
		if (memchr(buf, '\0', len) != NULL)
			return 1;
		if (has_dotdot_segment(buf, len))
			return 1;
		if (memchr(buf, '%', len) == NULL)
			return 0;
		if ((n = decode_round(buf, len)) == -1)
			return 1;
		len = (size_t)n;
	}
}

/*
 * The one rule for a grant id, for the control channel and the window
 * alike, so that no grant is taken that the window could never reach.
 */
int
gk_grant_id_ok(const char *id, size_t len)
{
	size_t	 i;

	if (id == NULL || len == 0 || len > GK_GRANT_ID_MAX)
		return 0;
	/* No '.': "." and ".." are dot segments clients fold away. */
	for (i = 0; i < len; i++)
		if (!is_ldh((unsigned char)id[i]) && id[i] != '_')
			return 0;
	return 1;
}

/* Split a window path "/model/<grant id>/<rest>"; rest points into path. */
int
gk_window_split(const char *path, size_t len, char *id, size_t idsz,
    const char **rest, size_t *restlen)
{
	static const char	 prefix[] = "/model/";
	const size_t		 plen = sizeof(prefix) - 1;
	const char		*p, *slash;
	size_t			 idlen;

	if (path == NULL || id == NULL || rest == NULL || restlen == NULL)
		return -1;
	if (len < plen || memcmp(path, prefix, plen) != 0)
		return -1;
	p = path + plen;
	/*
	 * The slash after the id is required: "/model/<id>" alone names no
	 * place on the upstream, and a request for the upstream's root is
	 * still "/model/<id>/".
	 */
	slash = memchr(p, '/', len - plen);
	if (slash == NULL)
		return -1;
	idlen = slash - p;
	if (!gk_grant_id_ok(p, idlen) || idlen + 1 > idsz)
		return -1;
	memcpy(id, p, idlen);
	id[idlen] = '\0';
	*rest = slash + 1;
	*restlen = path + len - *rest;
	return 0;
}
