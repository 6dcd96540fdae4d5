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
 * The messages of a turn (spacectl_turn.h): each assistant message
 * after the base, its text parts as they grow, its tool parts as their
 * status changes.  The turn is over when its last message is the
 * assistant's, completed, and not a step that called a tool (another
 * step follows one); failed when that message carries an error.
 */

#include <string.h>

#include "spacectl_turn.h"

static const char *
str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int
is(json_t *o, const char *key, const char *want)
{
	const char	*v = str(o, key);

	return v != NULL && strcmp(v, want) == 0;
}

int
turn_init(struct turn *t)
{
	t->last = t->error = NULL;
	t->full = 0;
	t->printed = json_object();
	t->status = json_object();
	return t->printed == NULL || t->status == NULL ? -1 : 0;
}

void
turn_free(struct turn *t)
{
	json_decref(t->printed);
	json_decref(t->status);
	json_decref(t->last);
	json_decref(t->error);
	t->printed = t->status = t->last = t->error = NULL;
}

/* 0 when map may hold pid: it does, or there is room for one more. */
static int
room(struct turn *t, json_t *map, const char *pid)
{
	if (json_object_get(map, pid) != NULL ||
	    json_object_size(t->printed) + json_object_size(t->status) <
	    TURN_PARTS_MAX)
		return 0;
	t->full = 1;
	return -1;
}

static void
take_text(struct turn *t, const char *pid, const char *text)
{
	size_t	 len = strlen(text), done;

	done = (size_t)json_integer_value(json_object_get(t->printed, pid));
	if (len <= done || room(t, t->printed, pid) == -1)
		return;
	t->on_text(t, text + done, len - done);
	json_object_set_new(t->printed, pid, json_integer((json_int_t)len));
}

/*
 * A part id told once a listing: a hostile listing that repeats an id
 * with another status would otherwise be told anew at every look.
 */
static void
take_part(struct turn *t, json_t *part, json_t *seen)
{
	const char	*pid = str(part, "id"), *text, *st, *old;
	json_t		*state;

	if (pid == NULL || json_object_get(seen, pid) != NULL ||
	    json_object_set_new(seen, pid, json_true()) == -1)
		return;
	if (is(part, "type", "text") && (text = str(part, "text")) != NULL) {
		take_text(t, pid, text);
		return;
	}
	if (!is(part, "type", "tool") ||
	    (state = json_object_get(part, "state")) == NULL ||
	    (st = str(state, "status")) == NULL)
		return;
	old = json_string_value(json_object_get(t->status, pid));
	if ((old != NULL && strcmp(old, st) == 0) ||
	    room(t, t->status, pid) == -1)
		return;
	json_object_set_new(t->status, pid, json_string(st));
	t->on_tool(t, str(part, "tool") != NULL ? str(part, "tool") : "?", st,
	    str(state, "title") != NULL ? str(state, "title") : "");
}

/* The last message, the assistant's: over, failed, or going on. */
static enum turn_state
judge(struct turn *t, json_t *last)
{
	json_t		*info = json_object_get(last, "info"), *parts, *p;
	const char	*finish = str(info, "finish");
	size_t		 j;

	if (json_object_get(info, "error") != NULL) {
		t->error = json_incref(json_object_get(info, "error"));
		return TURN_FAILED;
	}
	if (json_object_get(json_object_get(info, "time"), "completed") ==
	    NULL || (finish != NULL && strcmp(finish, "tool-calls") == 0))
		return TURN_GOING;
	parts = json_object_get(last, "parts");
	for (j = 0; finish == NULL && j < json_array_size(parts); j++)
		if ((p = json_array_get(parts, j)) != NULL &&
		    is(p, "type", "tool"))
			return TURN_GOING;
	t->last = json_incref(last);
	return TURN_OVER;
}

enum turn_state
turn_take(struct turn *t, const char *buf, size_t len)
{
	json_t		*msgs, *m, *last = NULL, *parts, *seen;
	json_error_t	 err;
	enum turn_state	 rv = TURN_GOING;
	size_t		 i, j;

	if (len > TURN_MESSAGES_MAX ||
	    (msgs = json_loadb(buf, len, 0, &err)) == NULL)
		return TURN_UNREADABLE;
	if (!json_is_array(msgs) || (seen = json_object()) == NULL) {
		json_decref(msgs);
		return TURN_UNREADABLE;
	}
	for (i = t->base; i < json_array_size(msgs); i++) {
		m = json_array_get(msgs, i);
		if (!is(json_object_get(m, "info"), "role", "assistant"))
			continue;
		last = m;
		parts = json_object_get(m, "parts");
		for (j = 0; j < json_array_size(parts); j++)
			take_part(t, json_array_get(parts, j), seen);
	}
	if (t->full)
		rv = TURN_UNREADABLE;
	else if (last != NULL && json_array_size(msgs) > 0 &&
	    json_array_get(msgs, json_array_size(msgs) - 1) == last)
		rv = judge(t, last);
	json_decref(seen);
	json_decref(msgs);
	return rv;
}
