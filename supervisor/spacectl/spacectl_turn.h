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

#ifndef SPACED_SPACECTL_TURN_H
#define SPACED_SPACECTL_TURN_H

/*
 * A turn's messages as the agent's server (OpenCode's) lists them:
 * what is new since the last look, and whether the turn is over.  Pure
 * but for the two callbacks: the bytes come from a space, so this is
 * fuzzed (regress/fuzz/prompt_turn_fuzz.c).
 */

#include <stddef.h>

#include <jansson.h>

#define TURN_MESSAGES_MAX	(64 << 20)	/* a listing, bytes */
/*
 * Parts remembered between looks (text and tool together, some 10 MB):
 * a server that names new ones at every look is cut off, not kept.
 */
#define TURN_PARTS_MAX		65536

struct turn {
	size_t		 base;		/* messages before ours */
	json_t		*printed;	/* part id -> bytes of text told */
	json_t		*status;	/* part id -> tool status told */
	json_t		*last;		/* over: the last message (a ref) */
	json_t		*error;		/* failed: its error (a ref) */
	int		 full;		/* TURN_PARTS_MAX met */
	void		*arg;
	void		(*on_tool)(struct turn *, const char *tool,
			    const char *status, const char *title);
	void		(*on_text)(struct turn *, const char *, size_t);
};

enum turn_state {
	TURN_GOING = 0,
	TURN_OVER,		/* t->last holds the answer */
	TURN_FAILED,		/* t->error holds why */
	TURN_UNREADABLE,	/* not a list of messages, or past the parts cap */
};

/* 0, or -1 out of memory. */
int		 turn_init(struct turn *);
void		 turn_free(struct turn *);
/* One listing of the session's messages (bytes, at most the cap). */
enum turn_state	 turn_take(struct turn *, const char *, size_t);

/*
 * spacectl_answer.c: prompt's other answers.  A new session's id (its
 * "id": 1 to len - 1 of [A-Za-z0-9_-]) into sid: 0, or -1.
 */
int		 prompt_sid_take(const json_t *, char *sid, size_t len);

/* A failed turn's error, read: what spacectl says of it. */
#define TURN_GRANT_MAX	64	/* a grant's name, from the model's URL */
struct turn_why {
	const char	*code;		/* model_refused, window_refused, ... */
	int		 status;	/* the model's, 100..999, or 0 */
	const char	*name;		/* the error's name, or NULL */
	const char	*message;	/* its words, the advice's when own */
	char		 advice[384];	/* what to do, or "" */
	int		 own;		/* the window's: advice stands alone */
};
void		 turn_why(const json_t *error, const char *space,
		    struct turn_why *);

#endif /* SPACED_SPACECTL_TURN_H */
