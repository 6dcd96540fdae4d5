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
 * fuzz-link: supervisor/spacectl/spacectl_turn.c
 *
 * The input is what a space's server can make spacectl prompt read as
 * a session's messages: the first byte is the base (messages before the
 * turn), the rest one listing, taken twice (the second look tells only
 * what grew).  Invariants: the text told of a part is never more than
 * its text; a turn over has its last message, a failed one its error;
 * nothing is told twice by the same listing.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/spacectl/spacectl_turn.h"

static size_t	 told;

static void
on_tool(struct turn *t, const char *tool, const char *status,
    const char *title)
{
	if (tool == NULL || status == NULL || title == NULL)
		abort();
	told++;
}

static void
on_text(struct turn *t, const char *s, size_t len)
{
	if (len == 0 || strlen(s) != len)
		abort();
	told++;
}

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct turn	 t;
	enum turn_state	 a, b;

	if (size < 1)
		return 0;
	memset(&t, 0, sizeof(t));
	if (turn_init(&t) == -1)
		return 0;
	t.base = data[0] % 4;
	t.on_tool = on_tool;
	t.on_text = on_text;
	a = turn_take(&t, (const char *)data + 1, size - 1);
	if ((a == TURN_OVER) != (t.last != NULL) ||
	    (a == TURN_FAILED) != (t.error != NULL))
		abort();
	json_decref(t.last);
	json_decref(t.error);
	t.last = t.error = NULL;
	told = 0;
	b = turn_take(&t, (const char *)data + 1, size - 1);
	if (b != a || told != 0)
		abort();
	turn_free(&t);
	return 0;
}
