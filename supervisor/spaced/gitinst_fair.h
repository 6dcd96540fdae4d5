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
 * The fair share of the spaced-git instances that callers other than
 * root and spaced's own user hold together (gitinst.c): who may wait for
 * one, who gets the next, whose idle one makes room.  Pure: numbers in,
 * an answer out.
 */

#ifndef GITINST_FAIR_H
#define GITINST_FAIR_H

#include <sys/types.h>

#include <stddef.h>

/* One instance of the list, as the policy sees it. */
enum fair_state { FAIR_WAITING, FAIR_LIVE, FAIR_ENDING };
struct fair_inst {
	uid_t		 fi_caller;
	int		 fi_plain;	/* neither root nor spaced's own user */
	enum fair_state	 fi_state;	/* ENDING: killed, not yet reaped */
};
/* What counts against a new instance of one caller (the asker). */
struct fair_counts {
	size_t	 live, plain, mine, mine_all, all;	/* all: ending too */
	size_t	 waiting, mine_waiting;
	size_t	 callers;	/* plain ones with an instance or a wait */
};

/* The counts for caller (plain: counted among the callers even with none). */
void	 fair_count(const struct fair_inst *, size_t n, uid_t caller,
	    int plain, struct fair_counts *);

/* The live instances of caller. */
size_t	 fair_live_of(const struct fair_inst *, size_t n, uid_t caller);
/* Each caller's share of a pool of `pool` that `callers` use, at most cap. */
size_t	 fair_share(size_t pool, size_t cap, size_t callers);
/* 1: a caller with `live` instances and `waiting` waits may wait for one more. */
int	 fair_may_wait(size_t pool, size_t cap, size_t callers, size_t live,
	    size_t waiting);
/* 1: instance i is live and its plain caller over its share (it yields). */
int	 fair_yields(const struct fair_inst *, size_t n, size_t i, size_t pool,
	    size_t cap);
/* Of n waiting ones, oldest first, by their callers' live counts: which starts. */
size_t	 fair_next(const size_t *live, size_t n);
/* Of n unused ones, oldest first, by their callers' live counts: which ends. */
size_t	 fair_victim(const size_t *live, size_t n);

#endif
