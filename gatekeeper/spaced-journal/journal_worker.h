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

#ifndef JOURNAL_WORKER_H
#define JOURNAL_WORKER_H

#include <stdint.h>

struct imsg;
struct imsgev;
struct sandbox_spec;
extern const struct sandbox_spec journal_sandbox;

/* journal.c: the store */
void	 journal_ingest(struct imsgev *, struct imsg *);
void	 journal_read(struct imsgev *, struct imsg *);
/* The spaces of an install with records: spaced follows them again. */
void	 journal_stores(struct imsgev *, struct imsg *);
void	 journal_codeout(struct imsg *);
/* restarts.c: a line of a space's stderr, its relay's restarts */
struct store;
struct journal_restart;
enum restart_kept {
	RESTART_NEW,		/* kept: the journal_restart says it */
	RESTART_NOT_ONE,	/* not the relay's line */
	RESTART_KEPT_BEFORE,	/* at or before the cursor */
	RESTART_TOO_SOON,	/* within RESTART_GAP_MS of the last */
	RESTART_NOT_KEPT	/* the store did not take it */
};
int	 restart_keep(struct store *, const char *, size_t,
	    struct journal_restart *);
/* origin.c: where each space's code came from */
void	 journal_origin(struct imsgev *, struct imsg *);
int	 journal_cancel(uint32_t peerid);
/* server.c: what a space's server answered, and its token */
void	 journal_server(struct imsgev *, struct imsg *);
int	 journal_server_cancel(uint32_t peerid);

#endif /* JOURNAL_WORKER_H */
