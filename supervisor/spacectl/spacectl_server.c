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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define SERVER_BODY_MAX	(64 << 20)

struct server_call {
	struct ctl_req		 sc_req;
	uint8_t			*sc_body;
	size_t			 sc_len;
	struct ctl_server_result sc_result;
	int			 sc_have_result;
};

static void
server_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct server_call	*sc = cr->cr_arg;
	struct ctl_server_chunk	 ck;

	if (ctl_take_done(cr, imsg))
		return;
	if (imsg_get_len(imsg) == sizeof(ck)) {
		ctl_read(imsg, &ck, sizeof(ck));
		if (ck.ck_len == 0 || ck.ck_len > sizeof(ck.ck_data) ||
		    sc->sc_len + ck.ck_len > SERVER_BODY_MAX)
			failed("bad_answer", "a body chunk");
		if ((sc->sc_body = realloc(sc->sc_body, sc->sc_len +
		    ck.ck_len)) == NULL)
			failed("internal_error", "out of memory");
		memcpy(sc->sc_body + sc->sc_len, ck.ck_data, ck.ck_len);
		sc->sc_len += ck.ck_len;
		return;
	}
	ctl_read(imsg, &sc->sc_result, sizeof(sc->sc_result));
	sc->sc_have_result = 1;
}

/* After the ID: [-d] [-T type] METHOD PATH, and the body from stdin. */
static void
server_args(int argc, char *argv[], struct ctl_server *cv)
{
	const char	*ctype = NULL;
	ssize_t		 n;
	int		 ch, dflag = 0;

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
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	if (strlcpy(cv->cv_method, argv[0], sizeof(cv->cv_method)) >=
	    sizeof(cv->cv_method) ||
	    strlcpy(cv->cv_path, argv[1], sizeof(cv->cv_path)) >=
	    sizeof(cv->cv_path))
		failed(ERR_BAD_REQUEST, "method or path too long");
	if (dflag) {
		while (cv->cv_bodylen < sizeof(cv->cv_body) &&
		    (n = read(STDIN_FILENO, cv->cv_body + cv->cv_bodylen,
		    sizeof(cv->cv_body) - cv->cv_bodylen)) > 0)
			cv->cv_bodylen += n;
		if (cv->cv_bodylen == sizeof(cv->cv_body) &&
		    read(STDIN_FILENO, &ch, 1) > 0)
			failed(ERR_REQUEST_TOO_LARGE, "the body is over 2048 "
			    "bytes");
		if (ctype == NULL)
			ctype = "application/json";
	}
	if (ctype != NULL && strlcpy(cv->cv_content_type, ctype,
	    sizeof(cv->cv_content_type)) >= sizeof(cv->cv_content_type))
		failed(ERR_BAD_REQUEST, "content type too long");
}

/*
 * One request to the server inside space id, for prompt and sessions:
 * the status, and the body in *body (malloc'd, NUL-terminated).
 */
unsigned int
server_call(const char *id, const char *method, const char *path,
    const char *body, uint8_t **out, size_t *outlen)
{
	static struct ctl_server	 cv;
	struct server_call		 sc;

	memset(&cv, 0, sizeof(cv));
	memset(&sc, 0, sizeof(sc));
	if (strlcpy(cv.cv_id, id, sizeof(cv.cv_id)) >= sizeof(cv.cv_id) ||
	    strlcpy(cv.cv_method, method, sizeof(cv.cv_method)) >=
	    sizeof(cv.cv_method) ||
	    strlcpy(cv.cv_path, path, sizeof(cv.cv_path)) >=
	    sizeof(cv.cv_path))
		failed(ERR_BAD_REQUEST, "space id, method or path too long");
	if (body != NULL) {
		if ((cv.cv_bodylen = strlen(body)) > sizeof(cv.cv_body))
			failed(ERR_REQUEST_TOO_LARGE, "the request is over "
			    "2048 bytes");
		memcpy(cv.cv_body, body, cv.cv_bodylen);
		strlcpy(cv.cv_content_type, "application/json",
		    sizeof(cv.cv_content_type));
	}
	ctl_req_set(&sc.sc_req, IMSG_CTL_SERVER, &cv, sizeof(cv), &sc,
	    server_data);
	ctl_call(&sc.sc_req);
	if (!sc.sc_have_result || sc.sc_result.cz_bodylen != sc.sc_len)
		failed("bad_answer", "no whole answer");
	if ((sc.sc_body = realloc(sc.sc_body, sc.sc_len + 1)) == NULL)
		failed("internal_error", "out of memory");
	sc.sc_body[sc.sc_len] = '\0';
	*out = sc.sc_body;
	*outlen = sc.sc_len;
	return sc.sc_result.cz_status;
}

int
server_main(int argc, char *argv[])
{
	static struct ctl_server	 cv;
	struct server_call		 sc;
	int				 rc;

	memset(&cv, 0, sizeof(cv));
	memset(&sc, 0, sizeof(sc));
	if (argc < 2)
		usage();
	take_space_id(cv.cv_id, sizeof(cv.cv_id), argv[1]);
	server_args(argc - 1, argv + 1, &cv);
	ctl_req_set(&sc.sc_req, IMSG_CTL_SERVER, &cv, sizeof(cv), &sc,
	    server_data);
	ctl_call(&sc.sc_req);
	if (!sc.sc_have_result || sc.sc_result.cz_bodylen != sc.sc_len)
		failed("bad_answer", "no whole answer");
	rc = out_server(sc.sc_result.cz_status, sc.sc_body, sc.sc_len);
	free(sc.sc_body);
	return rc;
}

struct token_call {
	struct ctl_token	 tc_token;
	int			 tc_have;
};

static void
token_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct token_call	*tc = cr->cr_arg;
	struct ctl_token	*ct = &tc->tc_token;

	if (ctl_take_done(cr, imsg))
		return;
	ctl_read(imsg, ct, sizeof(*ct));
	ct->ct_token[sizeof(ct->ct_token) - 1] = '\0';
	tc->tc_have = 1;
}

int
token_main(int argc, char *argv[])
{
	struct ctl_space	 cs;
	struct token_call	 tc;
	struct ctl_req		 cr;

	if (argc != 2)
		usage();
	memset(&cs, 0, sizeof(cs));
	memset(&tc, 0, sizeof(tc));
	memset(&cr, 0, sizeof(cr));
	take_space_id(cs.cs_id, sizeof(cs.cs_id), argv[1]);
	ctl_req_set(&cr, IMSG_CTL_TOKEN, &cs, sizeof(cs), &tc, token_data);
	ctl_call(&cr);
	if (!tc.tc_have)
		failed("bad_answer", "no token");
	out_token(tc.tc_token.ct_token);
	explicit_bzero(&tc, sizeof(tc));
	return 0;
}
