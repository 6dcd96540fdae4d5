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
 * What the fuzzers of the engine's answers share (tools_answer_fuzz.c,
 * create_answers_fuzz.c): an input made an answer.  Its first byte picks
 * the reader and the room (each target's own), its top bit the status
 * (404, else 200); the rest is the engine's body.
 */

#ifndef FUZZ_ANSWER_H
#define FUZZ_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "worker-docker/docker_parse.h"

/*
 * p the answer of data (size at least 1), its body data's own; the body
 * as jansson reads it (the targets' own reading), or NULL.
 */
json_t	*fuzz_answer(struct docker_parser *p, const uint8_t *data,
	    size_t size);

#endif /* FUZZ_ANSWER_H */
