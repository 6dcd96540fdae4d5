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

#ifndef STORE_H
#define STORE_H

/*
 * The journal store of one space: segment files that only grow, a
 * chain of MACs across them (chain.h), a tip that says where the chain
 * ends, and caps per space and for the whole store.
 */

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>

#include "chain.h"

struct store_limits {
	off_t		 sl_segment;	/* a file is rotated past this */
	off_t		 sl_space;	/* a space's files; the oldest go */
	off_t		 sl_all;	/* the store; then nothing is kept */
	size_t		 sl_batch;	/* bytes held before a write */
};
extern const struct store_limits store_limits_default;

#define STORE_NAME_MAX	128

struct store {
	char		 st_base[STORE_NAME_MAX];  /* <install>-<uid>-<id> */
	const uint8_t	*st_key;
	struct store_limits st_lim;
	uint64_t	 st_next;	/* the next record's seq */
	uint8_t		 st_prev[CHAIN_MAC_LEN];
	int		 st_cursor;	/* a gatekeeper line is kept */
	int64_t		 st_boot;	/* the last one's run and number */
	uint64_t	 st_gkseq;
	/* The relay's restarts: the last one's engine time ("" none), all. */
	char		 st_rat[JOURNAL_AT_LEN + 1];
	uint64_t	 st_restarts;
	uint64_t	 st_first;	/* first seq of the current file */
	off_t		 st_size;	/* the current file's bytes */
	off_t		 st_total;	/* all the space's files */
	off_t		 st_others;	/* the other spaces' files */
	int		 st_fd;		/* the current file, or -1 */
	char		*st_buf;	/* lines not yet written */
	size_t		 st_len, st_cap;
	const char	*st_broken;	/* why nothing more is kept */
};

/* The installation's key, made on first use; NULL when it cannot be. */
const uint8_t	*store_key(void);
/* Opens (and repairs a cut last line of) base's store; -1 with a log. */
int	 store_open(struct store *, const char *base, const uint8_t *key,
	    const struct store_limits *);
/* Adds a record (je_seq and the chain set here); -1: st_broken says. */
int	 store_add(struct store *, struct journal_entry *, int64_t boot,
	    uint64_t gkseq);
int	 store_add_restart(struct store *, struct journal_entry *);
/* What store_add holds goes to disk, durably, and the tip with it. */
int	 store_commit(struct store *);
void	 store_close(struct store *);

/* The files of base's store, oldest first; the current one last. */
struct store_files {
	char		(*sf_names)[STORE_NAME_MAX + 32];
	size_t		 sf_n;
};
int	 store_files(const char *base, struct store_files *);
void	 store_files_free(struct store_files *);

/* Reading a store line by line from a seq on, in bounded memory. */
struct store_iter {
	struct store_files si_files;
	size_t		 si_file;
	FILE		*si_fp;
	char		 si_line[CHAIN_LINE_MAX + 2];
	size_t		 si_len;
	int		 si_cut;	/* the last line had no newline */
};
int	 store_iter_open(struct store_iter *, const char *base,
	    uint64_t from);
/* 1 and the next line (si_line, si_len) or 0 at the end; -1 overlong. */
int	 store_iter_next(struct store_iter *);
void	 store_iter_close(struct store_iter *);
const char *store_iter_file(const struct store_iter *);
/* The tip: 1 and where the chain ends, 0 when none, -1 unreadable. */
struct store_tip {
	uint64_t	 stp_seq;
	uint8_t		 stp_mac[CHAIN_MAC_LEN];
	char		 stp_rat[JOURNAL_AT_LEN + 1];	/* st_rat */
	uint64_t	 stp_restarts;			/* st_restarts */
};
int	 store_tip_read(const char *base, struct store_tip *);
/* tip_parse.c: the tip's text (at most STORE_TIP_MAX bytes), checked. */
#define STORE_TIP_MAX		160
#define STORE_NUMBER_MAX	20	/* digits of a uint64_t */
int	 store_tip_parse(const char *, size_t, struct store_tip *);
int	 store_number(const char *, size_t, uint64_t *);

/* verify.c: the whole chain, the tip and the head. */
void	 store_verify(const char *base, const uint8_t *key,
	    struct journal_verdict *);

#endif /* STORE_H */
