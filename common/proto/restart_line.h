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

#ifndef SPACED_RESTART_LINE_H
#define SPACED_RESTART_LINE_H

/*
 * The one line spaced-relay writes on its stderr each time it starts the
 * agent's server again, and spaced-journal reads from the space
 * container's log (docs/privsep.md, "How a restart reaches the host"):
 *
 *	spaced-relay: restart N WHAT HOW CODE backoff S
 *
 * N the keeper's count since the container started (1..), WHAT the
 * server program's name (RESTART_WHAT_CHARS, 1..RESTART_WHAT_MAX bytes,
 * "server" when its own is not that), HOW "signal" (CODE its number)
 * or "fork" (CODE the errno), S the seconds before the next start.
 */
#define RESTART_LINE_TAG	"spaced-relay: restart "
#define RESTART_LINE_MAX	128	/* longer is never the relay's */
#define RESTART_WHAT_MAX	32
#define RESTART_WHAT_CHARS	"abcdefghijklmnopqrstuvwxyz" \
				"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"
#define RESTART_COUNT_MAX	999999999	/* N, CODE and S at most */

#endif /* SPACED_RESTART_LINE_H */
