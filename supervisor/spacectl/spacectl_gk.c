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
 * spacectl network ID allowlist|open [domain ...]
 * spacectl grant ID GRANT_ID UPSTREAM HEADER	(the secret on stdin)
 *
 * The secret is read from stdin up to its first newline, never from an
 * argument (argv shows in ps), and leaves this process only as payload.
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "labels.h"
#include "spacectl.h"

#define GK_WAIT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)

static __dead void
usage_gk(void)
{
	fprintf(stderr, "usage: spacectl [-j] network ID allowlist|open "
	    "[domain ...]\n"
	    "       spacectl [-j] grant ID GRANT_ID UPSTREAM HEADER "
	    "< secret\n");
	exit(2);
}

/* One request and its answer: END, or DATA done and FAIL. */
static int
gk_call(const char *sockpath, uint32_t type, const void *p, size_t len,
    int json)
{
	struct imsgbuf		 ibuf;
	struct imsg		 imsg;
	struct pollfd		 pfd;
	struct space_done	 sd;
	struct ctl_fail		 cf;
	ssize_t			 n;
	int			 s, have_done = 0;

	s = connect_socket(sockpath);
	imsgbuf_init(&ibuf, s);
	if (imsg_compose(&ibuf, type, CTL_PEERID(0), getpid(), -1, p, len) ==
	    -1 || imsgbuf_flush(&ibuf) == -1)
		failed("send", strerror(errno));
	pfd.fd = s;
	pfd.events = POLLIN;
	for (;;) {
		if ((n = poll(&pfd, 1, GK_WAIT_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0)
			request_failed(json, ERR_TIMEOUT, "spaced did not answer");
		if ((n = imsgbuf_read(&ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (n == 0)
			request_failed(json, "connection_closed", "spaced closed "
			    "the connection");
		while ((n = imsgbuf_get(&ibuf, &imsg)) > 0) {
			if (imsg_get_peerid(&imsg) != CTL_PEERID(0))
				failed("bad_answer", "another request's");
			switch (imsg_get_type(&imsg)) {
			case IMSG_CTL_PROGRESS:
				break;
			case IMSG_CTL_DATA:
				if (imsg_get_data(&imsg, &sd, sizeof(sd)) == -1)
					failed("bad_answer", NULL);
				sd.sd_message[sizeof(sd.sd_message) - 1] = '\0';
				have_done = 1;
				break;
			case IMSG_CTL_END:
				if (json)
					printf("{}\n");
				close(s);
				return 0;
			case IMSG_CTL_FAIL:
				if (imsg_get_data(&imsg, &cf, sizeof(cf)) == -1)
					failed("bad_answer", NULL);
				cf.cf_code[sizeof(cf.cf_code) - 1] = '\0';
				request_failed(json, cf.cf_code, have_done ?
				    sd.sd_message : NULL);
			default:
				failed("bad_answer", "unknown message");
			}
			imsg_free(&imsg);
		}
		if (n == -1)
			failed("bad_answer", strerror(errno));
	}
}

static void
take_id(char *dst, size_t len, const char *id)
{
	if (!space_id_valid(id))
		failed("invalid_space_id", "an ID is 12 lowercase hex "
		    "characters");
	strlcpy(dst, id, len);
}

int
network_main(int argc, char *argv[], const char *sockpath, int json)
{
	static struct ctl_network	 cn;
	size_t				 off = 0, n;
	int				 i;

	if (argc < 3)
		usage_gk();
	memset(&cn, 0, sizeof(cn));
	take_id(cn.cn_id, sizeof(cn.cn_id), argv[1]);
	if (strcmp(argv[2], "open") == 0) {
		if (argc != 3)
			usage_gk();
		cn.cn_mode = CTL_NETWORK_OPEN;
	} else if (strcmp(argv[2], "allowlist") != 0)
		usage_gk();
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
	return gk_call(sockpath, IMSG_CTL_NETWORK, &cn, sizeof(cn), json);
}

int
grant_main(int argc, char *argv[], const char *sockpath, int json)
{
	static struct ctl_grant	 cg;
	size_t			 n = 0;
	ssize_t			 r;
	char			 c;
	int			 rv;

	if (argc != 5)
		usage_gk();
	memset(&cg, 0, sizeof(cg));
	take_id(cg.cg_id, sizeof(cg.cg_id), argv[1]);
	if (strlcpy(cg.cg_grant, argv[2], sizeof(cg.cg_grant)) >=
	    sizeof(cg.cg_grant) ||
	    strlcpy(cg.cg_upstream, argv[3], sizeof(cg.cg_upstream)) >=
	    sizeof(cg.cg_upstream) ||
	    strlcpy(cg.cg_header, argv[4], sizeof(cg.cg_header)) >=
	    sizeof(cg.cg_header))
		failed("invalid_grant", "an argument is too long");
	/* Byte by byte: nothing past the first newline is ours to take. */
	for (;;) {
		if ((r = read(0, &c, 1)) == -1) {
			if (errno == EINTR)
				continue;
			failed("invalid_secret", strerror(errno));
		}
		if (r == 0 || c == '\n')
			break;
		if (n >= sizeof(cg.cg_secret) - 1) {
			explicit_bzero(&cg, sizeof(cg));
			failed("invalid_secret", "longer than 1023 bytes");
		}
		cg.cg_secret[n++] = c;
	}
	if (n > 0 && cg.cg_secret[n - 1] == '\r')
		cg.cg_secret[--n] = '\0';
	if (n == 0)
		failed("invalid_secret", "no secret on stdin");
	rv = gk_call(sockpath, IMSG_CTL_GRANT, &cg, sizeof(cg), json);
	explicit_bzero(&cg, sizeof(cg));
	return rv;
}
