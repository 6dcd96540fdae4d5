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

#ifndef SPACED_DOCKER_OPS_H
#define SPACED_DOCKER_OPS_H

/*
 * The operations of the Docker place, one row each: which message starts
 * it, which answers it, its calls and what it makes of their answers.
 */

#include <stddef.h>
#include <stdint.h>

#include "docker_req.h"

extern const struct docker_op	docker_exec_op;		/* docker_exec.c */
struct space_exec_resize;
void	docker_exec_resize(uint32_t peerid, const struct space_exec_resize *);
extern const struct docker_op	docker_logs_op;		/* docker_logs.c */
extern const struct docker_op	docker_space_ops[];	/* space_ops.c */
extern const size_t		docker_space_nops;
extern const struct docker_op	docker_tools_ops[];	/* tools_ops.c */
extern const size_t		docker_tools_nops;
extern const struct docker_op	docker_disk_op;		/* space_disk.c */

/* NULL when no operation starts with that message type. */
const struct docker_op	*docker_op_find(uint32_t type);

#endif /* SPACED_DOCKER_OPS_H */
