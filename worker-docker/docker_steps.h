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
 * The driver of a family of operations whose steps are rows (space.h's
 * sp_step_row, tools_volume.h's tv_step_row: a step, its call, what its
 * answer does, the step after it).  One text, made for each family in
 * its ops file as tree.h's RB_GENERATE makes a tree's functions, so that
 * rows and state stay typed.  STEPS_GENERATE(pfx, stype, field, rtype,
 * etype, tables, SEND, ADVANCE) defines there (stype the state, field
 * its member of type enum etype, rtype its row):
 *
 *	step_row(enum etype): the row of a step in tables[], an array of
 *	    { t_rows, t_n }; fatal when no row has it.
 *	pfx_go(rq, struct stype *, nx, next): a step function returned nx;
 *	    sends the call of the step it moved to (SEND) or of its row's
 *	    next (ADVANCE), and returns anything else as it is.
 */

#ifndef SPACED_DOCKER_STEPS_H
#define SPACED_DOCKER_STEPS_H

#define STEPS_GENERATE(pfx, stype, field, rtype, etype, tables, SEND,	\
    ADVANCE)								\
static const struct rtype *						\
step_row(enum etype s)							\
{									\
	size_t	 i, j;							\
									\
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)	\
		for (j = 0; j < *tables[i].t_n; j++)			\
			if (tables[i].t_rows[j].st_step == s)		\
				return &tables[i].t_rows[j];		\
	fatalx("%s: step %d has no row", __func__, s);			\
}									\
									\
static enum docker_next							\
pfx##_go(struct docker_req *rq, struct stype *st, enum docker_next nx,	\
    struct docker_call *next)						\
{									\
	const struct rtype	*r;					\
									\
	for (;;) {							\
		if (nx == ADVANCE) {					\
			st->field = step_row(st->field)->st_next;	\
			nx = SEND;					\
		}							\
		if (nx != SEND)						\
			return nx;					\
		r = step_row(st->field);				\
		if (r->st_send == NULL || next == NULL)			\
			fatalx("%s: step %d sends nothing", __func__,	\
			    st->field);					\
		nx = r->st_send(rq, st, next);				\
	}								\
}

#endif /* SPACED_DOCKER_STEPS_H */
