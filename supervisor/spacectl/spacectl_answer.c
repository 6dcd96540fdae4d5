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
 * What prompt reads from the agent's server beside the messages
 * (spacectl_turn.c): a new session's id, and a failed turn's error,
 * with the advice it leads to.  The bytes come from a space, whole
 * under spacectl_server.c's cap (SERVER_BODY_MAX): typed getters only,
 * a string kept only when it fits, a status only when it is one.  Pure,
 * and fuzzed (regress/fuzz/prompt_answer_fuzz.c).
 */

#include <stdio.h>
#include <string.h>

#include "spacectl_turn.h"

#define ID_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789_-"
#define GRANT_URL	"http://gatekeeper:8080/model/"

static const char *
jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

int
prompt_sid_take(const json_t *o, char *sid, size_t len)
{
	const char	*s;
	size_t		 n;

	if ((s = jstr(o, "id")) == NULL || (n = strlen(s)) == 0 ||
	    n >= len || strspn(s, ID_CHARS) != n)
		return -1;
	memcpy(sid, s, n + 1);
	return 0;
}

/*
 * What to do after the model (401) or the window (403) refused a turn.
 * A 403 the window gave itself (its x-gatekeeper-reason header, as
 * OpenCode kept it) names the grant from the model's URL and stands for
 * the server's words (own); other advice follows them.  Advice only:
 * the answer comes from the space.
 */
static void
advise(struct turn_why *w, const json_t *data, const char *space)
{
	const char	*url, *g = NULL;
	size_t		 n = 0;

	if (w->status != 401 && w->status != 403)
		return;
	if (w->status == 401 || jstr(json_object_get(data, "responseHeaders"),
	    "x-gatekeeper-reason") == NULL) {
		snprintf(w->advice, sizeof(w->advice), "%s: spacectl grant %s "
		    "GRANT_ID UPSTREAM HEADER < key", w->status == 403 ?
		    "the window holds no grant for the model's address" :
		    "the model refused the grant's key; give the right one",
		    space);
		return;
	}
	url = jstr(json_object_get(data, "metadata"), "url");
	if (url != NULL && strncmp(url, GRANT_URL, strlen(GRANT_URL)) == 0) {
		g = url + strlen(GRANT_URL);
		n = strspn(g, ID_CHARS);
	}
	if (n == 0 || n > TURN_GRANT_MAX) {
		g = "GRANT";
		n = 5;
	}
	snprintf(w->advice, sizeof(w->advice), "the space's window has no "
	    "grant '%.*s' for its model (give one: spacectl grant %s %.*s "
	    "UPSTREAM HEADER < secret)", (int)n, g, space, (int)n, g);
	w->own = 1;
}

void
turn_why(const json_t *error, const char *space, struct turn_why *w)
{
	const json_t	*data = json_object_get(error, "data");
	json_int_t	 st;

	memset(w, 0, sizeof(*w));
	/* A status is three digits; anything else is none. */
	st = json_integer_value(json_object_get(data, "statusCode"));
	w->status = st >= 100 && st <= 999 ? (int)st : 0;
	if (w->status == 401)
		w->code = "model_refused";
	else if (w->status == 403)
		w->code = "window_refused";	/* no grant for the model */
	else if (w->status != 0)
		w->code = "model_failed";
	else
		w->code = "turn_failed";
	w->name = jstr(error, "name");
	w->message = jstr(data, "message");
	advise(w, data, space);
	if (w->own)
		w->message = w->advice;
}
