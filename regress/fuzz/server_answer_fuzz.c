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
 * fuzz-link: gatekeeper/spaced-journal/server_parse.c common/proto/space_server.c
 *
 * The input is what a space's server and its token file can make the
 * host read: the first byte picks the exec's flags and exit code, then
 * stdout and stderr split at the second byte's proportion.
 * Invariants: an answer's headers and body lie inside stdout, the body
 * ends where stdout ends, every header name is lowercase and every
 * value is found again by its name; a token that was taken is 32..128
 * base64url characters.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/server_parse.h"

#define CHECK(x)	do { if (!(x)) abort(); } while (0)

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct server_answer	 sa;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct server_exec_msg	 se;
	const char		*code, *name;
	char			 tok[SERVER_TOKEN_MAX + 1];
	size_t			 cut, i, n, len;
	uint32_t		 k;

	if (size < 2)
		return 0;
	memset(&se, 0, sizeof(se));
	se.se_timedout = data[0] & 1;
	se.se_truncated = (data[0] >> 1) & 1;
	se.se_exit = (data[0] >> 2) == 63 ? -1 : (data[0] >> 2);
	data += 2;
	len = size - 2;
	cut = len * data[-1] / 255;
	se.se_outlen = (uint32_t)cut;
	se.se_errlen = (uint32_t)(len - cut);
	if (server_answer_parse(&se, data, data + cut, &sa, &code) ==
	    SERVER_ANSWER) {
		CHECK(code == NULL);
		CHECK(sa.sa_body + sa.sa_bodylen == cut);
		CHECK(sa.sa_status >= 200 && sa.sa_status <= 999);
		CHECK(sa.sa_nheaders <= SERVER_HEADER_LINES_MAX);
		for (k = 0; k < sa.sa_nheaders; k++) {
			name = sa.sa_hbuf + sa.sa_headers[k].sh_name;
			CHECK(strlen(name) == sa.sa_headers[k].sh_namelen);
			for (i = 0; name[i] != '\0'; i++)
				CHECK(name[i] < 'A' || name[i] > 'Z');
			n = server_header_count(&sa, name);
			CHECK(n >= 1 && server_header_value(&sa, name, n - 1)
			    != NULL && server_header_value(&sa, name, n) ==
			    NULL);
		}
		(void)server_ready(&sa, data, sa.sa_status, "healthy");
	} else
		CHECK(code != NULL);
	if (server_token_parse(&se, data, tok, &code) == 0) {
		n = strlen(tok);
		CHECK(n >= SERVER_TOKEN_MIN && n <= SERVER_TOKEN_MAX);
		CHECK(strspn(tok, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == n);
	}
	return 0;
}
