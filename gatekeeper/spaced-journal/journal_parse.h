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

#ifndef JOURNAL_PARSE_H
#define JOURNAL_PARSE_H

/*
 * What spaced-journal makes of a gatekeeper's log, which is hostile: a
 * line is taken only when it is exactly a record.  Pure.
 */

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define JOURNAL_LINE_MAX	4096	/* longer lines are dropped */
/* The store's form: at, listener, host, port, decision, tab-separated. */
#define JOURNAL_KEY_MAX		(JOURNAL_AT_LEN + JOURNAL_LISTENER_MAX + \
				    JOURNAL_HOST_MAX + 6 + \
				    JOURNAL_DECISION_MAX + 5)

/* A gatekeeper's line (no newline) to a record; -1 with *errstr. */
int	 journal_line_parse(const char *line, size_t len,
	    struct journal_entry *, const char **errstr);
/* The checks every record passes, whatever it came from. */
int	 journal_entry_valid(const struct journal_entry *, const char **errstr);
/* The store's line of a valid record, NUL-terminated, no newline. */
int	 journal_entry_fmt(const struct journal_entry *, char *buf, size_t len);
/* A store line (no newline) back to a record; -1 with *errstr. */
int	 journal_entry_scan(const char *line, size_t len,
	    struct journal_entry *, const char **errstr);

/* Lines out of a stream that comes in any pieces. */
struct journal_splitter {
	char		 js_line[JOURNAL_LINE_MAX + 1];
	size_t		 js_len;
	int		 js_overlong;	/* dropping to the next newline */
	uint64_t	 js_dropped;	/* lines over JOURNAL_LINE_MAX */
};
typedef void	(*journal_line_fn)(const char *line, size_t len, void *);
void	 journal_split_init(struct journal_splitter *);
/* Each complete non-empty line goes to fn, NUL-terminated. */
void	 journal_split(struct journal_splitter *, const uint8_t *, size_t,
	    journal_line_fn, void *);
/* The end of the stream: a last line without a newline counts too. */
void	 journal_split_end(struct journal_splitter *, journal_line_fn, void *);

/* Dedupe: the whole log comes every time (journal_parse.c says how). */
struct journal_seen;
struct journal_seen *journal_seen_new(void);
void	 journal_seen_free(struct journal_seen *);
/* A line of the store; -1 on allocation failure. */
int	 journal_seen_stored(struct journal_seen *, const char *key);
/* A line of the log: 1 when it is new (count it), 0 when stored; -1. */
int	 journal_seen_take(struct journal_seen *, const char *key);
size_t	 journal_seen_count(const struct journal_seen *);

#endif /* JOURNAL_PARSE_H */
