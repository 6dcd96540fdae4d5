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
 * fuzz-link: supervisor/spacectl/spacectl_answer.c
 *
 * What a space's server can make spacectl prompt read beside the
 * messages: the first byte picks the answer (even: a new session's, its
 * id; odd: a failed turn's error) and, for the id, the room it has; the
 * rest is the server's body.  Invariants: an id taken is the answer's
 * "id", whole, 1 or more of [A-Za-z0-9_-] with its NUL in the room, one
 * refused leaves the room as it was; a failure's status is the
 * answer's statusCode when that is 100..999, else 0, its code follows
 * from the status alone, its words are the answer's or the advice's,
 * and the advice names a grant only of the model's URL (at most 64 of
 * [A-Za-z0-9_-]) or the word GRANT, for a 403 the window gave.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/spacectl/spacectl_turn.h"

#define ID_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789_-"
#define GRANT_URL	"http://gatekeeper:8080/model/"
#define SPACE		"0123456789ab"
#define ROOM_MAX	128

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_sid(const json_t *o, size_t room)
{
	char		 sid[ROOM_MAX + 1];
	const char	*want = json_string_value(json_object_get(o, "id"));
	size_t		 n;

	memset(sid, 'Z', sizeof(sid));
	if (prompt_sid_take(o, sid, room) == -1) {
		for (n = 0; n < sizeof(sid); n++)
			if (sid[n] != 'Z')
				abort();
		return;
	}
	if (want == NULL || strcmp(sid, want) != 0 || (n = strlen(sid)) == 0 ||
	    n >= room || strspn(sid, ID_CHARS) != n || sid[n + 1] != 'Z')
		abort();
}

/* The grant the advice names: GRANT, or the URL's, whole. */
static void
check_grant(const json_t *data, const char *advice)
{
	const char	*url, *g, *end;
	size_t		 n;

	if ((g = strstr(advice, "grant '")) == NULL ||
	    (end = strchr(g += 7, '\'')) == NULL)
		abort();
	n = end - g;
	if (n == 5 && memcmp(g, "GRANT", 5) == 0)
		return;
	url = json_string_value(json_object_get(json_object_get(data,
	    "metadata"), "url"));
	if (n == 0 || n > TURN_GRANT_MAX || strspn(g, ID_CHARS) != n ||
	    url == NULL || strncmp(url, GRANT_URL, strlen(GRANT_URL)) != 0 ||
	    strncmp(url + strlen(GRANT_URL), g, n) != 0 ||
	    strspn(url + strlen(GRANT_URL), ID_CHARS) != n)
		abort();
}

static void
check_why(const json_t *error)
{
	const json_t	*data = json_object_get(error, "data"), *sc;
	struct turn_why	 w;
	json_int_t	 st;
	size_t		 i;

	turn_why(error, SPACE, &w);
	sc = json_object_get(data, "statusCode");
	st = json_is_integer(sc) ? json_integer_value(sc) : 0;
	if (w.status != (st >= 100 && st <= 999 ? st : 0))
		abort();
	if (strcmp(w.code, w.status == 401 ? "model_refused" :
	    w.status == 403 ? "window_refused" : w.status != 0 ?
	    "model_failed" : "turn_failed") != 0)
		abort();
	if (w.name != json_string_value(json_object_get(error, "name")))
		abort();
	if (memchr(w.advice, '\0', sizeof(w.advice)) == NULL ||
	    (w.advice[0] != '\0') != (w.status == 401 || w.status == 403))
		abort();
	for (i = 0; w.advice[i] != '\0'; i++)
		if (w.advice[i] < ' ' || w.advice[i] > '~')
			abort();
	if (w.own) {
		if (w.status != 403 || w.message != w.advice)
			abort();
		check_grant(data, w.advice);
	} else if (w.message != json_string_value(json_object_get(data,
	    "message")) || strstr(w.advice, "grant '") != NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t	*o;

	if (size < 1)
		return 0;
	/* As server_json reads it (spacectl_prompt.c). */
	o = size == 1 ? json_null() : json_loadb((const char *)data + 1,
	    size - 1, 0, NULL);
	if (data[0] & 1)
		check_why(o);
	else
		check_sid(o, 1 + (data[0] >> 1) % ROOM_MAX);
	json_decref(o);
	return 0;
}
