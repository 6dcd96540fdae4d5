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

#ifndef SPACED_DOCKER_SPACE_H
#define SPACED_DOCKER_SPACE_H

/* The space operations' rows, for the op table (docker_ops.c). */

#include <stddef.h>

#include "docker_req.h"

extern const struct docker_op	docker_space_ops[];
extern const size_t		docker_space_nops;
extern const struct docker_op	docker_exec_op;
extern const struct docker_op	docker_logs_op;

/* cl's method, cap and path: api ("/v1.41") and then fmt. */
void	docker_call_fmt(struct docker_call *, const char *api,
	    const char *method, size_t cap, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/* Percent-encodes s for a query; -1 if it does not fit. */
int	docker_urlencode(const char *s, char *buf, size_t len);
/* The container ids and volume names we get back must be plain. */
int	docker_plain_ref(const char *);
/* The "message" of an engine's error answer, for a line of ours. */
void	engine_message(const struct docker_parser *, char *, size_t);

#endif /* SPACED_DOCKER_SPACE_H */
