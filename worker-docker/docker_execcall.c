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

#include <string.h>

#include "docker_execcall.h"
#include "docker_harden.h"

json_t *
docker_exec_body(json_t *argv, const char *user, json_t *env)
{
	json_t	*o;

	if (argv == NULL) {
		json_decref(env);
		return NULL;
	}
	o = json_pack("{s:b, s:b, s:b, s:b, s:o, s:s, s:b}",
	    "AttachStdin", 1, "AttachStdout", 1, "AttachStderr", 1,
	    "Tty", 0, "Cmd", argv, "User", user, "Privileged", 0);
	if (o != NULL && env != NULL && json_object_set_new(o, "Env", env) ==
	    -1) {
		json_decref(o);
		return NULL;
	}
	if (o == NULL)
		json_decref(env);
	return o;
}

int
docker_exec_created(const struct docker_parser *p, char *id, size_t len)
{
	json_t		*o;
	const char	*v;
	int		 rv = -1;

	o = harden_json_parse(p->dp_body, p->dp_body_len);
	v = json_string_value(json_object_get(o, "Id"));
	if (p->dp_status == 201 && v != NULL && v[0] != '\0' &&
	    strlen(v) < EXEC_ID_MAX && strlen(v) < len &&
	    strspn(v, "0123456789abcdef") == strlen(v)) {
		strlcpy(id, v, len);
		rv = 0;
	}
	json_decref(o);
	return rv;
}

/* 1 when the engine never started the exec's process (its Pid is 0). */
int
docker_exec_never_ran(const struct docker_parser *p)
{
	json_t	*o, *pid;
	int	 rv;

	if (p->dp_status != 200 ||
	    (o = harden_json_parse(p->dp_body, p->dp_body_len)) == NULL)
		return 0;
	pid = json_object_get(o, "Pid");
	rv = json_is_integer(pid) && json_integer_value(pid) == 0 &&
	    !json_is_true(json_object_get(o, "Running"));
	json_decref(o);
	return rv;
}

int
docker_exec_exited(const struct docker_parser *p, int *code)
{
	json_t	*o, *ec;
	int	 rv = -1;

	if (p->dp_status != 200)
		return -1;
	if ((o = harden_json_parse(p->dp_body, p->dp_body_len)) == NULL)
		return -1;
	ec = json_object_get(o, "ExitCode");
	if (json_is_true(json_object_get(o, "Running")))
		rv = 0;
	else if (json_is_integer(ec)) {
		*code = (int)json_integer_value(ec);
		rv = 1;
	}
	json_decref(o);
	return rv;
}
