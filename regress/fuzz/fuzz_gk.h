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
 * What the gatekeeper's connection fuzzers share (gk_control_fuzz.c,
 * gk_front_fuzz.c): a fresh gatekeeper's lists and event base, and a
 * client on a socketpair that writes its bytes a piece at a time, ends
 * its side, and keeps what the gatekeeper answered.
 */

#ifndef FUZZ_GK_H
#define FUZZ_GK_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_GK_REPLY_MAX	(1024 * 1024)

extern char	 fuzz_gk_reply[FUZZ_GK_REPLY_MAX];
extern size_t	 fuzz_gk_replylen;

struct fuzz_gk_client {
	int		 fd;		/* the client's end */
	const uint8_t	*data;
	size_t		 size;
	size_t		 piece;		/* bytes a write; 0: all at once */
	size_t		 off;
	int		 ended;		/* its side shut */
};

/* The gatekeeper's lists, allowlist mode, an event base (gk->gk_base). */
void	 fuzz_gk_init(void);
/*
 * A new connection: *c's end, the other (returned) for the accept; the
 * answer kept so far cleared.
 */
int	 fuzz_gk_connect(struct fuzz_gk_client *, const uint8_t *, size_t,
	    size_t piece);
/* One turn: the next piece written (the end once all is), the loop once. */
void	 fuzz_gk_turn(struct fuzz_gk_client *);
/* What is left of the answer read, the client's end closed. */
void	 fuzz_gk_close(struct fuzz_gk_client *);

#endif /* FUZZ_GK_H */
