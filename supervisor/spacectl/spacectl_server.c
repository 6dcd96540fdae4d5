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
 * spacectl server and token: one request to the server inside a space,
 * and the space's token for its owner.  The body of a request comes
 * from stdin with -d, so no secret of it is in spacectl's argv either.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "spacectl.h"

struct server_call {
	int			 json;
	uint8_t			*body;
	size_t			 len;
	struct ctl_server_result cz;
	int			 have_result;
	struct ctl_token	 ct;
	int			 have_token;
};

static void
server_record(struct imsg *imsg, void *arg)
{
	struct server_call	*sc = arg;
	struct ctl_server_chunk	 ck;

	if (imsg_get_len(imsg) == sizeof(ck)) {
		(void)imsg_get_data(imsg, &ck, sizeof(ck));
		if (ck.ck_len == 0 || ck.ck_len > sizeof(ck.ck_data) ||
		    sc->len + ck.ck_len > (64 << 20))
			failed("bad_answer", "a body chunk");
		if ((sc->body = realloc(sc->body, sc->len + ck.ck_len)) == NULL)
			failed("internal_error", "out of memory");
		memcpy(sc->body + sc->len, ck.ck_data, ck.ck_len);
		sc->len += ck.ck_len;
	} else if (imsg_get_len(imsg) == sizeof(sc->cz)) {
		(void)imsg_get_data(imsg, &sc->cz, sizeof(sc->cz));
		sc->have_result = 1;
	} else if (imsg_get_len(imsg) == sizeof(sc->ct)) {
		(void)imsg_get_data(imsg, &sc->ct, sizeof(sc->ct));
		sc->ct.ct_token[sizeof(sc->ct.ct_token) - 1] = '\0';
		sc->have_token = 1;
	} else
		failed("bad_answer", "unknown record");
}

static __dead void
usage_server(void)
{
	fprintf(stderr, "usage: spacectl [-j] server ID [-d] [-T type] "
	    "METHOD PATH\n");
	exit(2);
}

int
server_main(int argc, char *argv[], const char *sockpath, int json)
{
	static struct ctl_server	 cv;
	struct server_call		 sc;
	const char			*ctype = NULL;
	ssize_t				 n;
	int				 ch, dflag = 0;

	memset(&cv, 0, sizeof(cv));
	memset(&sc, 0, sizeof(sc));
	if (argc < 2)
		usage_server();
	if (strlcpy(cv.cv_id, argv[1], sizeof(cv.cv_id)) >= sizeof(cv.cv_id))
		failed(ERR_BAD_REQUEST, "not a space id");
	argc--;
	argv++;
	optind = 1;
	while ((ch = getopt(argc, argv, "dT:")) != -1) {
		switch (ch) {
		case 'd':
			dflag = 1;
			break;
		case 'T':
			ctype = optarg;
			break;
		default:
			usage_server();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage_server();
	if (strlcpy(cv.cv_method, argv[0], sizeof(cv.cv_method)) >=
	    sizeof(cv.cv_method) ||
	    strlcpy(cv.cv_path, argv[1], sizeof(cv.cv_path)) >=
	    sizeof(cv.cv_path))
		failed(ERR_BAD_REQUEST, "method or path too long");
	if (dflag) {
		while (cv.cv_bodylen < sizeof(cv.cv_body) &&
		    (n = read(STDIN_FILENO, cv.cv_body + cv.cv_bodylen,
		    sizeof(cv.cv_body) - cv.cv_bodylen)) > 0)
			cv.cv_bodylen += n;
		if (cv.cv_bodylen == sizeof(cv.cv_body) &&
		    read(STDIN_FILENO, &ch, 1) > 0)
			failed(ERR_REQUEST_TOO_LARGE, "the body is over 2048 "
			    "bytes");
		if (ctype == NULL)
			ctype = "application/json";
	}
	if (ctype != NULL && strlcpy(cv.cv_content_type, ctype,
	    sizeof(cv.cv_content_type)) >= sizeof(cv.cv_content_type))
		failed(ERR_BAD_REQUEST, "content type too long");
	sc.json = json;
	ctl_call(connect_socket(sockpath), IMSG_CTL_SERVER, &cv, sizeof(cv),
	    json, server_record, &sc);
	if (!sc.have_result || sc.cz.cz_bodylen != sc.len)
		failed("bad_answer", "no whole answer");
	if (json)
		json_out(json_pack("{s:i, s:s%}", "status",
		    (int)sc.cz.cz_status, "body", sc.len > 0 ?
		    (const char *)sc.body : "", sc.len));
	else if (sc.len > 0 && fwrite(sc.body, 1, sc.len, stdout) != sc.len)
		failed("write", "stdout");
	free(sc.body);
	/* Any status is an answer; not 2xx says so in the exit code. */
	if (!json && (sc.cz.cz_status < 200 || sc.cz.cz_status > 299)) {
		fprintf(stderr, "spacectl: the server answered %u\n",
		    sc.cz.cz_status);
		return 3;
	}
	return 0;
}

int
token_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct ctl_space	 cs;
	struct server_call	 sc;

	if (argc != 2) {
		fprintf(stderr, "usage: spacectl [-j] token ID\n");
		exit(2);
	}
	memset(&cs, 0, sizeof(cs));
	memset(&sc, 0, sizeof(sc));
	if (strlcpy(cs.cs_id, argv[1], sizeof(cs.cs_id)) >= sizeof(cs.cs_id))
		failed(ERR_BAD_REQUEST, "not a space id");
	ctl_call(connect_socket(sockpath), IMSG_CTL_TOKEN, &cs, sizeof(cs),
	    json, server_record, &sc);
	if (!sc.have_token)
		failed("bad_answer", "no token");
	if (json)
		json_out(json_pack("{s:s}", "token", sc.ct.ct_token));
	else
		printf("%s\n", sc.ct.ct_token);
	explicit_bzero(&sc.ct, sizeof(sc.ct));
	return 0;
}
