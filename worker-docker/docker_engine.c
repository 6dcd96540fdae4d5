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
 * Helpers every operation uses to build its Engine API calls and read
 * their answers.  Nothing here keeps state but the cached API version
 * (docker_check.c's).
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "docker_check.h"
#include "docker_engine.h"
#include "docker_harden.h"

void
docker_call_fmt(struct docker_call *cl, const char *api, const char *method,
    size_t cap, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 n;

	cl->cl_method = method;
	cl->cl_cap = cap;
	n = strlcpy(cl->cl_path, api, sizeof(cl->cl_path));
	va_start(ap, fmt);
	if (n >= sizeof(cl->cl_path) ||
	    vsnprintf(cl->cl_path + n, sizeof(cl->cl_path) - n, fmt, ap) >=
	    (int)(sizeof(cl->cl_path) - n))
		fatalx("%s: path too long", __func__);
	va_end(ap);
}

int
docker_urlencode(const char *s, char *buf, size_t len)
{
	static const char	 hex[] = "0123456789ABCDEF";
	size_t			 o = 0;

	for (; *s != '\0'; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
		    *s == '.') {
			if (o + 1 >= len)
				return -1;
			buf[o++] = *s;
		} else {
			if (o + 3 >= len)
				return -1;
			buf[o++] = '%';
			buf[o++] = hex[(unsigned char)*s >> 4];
			buf[o++] = hex[(unsigned char)*s & 15];
		}
	}
	buf[o] = '\0';
	return 0;
}

void
engine_label_filter(char *buf, size_t len, size_t n, ...)
{
	va_list	 ap;
	char	 raw[512];
	size_t	 i, o;
	int	 w;

	o = strlcpy(raw, "{\"label\":[", sizeof(raw));
	va_start(ap, n);
	for (i = 0; i < n && o < sizeof(raw); i++) {
		w = snprintf(raw + o, sizeof(raw) - o, "%s\"%s\"",
		    i > 0 ? "," : "", va_arg(ap, const char *));
		if (w < 0)
			fatalx("%s: filter", __func__);
		o += (size_t)w;
	}
	va_end(ap);
	if (o >= sizeof(raw) || strlcat(raw, "]}", sizeof(raw)) >=
	    sizeof(raw) || docker_urlencode(raw, buf, len) == -1)
		fatalx("%s: filter too long", __func__);
}

int
docker_plain_ref(const char *s)
{
	size_t	 n;

	if (s == NULL || *s == '\0')
		return 0;
	for (n = 0; s[n] != '\0'; n++)
		if (n >= SPACE_RESOURCE_MAX - 1 ||
		    !((s[n] >= 'a' && s[n] <= 'z') ||
		    (s[n] >= 'A' && s[n] <= 'Z') ||
		    (s[n] >= '0' && s[n] <= '9') || s[n] == '-' ||
		    s[n] == '_' || s[n] == '.'))
			return 0;
	return 1;
}

json_t *
engine_json(const struct docker_parser *p)
{
	return harden_json_parse(p->dp_body, p->dp_body_len);
}

int
engine_created(const struct docker_parser *p, struct harden_report *hr,
    char *id, size_t idlen)
{
	const char	*v;
	json_t		*o;

	o = engine_json(p);
	harden_verify_created(o, hr);
	v = json_string_value(json_object_get(o, "Id"));
	if (id != NULL && docker_plain_ref(v) && strlen(v) < idlen)
		memcpy(id, v, strlen(v) + 1);
	json_decref(o);
	return hr->hr_n == 0 ? 0 : -1;
}

int
engine_status_ok(const struct docker_parser *p)
{
	return p->dp_status >= 200 && p->dp_status < 300;
}

/* An inspect's answer: 1 when it is the owner's container of that role. */
int
engine_inspect_ours(const struct docker_parser *p, const char *owner,
    const char *id, int role)
{
	json_t	*o;
	int	 ours;

	if (p->dp_status != 200 || (o = engine_json(p)) == NULL)
		return 0;
	ours = space_labels_check(json_object_get(json_object_get(o,
	    "Config"), "Labels"), owner, id, role) == NULL;
	json_decref(o);
	return ours;
}

/*
 * Asks for the inspect of space id's own container: after a 404 on its
 * gatekeeper, its answer tells gatekeeper_missing (the caller's space
 * is there) from space_not_found (engine_inspect_ours reads it).
 */
void
engine_inspect_space_call(struct docker_call *next, const char *api,
    size_t cap, const char *id)
{
	char	 name[SPACE_RESOURCE_MAX];

	if (space_resource_name(name, sizeof(name), id, ROLE_SPACE) == -1)
		fatalx("%s: bad id", __func__);
	docker_call_fmt(next, api, "GET", cap, "/containers/%s/json", name);
}

/* The engine's own words, for a log line: its "message", cut. */
void
engine_message(const struct docker_parser *p, char *buf, size_t len)
{
	json_t		*o = engine_json(p);
	const char	*m;

	m = json_string_value(json_object_get(o, "message"));
	snprintf(buf, len, "%s", m != NULL ? m : "no message");
	json_decref(o);
}

void
engine_version_call(char *api, size_t len, struct docker_call *cl)
{
	cl->cl_method = "GET";
	cl->cl_cap = DOCKER_BODY_MAX_SMALL;
	if (docker_api_cached() != NULL) {
		/* still one call first: is the engine there at all? */
		strlcpy(api, docker_api_cached(), len);
		strlcpy(cl->cl_path, "/_ping", sizeof(cl->cl_path));
	} else
		strlcpy(cl->cl_path, "/version", sizeof(cl->cl_path));
}

const char *
engine_version_take(const struct docker_parser *p, char *api, size_t len,
    const char **message)
{
	struct docker_check_msg	 dc;
	const char		*code;
	char			 use[16];

	if (p->dp_status != 200) {
		*message = "GET /version failed";
		return ERR_DOCKER_UNREADABLE;
	}
	if (api[0] != '\0')	/* the cached one, after /_ping */
		return NULL;
	if ((code = docker_version_parse(p->dp_body, p->dp_body_len, &dc)) !=
	    NULL || (code = docker_api_negotiate(dc.dc_api_version,
	    dc.dc_min_api_version, use, sizeof(use))) != NULL) {
		*message = "the engine cannot be driven";
		return code;
	}
	snprintf(api, len, "/v%s", use);
	docker_api_remember(api);
	return NULL;
}
