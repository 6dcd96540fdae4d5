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
#include <unistd.h>

#include "ctl_proto.h"
#include "labels.h"
#include "spacectl.h"
#include "spacectl_output.h"

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
	cr.cr_type = type;
	cr.cr_payload = p;
	cr.cr_len = len;
	cr.cr_data = gk_data;
	ctl_call(&cr);
	out_empty();
	return 0;
}

int
network_main(int argc, char *argv[])
{
	static struct ctl_network	 cn;
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

/* Byte by byte: nothing past the first newline is ours to take. */
static void
read_secret(struct ctl_grant *cg)
{
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
}

int
grant_main(int argc, char *argv[])
{
	static struct ctl_grant	 cg;
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
	read_secret(&cg);
	rv = gk_call(IMSG_CTL_GRANT, &cg, sizeof(cg));
	explicit_bzero(&cg, sizeof(cg));
	return rv;
}
