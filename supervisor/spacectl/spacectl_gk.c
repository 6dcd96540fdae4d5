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
 * The gatekeeper's control channel: network and grant.  A grant's
 * secret is read from stdin up to its first newline, never from an
 * argument (argv shows in ps), and leaves this process only as payload.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

/*
 * The gatekeeper's rules (gk_rules.c, control.c), checked here first so
 * that a refusal names what is wrong; the gatekeeper stays the judge.
 */
#define GK_NAME_MAX	253
#define GK_LABEL_MAX	63
#define GK_GRANT_ID_MAX	64
#define GK_HEADER_MAX	128

static int
ldh(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-';
}

/* Why the corridor would never take name d, or NULL. */
static const char *
domain_why(const char *d)
{
	size_t	 n = strlen(d), i, start = 0, labels = 0;

	if (n > 0 && d[n - 1] == '.')
		n--;
	if (n == 0 || n > GK_NAME_MAX)
		return "a name is 1-253 bytes";
	for (i = 0; i <= n; i++) {
		if (i < n && d[i] != '.') {
			if (!ldh(d[i]))
				return "a name holds letters, digits, '-' "
				    "and '.' only";
			continue;
		}
		if (i == start || i - start > GK_LABEL_MAX)
			return "each label between dots is 1-63 bytes";
		if (d[start] == '-' || d[i - 1] == '-')
			return "a label neither starts nor ends with '-'";
		labels++;
		if (i == n && (strspn(d + start, "0123456789") >= i - start ||
		    (i - start >= 2 && d[start] == '0' &&
		    (d[start + 1] == 'x' || d[start + 1] == 'X'))))
			return "it ends like an address: the allowlist holds "
			    "names";
		start = i + 1;
	}
	if (labels < 2)
		return "a name has two labels at least (example.com)";
	return NULL;
}

/* The answer is END, or DATA done and FAIL. */
static void
gk_data(struct ctl_req *cr, struct imsg *imsg)
{
	if (!ctl_take_done(cr, imsg))
		failed("bad_answer", NULL);
}

static int
gk_call(uint32_t type, const void *p, size_t len)
{
	struct ctl_req	 cr;

	memset(&cr, 0, sizeof(cr));
	ctl_req_set(&cr, type, p, len, NULL, gk_data);
	ctl_call(&cr);
	out_empty();
	return 0;
}

int
network_main(int argc, char *argv[])
{
	static struct ctl_network	 cn;
	const char			*why;
	char				 msg[512];
	size_t				 off = 0, n;
	int				 i;

	if (argc < 3)
		usage();
	memset(&cn, 0, sizeof(cn));
	take_space_id(cn.cn_id, sizeof(cn.cn_id), argv[1]);
	if (strcmp(argv[2], "open") == 0) {
		if (argc != 3)
			usage();
		cn.cn_mode = CTL_NETWORK_OPEN;
	} else if (strcmp(argv[2], "allowlist") != 0)
		usage();
	for (i = 3; i < argc; i++) {
		if (argv[i][0] == '-') {
			(void)snprintf(msg, sizeof(msg), "network takes no "
			    "option: %.64s", argv[i]);
			usage_why(msg);
		}
		if ((why = domain_why(argv[i])) != NULL) {
			(void)snprintf(msg, sizeof(msg), "%.253s: %s",
			    argv[i], why);
			failed("invalid_domains", msg);
		}
		n = strlen(argv[i]) + 1;
		if (n == 1 || off + n > sizeof(cn.cn_domains))
			failed("invalid_domains", "empty, or more than "
			    "2 KiB of names");
		memcpy(cn.cn_domains + off, argv[i], n);
		off += n;
		cn.cn_ndomains++;
	}
	cn.cn_len = off;
	return gk_call(IMSG_CTL_NETWORK, &cn, sizeof(cn));
}

/* A secret is UTF-8 without control characters but tab. */
static const char *
secret_why(const char *s, size_t n)
{
	size_t	 i, len;

	for (i = 0; i < n; i += len) {
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') ||
		    s[i] == 0x7f)
			return "a control character (tab is the only one "
			    "taken)";
		if ((len = utf8_char_len((const unsigned char *)s + i,
		    n - i)) == 0)
			return "bytes that are not UTF-8";
	}
	return NULL;
}

/* Byte by byte: nothing past the first newline is ours to take. */
static void
read_secret(struct ctl_grant *cg)
{
	const char	*why;
	size_t	 n = 0;
	ssize_t	 r;
	char	 c;

	for (;;) {
		if ((r = read(0, &c, 1)) == -1) {
			if (errno == EINTR)
				continue;
			failed("invalid_secret", strerror(errno));
		}
		if (r == 0 || c == '\n')
			break;
		if (n >= sizeof(cg->cg_secret) - 1) {
			explicit_bzero(cg, sizeof(*cg));
			failed("invalid_secret", "longer than 1023 bytes");
		}
		cg->cg_secret[n++] = c;
	}
	if (n > 0 && cg->cg_secret[n - 1] == '\r')
		cg->cg_secret[--n] = '\0';
	if (n == 0)
		failed("invalid_secret", "no secret on stdin");
	if ((why = secret_why(cg->cg_secret, n)) != NULL) {
		explicit_bzero(cg, sizeof(*cg));
		failed("invalid_secret", why);
	}
}

/* Why the gatekeeper would refuse this grant's arguments, or NULL. */
static const char *
grant_why(const char *grant, const char *upstream, const char *header)
{
	static const char *const framing[] = { "host", "content-length",
	    "transfer-encoding", "connection" };
	size_t		 i;

	if (*grant == '\0' || strlen(grant) > GK_GRANT_ID_MAX ||
	    strspn(grant, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_") != strlen(grant))
		return "GRANT_ID is 1-64 letters, digits, '-' and '_'";
	if ((strncasecmp(upstream, "http://", 7) != 0 || upstream[7] == '\0') &&
	    (strncasecmp(upstream, "https://", 8) != 0 ||
	    upstream[8] == '\0'))
		return "UPSTREAM is an http:// or https:// URL";
	for (i = 0; upstream[i] != '\0'; i++)
		if ((unsigned char)upstream[i] <= 0x20 ||
		    (unsigned char)upstream[i] >= 0x7f ||
		    strchr("?#@\\", upstream[i]) != NULL)
			return "UPSTREAM has no space, user, query or "
			    "fragment, and ASCII only";
	if (*header == '\0' || strlen(header) > GK_HEADER_MAX ||
	    strspn(header, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789!#$%&'*+-.^_`|~") != strlen(header))
		return "HEADER is a header name (letters, digits and "
		    "!#$%&'*+-.^_`|~, 128 at most)";
	for (i = 0; i < sizeof(framing) / sizeof(framing[0]); i++)
		if (strcasecmp(header, framing[i]) == 0)
			return "HEADER may not be Host, Content-Length, "
			    "Transfer-Encoding or Connection";
	return NULL;
}

int
grant_main(int argc, char *argv[])
{
	static struct ctl_grant	 cg;
	const char		*why;
	int			 rv;

	if (argc != 5)
		usage();
	memset(&cg, 0, sizeof(cg));
	take_space_id(cg.cg_id, sizeof(cg.cg_id), argv[1]);
	if (strlcpy(cg.cg_grant, argv[2], sizeof(cg.cg_grant)) >=
	    sizeof(cg.cg_grant) ||
	    strlcpy(cg.cg_upstream, argv[3], sizeof(cg.cg_upstream)) >=
	    sizeof(cg.cg_upstream) ||
	    strlcpy(cg.cg_header, argv[4], sizeof(cg.cg_header)) >=
	    sizeof(cg.cg_header))
		failed("invalid_grant", "an argument is too long");
	if ((why = grant_why(cg.cg_grant, cg.cg_upstream, cg.cg_header)) !=
	    NULL)
		failed("invalid_grant", why);
	read_secret(&cg);
	rv = gk_call(IMSG_CTL_GRANT, &cg, sizeof(cg));
	explicit_bzero(&cg, sizeof(cg));
	return rv;
}
