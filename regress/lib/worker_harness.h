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

#ifndef REGRESS_DOCKER_HARNESS_H
#define REGRESS_DOCKER_HARNESS_H

/*
 * The real spaced-docker at its process boundary, as spaced drives it:
 * fork+exec with the channel on fd 3, requests with a connected fd to a
 * stand-in Engine (regress/tools/fake_engine).  Shared by the async
 * suite and regress/bench/docker_async.c; it asserts nothing, it
 * returns -1 and leaves the judging to the caller.  Also an engine's
 * answer as the unit tests of its readers make one (wh_answer).
 */

#include <sys/types.h>

#include <stdint.h>

#include "imsg.h"

struct docker_parser;

struct wh {
	pid_t		 wh_pid;
	struct imsgbuf	 wh_ibuf;
};

struct fe {
	pid_t		 fe_pid;
	char		 fe_dir[64];
};

/* The build's binaries: $SPACED_DOCKER_BIN and $FAKE_ENGINE_BIN win. */
const char	*wh_bin(const char *env, const char *rel);

/* Starts the worker and waits for IMSG_WORKER_READY; -1 on failure. */
int		 wh_start(struct wh *);
void		 wh_stop(struct wh *);
/* Sends a message (fd passed, then closed here; -1 for none). */
int		 wh_send(struct wh *, uint32_t type, uint32_t peerid, int fd);
/* Next message within ms: 1, 0 on timeout, -1 when the worker left. */
int		 wh_recv(struct wh *, struct imsg *, int ms);
/* Open fds of a process, from /proc; -1 when it is gone. */
int		 wh_nfds(pid_t);

/* A stand-in Engine answering after delay_ms, its sockets in a temp dir. */
int		 fe_start(struct fe *, int delay_ms);
void		 fe_stop(struct fe *);
/* A connection to the socket of one mode ("ok", "stall", ...). */
int		 fe_connect(const struct fe *, const char *mode);
/* GET /version requests (checks begun) the stand-in Engine has read. */
int		 fe_versions(const struct fe *);

/*
 * An answer of status whose body is a copy of body, as a step's take
 * reads it; the parser and the copy are the helper's, each call's
 * replacing the last's.
 */
struct docker_parser *wh_answer(int status, const char *body);
/* head, n times item (its %zu the index) joined by ",", tail; to free. */
char		*wh_many(const char *head, const char *item, size_t n,
		    const char *tail);

/* Monotonic microseconds. */
uint64_t	 wh_now_us(void);

#endif /* REGRESS_DOCKER_HARNESS_H */
