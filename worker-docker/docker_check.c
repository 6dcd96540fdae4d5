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
 * GET /version, unversioned because the version we may use comes from
 * its answer.  Fields are copied only when they fit whole and are plain
 * printable ASCII: an overlong or odd value makes the whole answer
 * unreadable rather than being cut to fit, so nothing downstream ever
 * compares against a truncated version.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "docker_check.h"
#include "docker_env.h"

#define API_PART_DIGITS_MAX	4

struct api_version {
	unsigned int	 av_major;
	unsigned int	 av_minor;
};

/* "1.41": digits, one dot, digits; nothing around them. */
static int
api_parse(const char *s, struct api_version *v)
{
	unsigned int	*part = &v->av_major;
	size_t		 digits = 0;

	if (s == NULL)
		return -1;
	v->av_major = v->av_minor = 0;
	for (; *s != '\0'; s++) {
		if (*s == '.' && part == &v->av_major && digits > 0) {
			part = &v->av_minor;
			digits = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || ++digits > API_PART_DIGITS_MAX)
			return -1;
		*part = *part * 10 + (*s - '0');
	}
	return part == &v->av_minor && digits > 0 ? 0 : -1;
}

static int
api_cmp(const struct api_version *a, const struct api_version *b)
{
	if (a->av_major != b->av_major)
		return a->av_major < b->av_major ? -1 : 1;
	if (a->av_minor != b->av_minor)
		return a->av_minor < b->av_minor ? -1 : 1;
	return 0;
}

int
docker_api_cmp(const char *a, const char *b)
{
	struct api_version	 va, vb;

	if (api_parse(a, &va) == -1 || api_parse(b, &vb) == -1)
		return -2;
	return api_cmp(&va, &vb);
}

const char *
docker_api_negotiate(const char *theirs, const char *their_min, char *buf,
    size_t len)
{
	struct api_version	 t, tmin, lo, hi, use;
	int			 n;

	if (api_parse(DOCKER_API_OURS_MIN, &lo) == -1 ||
	    api_parse(DOCKER_API_OURS_MAX, &hi) == -1)
		return ERR_INTERNAL;
	if (api_parse(theirs, &t) == -1)
		return ERR_DOCKER_UNREADABLE;
	if (api_cmp(&t, &lo) < 0)
		return ERR_DOCKER_TOO_OLD;
	if (their_min != NULL) {
		if (api_parse(their_min, &tmin) == -1)
			return ERR_DOCKER_UNREADABLE;
		/* An engine that dropped every version we speak. */
		if (api_cmp(&tmin, &hi) > 0)
			return ERR_DOCKER_TOO_NEW;
	}
	use = api_cmp(&t, &hi) < 0 ? t : hi;
	n = snprintf(buf, len, "%u.%u", use.av_major, use.av_minor);
	if (n < 0 || (size_t)n >= len)
		return ERR_INTERNAL;
	return NULL;
}

/* Copies a string member whole, or fails; never truncates. */
static int
copy_field(json_t *root, const char *key, char *dst, size_t dstlen)
{
	json_t		*v;
	const char	*s;
	size_t		 n, i;

	if ((v = json_object_get(root, key)) == NULL || !json_is_string(v))
		return -1;
	s = json_string_value(v);
	n = json_string_length(v);
	if (n == 0 || n >= dstlen)
		return -1;
	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return -1;
	if (strlcpy(dst, s, dstlen) >= dstlen)
		return -1;
	return 0;
}

static const char *
unavailable(struct docker_check_msg *out, const char *code, int keep_fields)
{
	if (!keep_fields)
		memset(out, 0, sizeof(*out));
	out->dc_available = 0;
	out->dc_host_isolation = 0;
	strlcpy(out->dc_code, code, sizeof(out->dc_code));
	return code;
}

const char *
docker_version_parse(const void *body, size_t len,
    struct docker_check_msg *out)
{
	json_t		*root;
	json_error_t	 err;
	const char	*code;
	char		 use[16];

	memset(out, 0, sizeof(*out));
	/* Duplicate keys would let two readers see two answers. */
	root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
	if (root == NULL)
		return unavailable(out, ERR_DOCKER_UNREADABLE, 0);
	if (!json_is_object(root) ||
	    copy_field(root, "Version", out->dc_version,
	    sizeof(out->dc_version)) == -1 ||
	    copy_field(root, "ApiVersion", out->dc_api_version,
	    sizeof(out->dc_api_version)) == -1 ||
	    copy_field(root, "MinAPIVersion", out->dc_min_api_version,
	    sizeof(out->dc_min_api_version)) == -1 ||
	    copy_field(root, "Os", out->dc_os, sizeof(out->dc_os)) == -1 ||
	    copy_field(root, "Arch", out->dc_arch, sizeof(out->dc_arch)) == -1 ||
	    docker_api_cmp(out->dc_min_api_version,
	    out->dc_api_version) == -2) {
		json_decref(root);
		return unavailable(out, ERR_DOCKER_UNREADABLE, 0);
	}
	json_decref(root);

	/* Too old or too new: keep the fields, they say what was found. */
	if ((code = docker_api_negotiate(out->dc_api_version,
	    out->dc_min_api_version, use, sizeof(use))) != NULL)
		return unavailable(out, code, 1);

	/*
	 * A space has loopback only and reaches its gatekeeper through
	 * unix sockets (DESIGN.md, "The network of a space"): nothing on
	 * the host is reachable from it on any engine we can drive, so
	 * host isolation holds by construction.
	 */
	out->dc_host_isolation = 1;
	out->dc_available = 1;
	return NULL;
}

const char *
docker_info_seccomp(const void *body, size_t len)
{
	json_t		*root, *v;
	const char	*s;
	size_t		 i;
	int		 found = 0;

	if ((root = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL)) ==
	    NULL || !json_is_object(root)) {
		json_decref(root);
		return ERR_DOCKER_UNREADABLE;
	}
	json_array_foreach(json_object_get(root, "SecurityOptions"), i, v) {
		if ((s = json_string_value(v)) == NULL)
			continue;
		/* "name=seccomp,profile=builtin" (older: profile=default) */
		if (strncmp(s, "name=seccomp,", 13) == 0 &&
		    strstr(s, "profile=unconfined") == NULL)
			found = 1;
	}
	json_decref(root);
	return found ? NULL : ERR_DOCKER_NO_SECCOMP;
}


const char *
docker_api_cached(void)
{
	struct timespec	 now;

	if (env->de_api[0] == '\0')
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - env->de_api_at.tv_sec >= DOCKER_API_CACHE_SECONDS)
		return NULL;
	return env->de_api;
}

void
docker_api_remember(const char *prefix)
{
	strlcpy(env->de_api, prefix, sizeof(env->de_api));
	clock_gettime(CLOCK_MONOTONIC, &env->de_api_at);
}
