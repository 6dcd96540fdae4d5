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
 * The corridor's target rules: names only, port 443 only, the always
 * refused name, the allowlist.  Each refusal is tried with the spelling
 * that would get through without it, and the spellings that are
 * addresses are first shown to be addresses (inet_aton accepts them),
 * which is the positive control: without the name rule they walk out.
 */

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "gatekeeper/spaced-gatekeeper/gk_rules.h"

static enum gk_refusal
refuse_len(const char *target, size_t len, enum gk_mode mode,
    const struct gk_allowlist *al, char *name)
{
	return gk_refuse_target(target, len, mode, al, name, GK_NAME_MAX + 1);
}

static enum gk_refusal
refuse(const char *target, enum gk_mode mode, const struct gk_allowlist *al)
{
	char	name[GK_NAME_MAX + 1];

	return refuse_len(target, strlen(target), mode, al, name);
}

static char *
repeat(char c, size_t n)
{
	char	*s;

	s = malloc(n + 1);
	cr_assert_not_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* "<label of n bytes>.com" */
static char *
name_with_label(size_t n)
{
	char	*s;

	s = malloc(n + 5);
	cr_assert_not_null(s);
	memset(s, 'a', n);
	memcpy(s + n, ".com", 5);
	return s;
}

/* A name of exactly n bytes: labels of 63 joined by dots, then filler. */
static char *
name_of_length(size_t n)
{
	char	*s;
	size_t	 i;

	s = malloc(n + 1);
	cr_assert_not_null(s);
	for (i = 0; i < n; i++)
		s[i] = (i % 64 == 63) ? '.' : 'a';
	/* Never end on a dot or start a label with nothing. */
	if (s[n - 1] == '.')
		s[n - 1] = 'b';
	s[n] = '\0';
	return s;
}

/* Spellings of an address that getaddrinfo and inet_aton take. */
static const char *address_spellings[] = {
	"1746020849",		/* 104.21.x.x as one integer */
	"0x01010101",		/* 1.1.1.1 as hex */
	"1.1.257",		/* 1.1.1.1, last part 16 bits */
	"0x1.0x1.0x1.0x1",
	"0177.0.0.1",		/* 127.0.0.1 in octal */
	"127.1",
	"1.1.1.1",
	"127.0.0.1",
	"0",
	"0x7f.1",
	"017700000001",		/* 127.0.0.1 as one octal integer */
};

Test(target, address_spellings_are_addresses_positive_control)
{
	struct in_addr	a;
	size_t		i;

	for (i = 0; i < sizeof(address_spellings) /
	    sizeof(address_spellings[0]); i++)
		cr_expect(inet_aton(address_spellings[i], &a) == 1,
		    "control: inet_aton should read %s as an address",
		    address_spellings[i]);
}

Test(target, address_spellings_refused_as_not_a_name)
{
	char	t[128];
	size_t	i;

	for (i = 0; i < sizeof(address_spellings) /
	    sizeof(address_spellings[0]); i++) {
		snprintf(t, sizeof(t), "%s:443", address_spellings[i]);
		cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_DENY_NOT_A_NAME,
		    "%s must be refused as not a name", t);
	}
}

static const struct {
	const char		*target;
	enum gk_refusal		 want;
} refused[] = {
	{ "1746020849:443", GK_DENY_NOT_A_NAME },
	{ "0x01010101:443", GK_DENY_NOT_A_NAME },
	{ "1.1.257:443", GK_DENY_NOT_A_NAME },
	{ "0x1.0x1.0x1.0x1:443", GK_DENY_NOT_A_NAME },
	{ "0177.0.0.1:443", GK_DENY_NOT_A_NAME },
	{ "127.1:443", GK_DENY_NOT_A_NAME },
	{ "[::1]:443", GK_DENY_NOT_A_NAME },
	{ "[::ffff:127.0.0.1]:443", GK_DENY_NOT_A_NAME },
	{ "[example.com]:443", GK_DENY_NOT_A_NAME },
	{ "::1:443", GK_DENY_NOT_A_NAME },
	{ "1.1.1.1:443", GK_DENY_NOT_A_NAME },
	{ "8.8.8.8:443", GK_DENY_NOT_A_NAME },
	{ "localhost:443", GK_DENY_NOT_A_NAME },
	{ "localhost.:443", GK_DENY_NOT_A_NAME },
	{ "foo_bar.com:443", GK_DENY_NOT_A_NAME },
	{ "_srv.example.com:443", GK_DENY_NOT_A_NAME },
	{ "example.com..:443", GK_DENY_NOT_A_NAME },
	{ ".example.com:443", GK_DENY_NOT_A_NAME },
	{ ".:443", GK_DENY_NOT_A_NAME },
	{ "..:443", GK_DENY_NOT_A_NAME },
	{ "example\xe3\x80\x82" "com:443", GK_DENY_NOT_A_NAME }, /* U+3002 */
	{ "example\xef\xbc\x8e" "com:443", GK_DENY_NOT_A_NAME }, /* U+FF0E */
	{ "example\xef\xbd\xa1" "com:443", GK_DENY_NOT_A_NAME }, /* U+FF61 */
	{ "b\xc3\xbc" "cher.example:443", GK_DENY_NOT_A_NAME },
	{ "example%2ecom:443", GK_DENY_NOT_A_NAME },
	{ "exa mple.com:443", GK_DENY_NOT_A_NAME },
	{ " example.com:443", GK_DENY_NOT_A_NAME },
	{ "example.com :443", GK_DENY_NOT_A_NAME },
	{ "example.com/x:443", GK_DENY_NOT_A_NAME },
	{ "user@example.com:443", GK_DENY_NOT_A_NAME },
	{ "example.com:443:443", GK_DENY_NOT_A_NAME },
	{ "a..b.com:443", GK_DENY_NOT_A_NAME },
	{ "-a.com:443", GK_DENY_NOT_A_NAME },
	{ "a-.com:443", GK_DENY_NOT_A_NAME },
	{ "a.-b.com:443", GK_DENY_NOT_A_NAME },
	{ "a.com-:443", GK_DENY_NOT_A_NAME },
	{ "1.2.3.4.5:443", GK_DENY_NOT_A_NAME },
	{ "example.123:443", GK_DENY_NOT_A_NAME },
	{ "a.0177:443", GK_DENY_NOT_A_NAME },
	{ "a.0x1f:443", GK_DENY_NOT_A_NAME },
	{ "a.0X1F:443", GK_DENY_NOT_A_NAME },
	{ "a.0x:443", GK_DENY_NOT_A_NAME },
	{ "example.com:0443", GK_DENY_PORT },
	{ "example.com:+443", GK_DENY_PORT },
	{ "example.com:65979", GK_DENY_PORT },
	{ "example.com:80", GK_DENY_PORT },
	{ "example.com:8443", GK_DENY_PORT },
	{ "example.com:44", GK_DENY_PORT },
	{ "example.com:4430", GK_DENY_PORT },
	{ "example.com: ", GK_DENY_PORT },
	{ "example.com: 443", GK_DENY_PORT },
	{ "example.com:443 ", GK_DENY_PORT },
	{ "example.com:443/", GK_DENY_PORT },
	{ "example.com:0x1bb", GK_DENY_PORT },
	{ "example.com:-443", GK_DENY_PORT },
	{ "example.com:", GK_DENY_MALFORMED },
	{ ":443", GK_DENY_MALFORMED },
	{ "example.com", GK_DENY_MALFORMED },
	{ "", GK_DENY_MALFORMED },
	{ "[::1]", GK_DENY_MALFORMED },
	{ "[::1]443", GK_DENY_MALFORMED },
	{ "[::1:443", GK_DENY_MALFORMED },
	{ "[]:443", GK_DENY_MALFORMED },
	{ "auth.openai.com:443", GK_DENY_ALWAYS_REFUSED },
	{ "AUTH.OPENAI.COM.:443", GK_DENY_ALWAYS_REFUSED },
	{ "Auth.OpenAI.com:443", GK_DENY_ALWAYS_REFUSED },
};

Test(target, refused_spellings)
{
	size_t		i;
	enum gk_refusal	got;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		got = refuse(refused[i].target, GK_MODE_OPEN, NULL);
		cr_expect_eq(got, refused[i].want,
		    "open mode \"%s\": got %s, want %s", refused[i].target,
		    gk_refusal_str(got), gk_refusal_str(refused[i].want));
		got = refuse(refused[i].target, GK_MODE_ALLOWLIST, NULL);
		cr_expect_neq(got, GK_ALLOW, "allowlist mode \"%s\" allowed",
		    refused[i].target);
	}
}

static const struct {
	const char	*target;
	const char	*name;
} passing[] = {
	{ "example.com:443", "example.com" },
	{ "EXAMPLE.COM.:443", "example.com" },
	{ "Example.Com:443", "example.com" },
	{ "a-b.example.org:443", "a-b.example.org" },
	{ "xn--bcher-kva.example:443", "xn--bcher-kva.example" },
	{ "example.cafe:443", "example.cafe" },
	{ "1password.com:443", "1password.com" },
	{ "123.example.com:443", "123.example.com" },
	{ "api.openai.com:443", "api.openai.com" },
	{ "sub.auth.openai.com:443", "sub.auth.openai.com" },
	{ "auth.openai.com.evil.org:443", "auth.openai.com.evil.org" },
	{ "a.b:443", "a.b" },
	{ "x1.io:443", "x1.io" },
	{ "example.c0m:443", "example.c0m" },
	{ "0x1.example.com:443", "0x1.example.com" },
	{ "127.0.0.1.nip.io:443", "127.0.0.1.nip.io" },
	{ "a--b.example:443", "a--b.example" },
};

Test(target, names_pass_in_open_mode_normalized)
{
	char		name[GK_NAME_MAX + 1];
	size_t		i;
	enum gk_refusal	got;
	const char	*t;

	for (i = 0; i < sizeof(passing) / sizeof(passing[0]); i++) {
		t = passing[i].target;
		got = refuse_len(t, strlen(t), GK_MODE_OPEN, NULL, name);
		cr_expect_eq(got, GK_ALLOW, "\"%s\" refused: %s", t,
		    gk_refusal_str(got));
		cr_expect_str_eq(name, passing[i].name, "\"%s\"", t);
	}
}

Test(target, label_and_name_length_edges)
{
	char	*s, t[600], name[GK_NAME_MAX + 1];

	s = name_with_label(63);
	snprintf(t, sizeof(t), "%s:443", s);
	cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_ALLOW, "63-byte label");
	free(s);
	s = name_with_label(64);
	snprintf(t, sizeof(t), "%s:443", s);
	cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_DENY_NOT_A_NAME,
	    "64-byte label");
	free(s);

	s = name_of_length(253);
	cr_assert_eq(strlen(s), 253);
	snprintf(t, sizeof(t), "%s:443", s);
	cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_ALLOW, "253 bytes");
	/* The trailing dot does not count. */
	snprintf(t, sizeof(t), "%s.:443", s);
	cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_ALLOW, "253 bytes.");
	free(s);
	s = name_of_length(254);
	snprintf(t, sizeof(t), "%s:443", s);
	cr_expect_eq(refuse(t, GK_MODE_OPEN, NULL), GK_DENY_NOT_A_NAME,
	    "254 bytes");
	/* The cap is the name's, not the buffer's. */
	cr_expect_eq(gk_name_normalize(s, 254, t, sizeof(t)), -1,
	    "254 bytes into a large buffer");
	cr_expect_eq(gk_name_normalize(s, 253, t, sizeof(t)), 0);
	free(s);

	/* Far longer than any buffer: still judged as a name. */
	s = repeat('a', 5000);
	s[10] = '.';
	memcpy(s + 4996, ":443", 4);
	cr_expect_eq(refuse_len(s, 5000, GK_MODE_OPEN, NULL, name),
	    GK_DENY_NOT_A_NAME);
	free(s);
}

Test(target, nul_bytes_refused)
{
	char	name[GK_NAME_MAX + 1];
	char	t1[] = "example.com\0.evil:443";
	char	t2[] = "example.com:443\0";
	char	t3[] = "exa\0mple.com:443";

	cr_expect_neq(refuse_len(t1, sizeof(t1) - 1, GK_MODE_OPEN, NULL, name),
	    GK_ALLOW);
	cr_expect_neq(refuse_len(t2, sizeof(t2) - 1, GK_MODE_OPEN, NULL, name),
	    GK_ALLOW);
	cr_expect_neq(refuse_len(t3, sizeof(t3) - 1, GK_MODE_OPEN, NULL, name),
	    GK_ALLOW);
	/* Control: without the NUL the same length passes. */
	cr_expect_eq(refuse_len(t2, sizeof(t2) - 2, GK_MODE_OPEN, NULL, name),
	    GK_ALLOW);
}

Test(target, port_spellings_positive_control)
{
	/* What a lenient port parser would take as 443. */
	cr_expect_eq(strtol("0443", NULL, 10), 443);
	cr_expect_eq(strtol("+443", NULL, 10), 443);
	cr_expect_eq(strtol(" 443", NULL, 10), 443);
	cr_expect_eq((uint16_t)strtol("65979", NULL, 10), 443);
	cr_expect_eq(gk_port_ok("443"), 1);
	cr_expect_eq(gk_port_ok("0443"), 0);
	cr_expect_eq(gk_port_ok("+443"), 0);
	cr_expect_eq(gk_port_ok(" 443"), 0);
	cr_expect_eq(gk_port_ok("443 "), 0);
	cr_expect_eq(gk_port_ok("65979"), 0);
	cr_expect_eq(gk_port_ok(""), 0);
	cr_expect_eq(gk_port_ok(NULL), 0);
}

Test(target, rule_order)
{
	static char		*names[] = { "listed.com" };
	struct gk_allowlist	 al = { names, 1 };

	/* name before port */
	cr_expect_eq(refuse("1.1.1.1:80", GK_MODE_OPEN, NULL),
	    GK_DENY_NOT_A_NAME);
	/* port before always-refused */
	cr_expect_eq(refuse("auth.openai.com:80", GK_MODE_OPEN, NULL),
	    GK_DENY_PORT);
	/* port before allowlist */
	cr_expect_eq(refuse("other.com:80", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_PORT);
	/* always-refused before allowlist */
	cr_expect_eq(refuse("auth.openai.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_ALWAYS_REFUSED);
	cr_expect_eq(refuse("other.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
}

Test(target, allowlist_exact_match)
{
	static char		*names[] = {
		"zeta.example", "api.openai.com", "auth.openai.com",
		"example.com", "registry.npmjs.org",
	};
	struct gk_allowlist	 al = { names, 5 };
	char			 name[GK_NAME_MAX + 1];

	gk_allowlist_sort(&al);
	cr_assert_str_eq(names[0], "api.openai.com");

	cr_expect_eq(refuse("example.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_ALLOW);
	cr_expect_eq(refuse_len("EXAMPLE.com.:443", 16, GK_MODE_ALLOWLIST,
	    &al, name), GK_ALLOW);
	cr_expect_str_eq(name, "example.com");
	cr_expect_eq(refuse("zeta.example:443", GK_MODE_ALLOWLIST, &al),
	    GK_ALLOW);
	cr_expect_eq(refuse("api.openai.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_ALLOW);
	/* No suffix or prefix matching, no near misses. */
	cr_expect_eq(refuse("sub.example.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
	cr_expect_eq(refuse("example.com.evil.org:443", GK_MODE_ALLOWLIST,
	    &al), GK_DENY_NOT_ON_ALLOWLIST);
	cr_expect_eq(refuse("xample.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
	cr_expect_eq(refuse("example.co:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
	cr_expect_eq(refuse("npmjs.org:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
	/* Listed or not, auth.openai.com stays refused in both modes. */
	cr_expect_eq(refuse("auth.openai.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_ALWAYS_REFUSED);
	cr_expect_eq(refuse("auth.openai.com:443", GK_MODE_OPEN, &al),
	    GK_DENY_ALWAYS_REFUSED);
	/* Open mode: any name, listed or not. */
	cr_expect_eq(refuse("sub.example.com:443", GK_MODE_OPEN, &al),
	    GK_ALLOW);
	cr_expect_eq(refuse("example.com:443", GK_MODE_OPEN, &al), GK_ALLOW);
	/* A new gatekeeper: allowlist mode with nothing on it. */
	cr_expect_eq(refuse("example.com:443", GK_MODE_ALLOWLIST, NULL),
	    GK_DENY_NOT_ON_ALLOWLIST);
	al.al_count = 0;
	cr_expect_eq(refuse("example.com:443", GK_MODE_ALLOWLIST, &al),
	    GK_DENY_NOT_ON_ALLOWLIST);
}

Test(target, allowlist_has)
{
	static char		*names[] = { "a.com", "b.com", "c.com" };
	struct gk_allowlist	 al = { names, 3 };

	cr_expect(gk_allowlist_has(&al, "a.com"));
	cr_expect(gk_allowlist_has(&al, "b.com"));
	cr_expect(gk_allowlist_has(&al, "c.com"));
	cr_expect(!gk_allowlist_has(&al, "d.com"));
	cr_expect(!gk_allowlist_has(&al, "A.com"));
	cr_expect(!gk_allowlist_has(&al, "a.com."));
	cr_expect(!gk_allowlist_has(&al, ""));
	cr_expect(!gk_allowlist_has(&al, NULL));
	cr_expect(!gk_allowlist_has(NULL, "a.com"));
}

Test(target, name_buffer_cleared_on_refusal)
{
	char	name[GK_NAME_MAX + 1];

	memcpy(name, "stale", 6);
	cr_expect_eq(refuse_len("example.com:80", 14, GK_MODE_OPEN, NULL,
	    name), GK_DENY_PORT);
	cr_expect_str_eq(name, "");
	/* Too small a buffer is refused, never overrun. */
	cr_expect_eq(gk_refuse_target("example.com:443", 15, GK_MODE_OPEN,
	    NULL, name, 8), GK_DENY_MALFORMED);
}

Test(name, normalize)
{
	char	out[GK_NAME_MAX + 1];

	cr_expect_eq(gk_name_normalize("WWW.Example.COM.", 16, out,
	    sizeof(out)), 0);
	cr_expect_str_eq(out, "www.example.com");
	cr_expect_eq(gk_name_normalize("a.com..", 7, out, sizeof(out)), -1);
	cr_expect_eq(gk_name_normalize(".", 1, out, sizeof(out)), -1);
	cr_expect_eq(gk_name_normalize("", 0, out, sizeof(out)), -1);
	cr_expect_eq(gk_name_normalize("com", 3, out, sizeof(out)), -1);
	cr_expect_eq(gk_name_normalize("com.", 4, out, sizeof(out)), -1);
	/* Output that does not fit is refused. */
	cr_expect_eq(gk_name_normalize("example.com", 11, out, 11), -1);
	cr_expect_eq(gk_name_normalize("example.com", 11, out, 12), 0);
	/* Only inlen bytes are read. */
	cr_expect_eq(gk_name_normalize("example.com:443", 11, out,
	    sizeof(out)), 0);
	cr_expect_str_eq(out, "example.com");
	/* A normalized name normalizes to itself. */
	cr_expect_eq(gk_name_normalize(out, strlen(out), out, sizeof(out)), 0);
	cr_expect_str_eq(out, "example.com");
}

Test(split, target)
{
	char	host[64], port[8];

	cr_expect_eq(gk_split_target("example.com:443", 15, host,
	    sizeof(host), port, sizeof(port)), 0);
	cr_expect_str_eq(host, "example.com");
	cr_expect_str_eq(port, "443");
	cr_expect_eq(gk_split_target("[::1]:443", 9, host, sizeof(host),
	    port, sizeof(port)), 0);
	cr_expect_str_eq(host, "[::1]");
	cr_expect_str_eq(port, "443");
	cr_expect_eq(gk_split_target("a:b:443", 7, host, sizeof(host),
	    port, sizeof(port)), 0);
	cr_expect_str_eq(host, "a:b");
	cr_expect_eq(gk_split_target("example.com", 11, host, sizeof(host),
	    port, sizeof(port)), -1);
	cr_expect_eq(gk_split_target("example.com:", 12, host, sizeof(host),
	    port, sizeof(port)), -1);
	cr_expect_eq(gk_split_target(":443", 4, host, sizeof(host),
	    port, sizeof(port)), -1);
	/* Does not fit: refused, not cut. */
	cr_expect_eq(gk_split_target("example.com:443", 15, host, 11,
	    port, sizeof(port)), -1);
	cr_expect_eq(gk_split_target("example.com:443", 15, host, 12,
	    port, sizeof(port)), 0);
	cr_expect_eq(gk_split_target("example.com:44300", 17, host,
	    sizeof(host), port, 5), -1);
}

Test(refusal, strings)
{
	cr_expect_str_eq(gk_refusal_str(GK_ALLOW), "allow");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_MALFORMED), "deny:malformed");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_NOT_A_NAME),
	    "deny:not-a-name");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_PORT), "deny:port");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_ALWAYS_REFUSED),
	    "deny:always-refused");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_NOT_ON_ALLOWLIST),
	    "deny:not-on-allowlist");
	cr_expect_str_eq(gk_refusal_str(GK_DENY_BLOCKED_ADDRESS),
	    "deny:blocked-address");
	cr_expect_str_neq(gk_refusal_str((enum gk_refusal)99), "allow");
	cr_expect_leq(strlen(gk_refusal_str(GK_DENY_NOT_ON_ALLOWLIST)),
	    GK_JOURNAL_DECISION_MAX);
}
