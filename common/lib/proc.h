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


#ifndef SPACED_PROC_H
#define SPACED_PROC_H

/*
 * What every worker process shares: the process table, and the start of
 * a worker's life after spaced fork+exec'd it with its channel on fd 3.
 */

#include "imsg.h"
#include "log.h"
#include "proto.h"
#include "sandbox.h"

#define PROC_PARENT_FD		3

struct proc {
	enum procid	 p_id;
	const char	*p_title;	/* "docker", for logs and spacectl */
	const char	*p_binary;	/* under libexec/spaced/ */
	const char	*p_user;	/* when spaced runs as root */
	int		 p_chroot;	/* 1: chroot to the empty directory */
	int		 p_fdpass;	/* 1: its channel carries fds */
};

extern const struct proc procs[PROC_MAX];

const char	*proc_title(enum procid);
/* PROC_MAX when no process has that title */
enum procid	 proc_by_title(const char *);

struct worker {
	enum procid		  w_id;
	const struct sandbox_spec *w_sandbox;
	/* runs before the privilege drop: library init, pre-warm */
	void			(*w_prewarm)(void);
	/* one message from the parent; the probe is handled for it */
	void			(*w_dispatch)(struct imsgev *, struct imsg *);
	/* drop the request of this id: how many it still held (0: none) */
	int			(*w_cancel)(uint32_t);
	/* confined and READY sent: events of its own (signals, timers) */
	void			(*w_serve)(struct event_base *);
	/* instead of sandbox_enter(w_sandbox), or NULL (spaced-ns) */
	void			(*w_confine)(void);
};

__dead void	 worker_main(int argc, char *argv[], const struct worker *);
/* Its fatal line to the parent on the channel, as it dies. */
void		 worker_tell_fatal(void);
/*
 * A stream message for no registered stream is fatal, unless the stream
 * ended lately here (unregistered, or marked by worker_stream_ended).
 * register: -1 with ENOSPC (the table is full) or EEXIST (the id is
 * registered); a caller answers its request, it never dies of it.
 */
#define WORKER_STREAMS_MAX	64	/* two an exec; many at once */
int		 worker_stream_register(uint32_t id,
		    void (*)(struct imsgev *, struct imsg *, void *), void *);
void		 worker_stream_unregister(uint32_t id);
/* A stream never registered is over (a refusal's): -1 EEXIST if it is. */
int		 worker_stream_ended(uint32_t id);

/* stream_test.c: the stream self-test, in every worker */
void		 worker_stream_test(struct imsgev *, struct imsg *);
int		 worker_stream_test_cancel(uint32_t request);
/* The byte pattern of a test stream from offset on (a chunk's worth). */
const uint8_t	*stream_test_pattern(uint64_t offset);

/* The -s argument, for workers that have a store; NULL otherwise. */
const char	*worker_store(void);
/* The -g argument: the directory a spaced-git serves; NULL otherwise. */
const char	*worker_dir(void);
/* The -c argument: spaced.conf, which spaced-launch opens for a reload. */
const char	*worker_conf(void);

#endif /* SPACED_PROC_H */
