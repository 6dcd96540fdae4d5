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

#ifndef SPACED_DOCKER_VERIFY_H
#define SPACED_DOCKER_VERIFY_H

/* What the checkers share (docker_verify_res.c); not for other files. */

#include <jansson.h>

#include "docker_harden.h"

/* Adds prefix+check once; the first message for it stays. */
void	 verify_add(struct harden_report *, const char *prefix,
	    const char *check, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
const char *verify_str(const json_t *, const char *key);
int	 verify_streq(const json_t *, const char *key, const char *want);
/* An integer field equal to want; a missing or other type is not. */
int	 verify_inteq(const json_t *, const char *key, json_int_t want);
int	 verify_is_true(const json_t *, const char *key);
/* Missing, null, false, "", 0, [] and {} are empty. */
int	 verify_empty(const json_t *);
void	 verify_labels(const json_t *labels, const struct harden_params *,
	    enum space_role, const char *prefix, const char *check,
	    struct harden_report *);
int	 verify_params_usable(const struct harden_params *, const char *,
	    struct harden_report *);

#endif /* SPACED_DOCKER_VERIFY_H */
