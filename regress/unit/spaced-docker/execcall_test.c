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
 * A space's exec under the relay's subreaper: only in a space whose
 * runtime mount is the volume of this key (an older relay has no exec
 * mode), and then the command's argv whole after the relay's own.  A
 * bare exec's inspect: did its process start?
 */

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "labels.h"
#include "relay_exec.h"
#include "worker-docker/docker_execcall.h"
#include "worker-docker/docker_harden.h"

#define KEY	"0123456789abcdef"
#define OLD	"fedcba9876543210"

static json_t *
inspect_with(const char *type, const char *name, const char *dst)
{
	return json_pack("{s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}]}", "Mounts",
	    "Type", "volume", "Name", "spaced-work-x", "Destination", "/spaces",
	    "Type", type, "Name", name, "Destination", dst);
}

Test(execcall, wraps_only_where_the_runtime_is_this_relays)
{
	char	 vol[SPACE_RESOURCE_MAX], old[SPACE_RESOURCE_MAX];
	json_t	*o;

	cr_assert_eq(runtime_volume_name(vol, sizeof(vol), KEY), 0);
	cr_assert_eq(runtime_volume_name(old, sizeof(old), OLD), 0);
	o = inspect_with("volume", vol, HARDEN_RUNTIME_DIR);
	cr_assert(docker_exec_wraps(o, KEY));
	/* a space of an older relay: its commands run bare */
	cr_assert(!docker_exec_wraps(o, OLD));
	json_decref(o);
	o = inspect_with("volume", old, HARDEN_RUNTIME_DIR);
	cr_assert(!docker_exec_wraps(o, KEY));
	json_decref(o);
	/* the volume elsewhere, a bind of the same name: not the relay's */
	o = inspect_with("volume", vol, "/opt/other");
	cr_assert(!docker_exec_wraps(o, KEY));
	json_decref(o);
	o = inspect_with("bind", vol, HARDEN_RUNTIME_DIR);
	cr_assert(!docker_exec_wraps(o, KEY));
	json_decref(o);
	o = json_pack("{s:s}", "Mounts", "none");
	cr_assert(!docker_exec_wraps(o, KEY));
	json_decref(o);
	cr_assert(!docker_exec_wraps(NULL, KEY));
}

Test(execcall, wrap_keeps_the_argv_whole_after_the_relays)
{
	json_t	*w;
	char	*s;

	w = docker_exec_wrap(json_pack("[s, s, s]", "--", "-c", "a b"));
	cr_assert_not_null(w);
	s = json_dumps(w, JSON_COMPACT);
	cr_assert_str_eq(s, "[\"" HARDEN_RELAY "\",\"" RELAY_EXEC_FLAG
	    "\",\"--\",\"--\",\"-c\",\"a b\"]");
	free(s);
	json_decref(w);
	cr_assert_null(docker_exec_wrap(NULL));
}

static int
started_of(int status, const char *body)
{
	struct docker_parser	 p;

	memset(&p, 0, sizeof(p));
	p.dp_status = status;
	p.dp_body = (uint8_t *)(uintptr_t)body;
	p.dp_body_len = strlen(body);
	return docker_exec_started(&p);
}

/*
 * A held first frame goes out as the command's once its exec started:
 * Running (the engine is starting it) or a Pid.  Neither is a start
 * the engine refused; anything else is no answer (the exit decides).
 */
Test(execcall, started_is_running_or_a_pid)
{
	cr_assert_eq(started_of(200, "{\"Running\":true,\"Pid\":0}"), 1);
	cr_assert_eq(started_of(200, "{\"Running\":false,\"Pid\":4242}"), 1);
	cr_assert_eq(started_of(200, "{\"Running\":true}"), 1);
	cr_assert_eq(started_of(200, "{\"Running\":false,\"Pid\":0}"), 0);
	cr_assert_eq(started_of(200, "{\"Pid\":0}"), 0);
	cr_assert_eq(started_of(200, "{\"Running\":false}"), -1);
	cr_assert_eq(started_of(200, "{\"Running\":false,\"Pid\":\"1\"}"), -1);
	cr_assert_eq(started_of(404, "{\"Running\":false,\"Pid\":0}"), -1);
	cr_assert_eq(started_of(200, "not json"), -1);
}
