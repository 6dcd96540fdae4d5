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

#ifndef SPACED_DOCKER_ENGINE_H
#define SPACED_DOCKER_ENGINE_H

/* Helpers for building Engine API calls and reading their answers. */

#include <stddef.h>

#include <jansson.h>

#include "docker_req.h"

struct harden_report;

#define ENGINE_API_MAX	24	/* "/v1.41" */

/* cl's method, cap and path: api ("/v1.41") and then fmt. */
void	docker_call_fmt(struct docker_call *, const char *api,
	    const char *method, size_t cap, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
/* Percent-encodes s for a query; -1 if it does not fit. */
int	docker_urlencode(const char *s, char *buf, size_t len);
/* filters={"label":[...]} of n "k=v" strings, encoded; fatal if long. */
void	engine_label_filter(char *buf, size_t len, size_t n, ...);
/* The container ids and volume names we get back must be plain. */
int	docker_plain_ref(const char *);
/* The "message" of an engine's error answer, for a line of ours. */
void	engine_message(const struct docker_parser *, char *, size_t);
/* The answer's body as JSON (NULL when it is not), and a 2xx status. */
json_t	*engine_json(const struct docker_parser *);
int	engine_status_ok(const struct docker_parser *);
/*
 * A create's answer (its caller saw 201): the settings it says the
 * engine dropped (Warnings) into hr, and its Id into id when id is not
 * NULL and the Id is plain and whole in idlen, else id is left as it
 * is.  -1 when hr holds a warning, else 0.  Pure: fuzzed through
 * tools_made_take (regress/fuzz/tools_answer_fuzz.c).
 */
int	engine_created(const struct docker_parser *, struct harden_report *,
	    char *id, size_t idlen);
int	engine_inspect_ours(const struct docker_parser *, const char *owner,
	    const char *id, int role);
/* GET the inspect of space id's container (its role ROLE_SPACE). */
void	engine_inspect_space_call(struct docker_call *, const char *api,
	    size_t cap, const char *id);

/*
 * The first call of an operation: /version, or /_ping when the API
 * version is known (api is then set).  engine_version_take reads its
 * answer into api; it returns an error code, or NULL.
 */
void	engine_version_call(char *api, size_t, struct docker_call *);
const char *engine_version_take(const struct docker_parser *, char *api,
	    size_t, const char **message);

#endif /* SPACED_DOCKER_ENGINE_H */
