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

#ifndef SERVER_PARSE_H
#define SERVER_PARSE_H

/*
 * What spaced-journal makes of the answers of a space's server and of
 * its token file, all hostile (DESIGN.md rule 1): pure, one pass over
 * bounded input.  The framing: docs/notes/common-space-server.md.
 */

#include <stddef.h>
#include <stdint.h>

#include "space_server.h"

#define SERVER_TEXT_MAX		2000	/* of text from inside, in a message */

struct server_header {
	uint32_t	 sh_name;	/* offsets into sa_hbuf */
	uint32_t	 sh_namelen;
	uint32_t	 sh_value;
	uint32_t	 sh_valuelen;
};

struct server_answer {
	uint16_t	 sa_status;
	uint32_t	 sa_nheaders;
	struct server_header sa_headers[SERVER_HEADER_LINES_MAX];
	/* names lowercased, values trimmed, each NUL-terminated */
	char		 sa_hbuf[SERVER_HEADERS_MAX + SERVER_HEADER_LINES_MAX];
	size_t		 sa_body;	/* offset into the stdout given */
	size_t		 sa_bodylen;
};

enum server_verdict server_answer_parse(const struct server_exec_msg *,
	    const uint8_t *out, const uint8_t *err, struct server_answer *,
	    const char **code);
/* How many values the (lowercase) name has, and the i-th of them. */
size_t	 server_header_count(const struct server_answer *, const char *name);
const char *server_header_value(const struct server_answer *,
	    const char *name, size_t i);
int	 server_ready(const struct server_answer *, const uint8_t *out,
	    uint16_t status, const char *field);

int	 server_token_parse(const struct server_exec_msg *, const uint8_t *out,
	    char tok[SERVER_TOKEN_MAX + 1], const char **code);

#endif /* SERVER_PARSE_H */
