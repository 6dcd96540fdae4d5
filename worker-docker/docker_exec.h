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

#ifndef SPACED_DOCKER_EXEC_H
#define SPACED_DOCKER_EXEC_H

/*
 * A space's exec (docker_exec.c, its calls) and its two streams
 * (docker_exec_stream.c): the state they share.  Nothing else uses it.
 */

#include <event2/buffer.h>

#include "imsg.h"
#include "place_proto.h"
#include "stream.h"
#include "docker_execcall.h"
#include "docker_frames.h"
#include "docker_req.h"

enum ex_step {
	E_VERSION, E_INSPECT, E_CREATE, E_START, E_EXIT,
	E_ASIDE,	/* no space container: only a move's aside one? */
	E_WHICH,	/* the command never ran: is its path there? */
	E_GK_SPACE,	/* no gatekeeper: is there a space of the caller's? */
	E_KILL_CREATE, E_KILL_START, E_KILL_WAIT,	/* end it from inside */
};

struct ex {
	struct space_exec_req	 req;
	struct docker_req	*rq;
	char			 api[24];
	enum ex_step		 step;
	char			 exec_id[SPACE_RESOURCE_MAX];
	char			 workdir[DOCKER_PATH_MAX / 4];	/* its inspect's */
	char			 mark[EXEC_MARK_LEN + 1];	/* its process's */
	int			 wrap;		/* under the relay's subreaper */
	const char		*kill_why;	/* the kill: timeout, or cancel */
	const char		*refused;	/* its streams were not taken */
	struct frame_reader	 fr;
	int			 streaming;
	struct stream_tx	 tx;		/* output, when asked for */
	int			 tx_open;
	struct stream_rx	 rx;		/* stdin, when it streams */
	int			 rx_open;
	struct evbuffer		*held;		/* stdin before the stream */
	size_t			 unwritten;	/* stdin queued, not credited */
	int			 stdin_done;
	uint64_t		 out_bytes;
	int			 polls;
	struct exec_tty		 tty;		/* exec -t's size */
	int			 stream_over;
	/*
	 * A bare command's first stdout frame, held until the next frame,
	 * the engine's word that its process started, or the exit: the
	 * engine writes its own error there when it could not start the
	 * command (docker_exec_stream.c).
	 */
	uint8_t			 first[STREAM_CHUNK - 1];
	size_t			 first_len;
	int			 first_state;	/* EX_FIRST_* */
	int			 never_ran;	/* the inspect's Pid 0 */
};

#define EX_FIRST_OPEN	0	/* may still hold the first frame */
#define EX_FIRST_WHOLE	1	/* holds the whole first frame */
#define EX_FIRST_PASSED	2	/* output goes straight on */

void	ex_stdin_write(struct ex *, const void *, size_t);
void	ex_stdin_end(struct ex *);
void	ex_stream_msg(struct imsgev *, struct imsg *, void *);
void	ex_drained(struct docker_req *);
int	ex_pump(struct docker_req *, struct evbuffer *);
void	ex_first_flush(struct ex *, int);
void	ex_first_started(struct ex *);

#endif /* SPACED_DOCKER_EXEC_H */
