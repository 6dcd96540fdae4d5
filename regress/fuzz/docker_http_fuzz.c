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
 * fuzz-link: worker-docker/docker_parse.c worker-docker/docker_check.c worker-docker/docker_env.c worker-docker/docker_http.c common/lib/log.c
 *
 * The Engine response parser and the /version extraction.  Input: two
 * bytes that seed how the answer is cut into pieces, then the answer.
 * The answer is parsed whole and in pieces; both must agree (the parser
 * is incremental, so a cut must never change the outcome).  A complete
 * body goes on to docker_version_parse, and so does the raw input, so
 * the JSON side is reached even without a valid HTTP frame.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "worker-docker/docker_check.h"
#include "worker-docker/docker_parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

struct result {
	enum docker_parse_rv	 rv;
	int			 status;
	size_t			 consumed;
	size_t			 body_len;
	uint8_t			*body;
};

static struct docker_parser	 parser;

static void
parse(const uint8_t *data, size_t len, uint32_t seed, struct result *r)
{
	size_t	 at = 0, piece, used;

	docker_parse_init(&parser, 64 * 1024);
	r->rv = DP_NEED_MORE;
	while (at < len && r->rv == DP_NEED_MORE) {
		if (seed == 0)
			piece = len - at;
		else {
			seed = seed * 1103515245 + 12345;
			piece = 1 + (seed >> 16) % 64;
			if (piece > len - at)
				piece = len - at;
		}
		r->rv = docker_parse_feed(&parser, data + at, piece, &used);
		if (r->rv == DP_NEED_MORE && used != piece)
			__builtin_trap();
		if (used > piece)
			__builtin_trap();
		r->consumed = at + used;
		at += piece;
	}
	if (r->rv == DP_NEED_MORE)
		r->rv = docker_parse_eof(&parser);
	r->status = parser.dp_status;
	r->body_len = parser.dp_body_len;
	if (parser.dp_body_len > 64 * 1024)
		__builtin_trap();
	r->body = parser.dp_body;	/* now ours */
	parser.dp_body = NULL;
	docker_parse_free(&parser);
}

static void
version(const void *body, size_t len)
{
	struct docker_check_msg	 m;
	char			 use[16];

	if (docker_version_parse(body, len, &m) == NULL) {
		if (m.dc_available != 1 ||
		    docker_api_negotiate(m.dc_api_version,
		    m.dc_min_api_version, use, sizeof(use)) != NULL)
			__builtin_trap();
	} else if (m.dc_available != 0 || m.dc_code[0] == '\0')
		__builtin_trap();
	if (memchr(m.dc_version, '\0', sizeof(m.dc_version)) == NULL ||
	    memchr(m.dc_api_version, '\0', sizeof(m.dc_api_version)) == NULL ||
	    memchr(m.dc_arch, '\0', sizeof(m.dc_arch)) == NULL)
		__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result	 whole, cut;
	uint32_t	 seed;

	if (size < 2)
		return 0;
	seed = data[0] | data[1] << 8 | 1;
	data += 2;
	size -= 2;

	parse(data, size, 0, &whole);
	parse(data, size, seed, &cut);
	if (whole.rv != cut.rv || whole.status != cut.status ||
	    whole.body_len != cut.body_len ||
	    (whole.rv == DP_COMPLETE && whole.consumed != cut.consumed) ||
	    (whole.body_len > 0 &&
	    memcmp(whole.body, cut.body, whole.body_len) != 0))
		__builtin_trap();
	if (whole.rv == DP_COMPLETE)
		version(whole.body, whole.body_len);
	version(data, size);
	free(whole.body);
	free(cut.body);
	return 0;
}
