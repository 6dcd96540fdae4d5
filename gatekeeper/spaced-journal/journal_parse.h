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
/* Where a gatekeeper's line stands: its run's start (ms), its number. */
struct journal_cursor {
	int64_t		 jc_boot;
	uint64_t	 jc_seq;
};
/* A gatekeeper's line (no newline) to a record; -1 with *errstr. */
int	 journal_line_parse(const char *line, size_t len,
	    struct journal_entry *, struct journal_cursor *,
	    const char **errstr);
/* The checks every record passes, whatever it came from. */
int	 journal_entry_valid(const struct journal_entry *, const char **errstr);
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

/*
 * A store's tip name, ".<install>-<uid>-<id>.tip", of this install: 0
 * and the uid and id, else -1.
 */
int	 journal_tip_name(const char *name, const char *install,
	    uint32_t *uid, char id[SPACE_ID_SIZE]);

#endif /* JOURNAL_PARSE_H */
