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
 * spacectl prompt's reading of a turn (spacectl_turn.c): what it keeps
 * between two looks is held to TURN_PARTS_MAX parts, whatever the
 * space's server lists.  Each listing is within the answer's cap; a
 * hostile server names new parts at every look, and spacectl kept them
 * all (a look every 250 ms for up to a day, -T).
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/spacectl/spacectl_turn.h"

#define PER_LOOK	1000	/* parts a listing names, some 40 KB */

static size_t	 told;

static void
on_text(struct turn *t, const char *s, size_t len)
{
	told++;
}

static void
on_tool(struct turn *t, const char *tool, const char *status,
    const char *title)
{
	told++;
}

/* One assistant message, still going, of n parts from first on. */
static char *
listing(size_t first, size_t n, int tools)
{
	char	*s = NULL;
	size_t	 len = 0, i;
	FILE	*f;

	cr_assert_not_null(f = open_memstream(&s, &len));
	fputs("[{\"info\":{\"role\":\"assistant\"},\"parts\":[", f);
	for (i = 0; i < n; i++)
		if (tools)
			fprintf(f, "%s{\"id\":\"p%zu\",\"type\":\"tool\","
			    "\"tool\":\"bash\",\"state\":{\"status\":"
			    "\"running\"}}", i ? "," : "", first + i);
		else
			fprintf(f, "%s{\"id\":\"p%zu\",\"type\":\"text\","
			    "\"text\":\"x\"}", i ? "," : "", first + i);
	fputs("]}]", f);
	cr_assert_eq(fclose(f), 0);
	return s;
}

static enum turn_state
look(struct turn *t, size_t first, size_t n, int tools)
{
	enum turn_state	 ts;
	char		*s = listing(first, n, tools);

	ts = turn_take(t, s, strlen(s));
	free(s);
	return ts;
}

static void
start(struct turn *t)
{
	memset(t, 0, sizeof(*t));
	cr_assert_eq(turn_init(t), 0);
	t->on_text = on_text;
	t->on_tool = on_tool;
	told = 0;
}

/*
 * New parts at every look, text or tools: the turn is cut off once the
 * cap is passed.
 */
static void
forever(struct turn *t, int tools)
{
	enum turn_state	 ts = TURN_GOING;
	size_t		 k;

	start(t);
	for (k = 0; ts == TURN_GOING && k <= TURN_PARTS_MAX / PER_LOOK + 1;
	    k++)
		ts = look(t, k * PER_LOOK, PER_LOOK, tools);
	cr_assert_eq(ts, TURN_UNREADABLE, "still going after %zu parts",
	    k * PER_LOOK);
}

Test(turn, new_text_parts_forever_are_cut_off)
{
	struct turn	 t;

	forever(&t, 0);
	cr_assert_leq(json_object_size(t.printed), TURN_PARTS_MAX);
	cr_assert_leq(told, TURN_PARTS_MAX);
	turn_free(&t);
}

Test(turn, new_tool_parts_forever_are_cut_off)
{
	struct turn	 t;

	forever(&t, 1);
	cr_assert_leq(json_object_size(t.status), TURN_PARTS_MAX);
	turn_free(&t);
}

/*
 * The control: as many parts as the cap, over many looks, each named
 * again at every look, are all told once and the turn goes on.
 */
Test(turn, parts_up_to_the_cap_are_all_told)
{
	struct turn	 t;
	size_t		 k, n;

	start(&t);
	for (k = 0; k * PER_LOOK < TURN_PARTS_MAX; k++) {
		n = TURN_PARTS_MAX - k * PER_LOOK < PER_LOOK ?
		    TURN_PARTS_MAX - k * PER_LOOK : PER_LOOK;
		cr_assert_eq(look(&t, k * PER_LOOK, n, 0), TURN_GOING);
		cr_assert_eq(look(&t, k * PER_LOOK, n, 0), TURN_GOING);
	}
	cr_assert_eq(told, TURN_PARTS_MAX);
	cr_assert_eq(json_object_size(t.printed), TURN_PARTS_MAX);
	turn_free(&t);
}
