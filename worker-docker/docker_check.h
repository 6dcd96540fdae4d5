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

#ifndef SPACED_DOCKER_CHECK_H
#define SPACED_DOCKER_CHECK_H

/*
 * check: is there an engine on this socket we can drive, and can it
 * isolate a space from the host?  Never fails for an expected problem;
 * the answer says available or not, with a code from errors.h.  These
 * are the pure parts; the operation itself is a row in docker_ops.c.
 */

#include <stddef.h>

#include "place_proto.h"

/* We speak API 1.41 (Engine 20.10) up to 1.52 (Engine 29). */
#define DOCKER_API_OURS_MIN	"1.41"
#define DOCKER_API_OURS_MAX	"1.52"

/*
 * Pure: fills *out from a /version body.  Returns NULL when available,
 * or the code it also wrote to dc_code.
 */
const char	*docker_version_parse(const void *body, size_t len,
		    struct docker_check_msg *out);

/*
 * The API version to put in our paths: min(theirs, ours max), refused
 * below ours min (ERR_DOCKER_TOO_OLD) or when their minimum is above our
 * max (ERR_DOCKER_TOO_NEW).  their_min may be NULL.  Returns NULL and
 * writes "1.NN" to buf, or returns a code.
 */
const char	*docker_api_negotiate(const char *theirs, const char *their_min,
		    char *buf, size_t len);

/*
 * Pure: NULL when a /info body lists a seccomp profile among its
 * SecurityOptions ("name=seccomp,profile=..."), else the code.
 */
const char	*docker_info_seccomp(const void *body, size_t len);

/*
 * The path prefix ("/v1.41") negotiated lately, or NULL when none was
 * in the last DOCKER_API_CACHE_SECONDS: an operation then asks the
 * cheap GET /_ping, not GET /version (which runs runc --version in the
 * engine: docs/perf.md).  An engine upgraded within that time answers
 * the old version's calls anyway: every version we speak is one it
 * takes, or it refused /version too.
 */
#define DOCKER_API_CACHE_SECONDS	30
const char	*docker_api_cached(void);
void		 docker_api_remember(const char *prefix);

/* Compares "M.m" API versions; -2 when either does not parse. */
int		 docker_api_cmp(const char *, const char *);

#endif /* SPACED_DOCKER_CHECK_H */
