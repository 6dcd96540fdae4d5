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

#ifndef IMSG_TEST_HELPERS_H
#define IMSG_TEST_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "imsg.h"

/* A message type no protocol uses. */
#define TEST_TYPE	0x7fff0001u
#define TEST_TYPE_RSS	0x7fff0002u

void	 test_socketpair(int sv[2]);

/* The fixture most suites share: a socketpair, writer pair_wr, reader pair_rd. */
extern int		 pair_sv[2];
extern struct imsgbuf	 pair_wr, pair_rd;
void	 pair_setup(void);
void	 pair_teardown(void);
/* The number the kernel gives the next fd (the lowest free one). */
int	 lowest_free_fd(void);
int	 fd_is_open(int);
/* How many fds this process has open (below 1024). */
int	 count_open_fds(void);
/* The entries of /proc/self/fd, not counting the one that lists them. */
int	 count_proc_fds(void);
/* Write all of buf, blocking. */
void	 write_all(int, const void *, size_t);
/* Read until n bytes were read or EOF; returns what was read. */
size_t	 read_full(int, void *, size_t);
/* Send len raw bytes with fd attached (SCM_RIGHTS), bypassing imsg. */
void	 send_raw_fd(int sock, const void *, size_t, int fd);
/* Build a raw header. */
void	 raw_hdr(struct imsg_hdr *, uint32_t type, size_t len, uint16_t flags);
/* Read from ibuf, waiting with poll, until one message is there. */
int	 wait_get(struct imsgbuf *, struct imsg *);

#endif
