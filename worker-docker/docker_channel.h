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

#ifndef SPACED_DOCKER_CHANNEL_H
#define SPACED_DOCKER_CHANNEL_H

/* The channel to spaced, for answers that come after dispatch returned. */

struct imsgev;
struct stream_tx;

void		 docker_channel_set(struct imsgev *);
struct imsgev	*docker_channel(void);
/*
 * An operation's output stream ends (failed unless ok) before its last
 * word, if *open; *open is cleared.
 */
void		 docker_channel_tx_end(struct stream_tx *, int *open, int ok);

#endif /* SPACED_DOCKER_CHANNEL_H */
