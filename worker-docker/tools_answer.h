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

#ifndef SPACED_TOOLS_ANSWER_H
#define SPACED_TOOLS_ANSWER_H

/*
 * The Engine's answers as tools ensure, its prune and the filler's
 * corridor read them (tools_answer.c): pure, fuzzed by
 * regress/fuzz/tools_answer_fuzz.c.  A name or id is taken only plain
 * (docker_plain_ref) and whole; what a label does not make the owner's
 * is never taken.
 */

#include <stddef.h>

#include "labels.h"
#include "place_proto.h"
#include "docker_harden.h"
#include "docker_parse.h"

/*
 * A volume's inspect or create answer: NULL when its labels make it
 * owner's of role r and key, else why not (no JSON, no labels: a why).
 */
const char	*tools_answer_labels(const struct docker_parser *,
		    const char *owner, enum tools_role r, const char *key);
/*
 * A create answer of the filler's corridor: its warnings into hr and a
 * plain Id into id when id is not NULL (else it is left as it is), as
 * engine_created reads them, then the socket volume's labels (role
 * TOOLS_ROLE_FILL_SOCK: why not ours, or NULL).
 */
const char	*tools_made_take(const struct docker_parser *,
		    const char *owner, enum tools_role r, const char *key,
		    struct harden_report *hr, char *id, size_t idlen);
/*
 * GET /containers/json: the ids of owner's fill and check one-shots of
 * key that a killed worker left, at most max; none when it does not
 * parse.
 */
size_t		 tools_stale_take(const struct docker_parser *,
		    const char *owner, const char *key,
		    char (*)[SPACE_RESOURCE_MAX], size_t max);
/*
 * GET /volumes: owner's tools volumes but keep, those of tk and those
 * held(name, arg) says are kept, at most max.  None when it does not
 * parse: a prune never fails.
 */
size_t		 tools_prune_take(const struct docker_parser *,
		    const char *owner, const char *keep,
		    const struct tools_keep *tk,
		    int (*held)(const char *, void *), void *arg,
		    char (*)[SPACE_RESOURCE_MAX], size_t max);

#endif /* SPACED_TOOLS_ANSWER_H */
