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

#ifndef SPACED_DOCKER_EXECCALL_H
#define SPACED_DOCKER_EXECCALL_H

/*
 * The three calls of an exec through the Engine API, shared by a
 * space's exec (docker_exec.c) and the tools one-shots
 * (tools_fill.c): the body of POST /containers/{id}/exec, its
 * answer, and the exit code in GET /exec/{id}/json.  The hijacked
 * stream between them is docker_req.c's stream mode and
 * docker_frames.c's reader.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "docker_parse.h"

#define EXEC_ID_MAX	100

/* argv and env (NULL: none) are taken; NULL on allocation failure. */
json_t	*docker_exec_body(json_t *argv, const char *user, json_t *env);
/* 0 and the exec's id (hex), or -1: not a 201 with a proper Id. */
int	 docker_exec_created(const struct docker_parser *, char *id,
	    size_t len);
/* 1 and *code when it exited, 0 while it runs, -1 not an answer. */
int	 docker_exec_exited(const struct docker_parser *, int *code);
/* 1 its process started (or is starting), 0 never, -1 not an answer. */
int	 docker_exec_started(const struct docker_parser *);
int	 docker_exec_never_ran(const struct docker_parser *);

/*
 * Ending an exec's command from inside its space: the command's first
 * process (the relay's subreaper, or the command bare) carries
 * EXEC_MARK_VAR=mark; the kill is a second exec, as the space's user,
 * that SIGKILLs every process below it, marked or of its session.
 */
#define EXEC_MARK_VAR	"SPACED_EXEC"
#define EXEC_MARK_LEN	32			/* hex */
#define EXEC_KILL_NONE	3			/* its exit: none found */
void	 docker_exec_mark(char *mark, size_t len);
/*
 * In a space that runs this key's relay, the command runs under its
 * subreaper (relay_exec.h): what it leaves while it runs stays its
 * wrapper's children, for the kill to find.
 */
int	 docker_exec_wraps(const json_t *inspect, const char *key);
json_t	*docker_exec_wrap(json_t *argv);
json_t	*docker_exec_mark_env(const char *mark);
json_t	*docker_exec_kill_body(const char *user, const char *mark);

/*
 * exec -t's size: what the client wants, what went to the engine, and
 * whether a resize is in flight.  It lives in the exec's state; the
 * resize child (docker_exec_resize.c), which dies with the exec, reads
 * it after each answer, so the last size wins.
 */
struct exec_tty {
	uint16_t	 want_rows, want_cols;
	uint16_t	 sent_rows, sent_cols;
	int		 busy;
};
struct exec_resize_req {
	char		 rz_api[24];
	char		 rz_exec_id[EXEC_ID_MAX];
	struct exec_tty	*rz_tty;
};
struct docker_op;
struct docker_req;
extern const struct docker_op	docker_exec_resize_op;
/* The exec's waiting resize child sends the size wanted now: 0, or -1. */
int	 docker_exec_resize_more(struct docker_req *);

/*
 * A bare exec's question while its first frame is held: did the engine
 * start its process (docker_exec_started)?  A child of the exec on a
 * connection of its own, one GET /exec/{id}/json; it answers that int.
 */
struct exec_started_req {
	char		 es_api[24];
	char		 es_exec_id[EXEC_ID_MAX];
};
extern const struct docker_op	docker_exec_started_op;

#endif /* SPACED_DOCKER_EXECCALL_H */
