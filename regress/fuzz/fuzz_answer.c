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


/* The engine's answers' fuzzers' input made an answer (fuzz_answer.h). */

#include <string.h>

#include "regress/fuzz/fuzz_answer.h"

json_t *
fuzz_answer(struct docker_parser *p, const uint8_t *data, size_t size)
{
	memset(p, 0, sizeof(*p));
	p->dp_status = data[0] & 0x80 ? 404 : 200;
	p->dp_body = (uint8_t *)data + 1;
	p->dp_body_len = size - 1;
	return json_loadb((const char *)data + 1, size - 1,
	    JSON_REJECT_DUPLICATES, NULL);
}
