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

#ifndef REGRESS_DOCKER_INPROC_H
#define REGRESS_DOCKER_INPROC_H

/*
 * docker_req.c in the test process: a request on a private event loop,
 * run until it is answered, its answer captured instead of sent.
 */

#include <stddef.h>
#include <stdint.h>

#include "place_proto.h"

struct event_base;

/* The check operation over fd (taken), run to its answer. */
void	inproc_check(int fd, int timeout_ms, struct docker_check_msg *);

/* Answers captured since inproc_begin, the last one in *_last. */
extern int		 inproc_answers;
extern uint32_t		 inproc_last_type;
extern uint32_t		 inproc_last_peerid;
extern uint8_t		 inproc_last[16384];
extern size_t		 inproc_last_len;

/* GET /_ping then GET /version on one connection: "ok 2 200". */
struct docker_op;
extern const struct docker_op inproc_ping_version_op;

struct event_base	*inproc_begin(void);
void			 inproc_end(struct event_base *);

#endif /* REGRESS_DOCKER_INPROC_H */
