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
 * What spacectl prints of check: each place's record, what it found or
 * why it is unavailable (the reason in the words a refused create
 * would use).
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "ctl_proto.h"
#include "spacectl.h"
#include "spacectl_output.h"

/* A place's record when unavailable: its code, and why when said. */
static json_t *
check_unavailable(const char *code, const char *why)
{
	json_t	*o;

	if ((o = json_pack("{s:b, s:s, s:s}", "available", 0, "code", code,
	    "message", why)) == NULL)
		failed("bad_answer", "a message that is not UTF-8");
	return o;
}

static void
check_unavailable_line(const char *place, const char *code, const char *why)
{
	printf("%s: unavailable (%s)\n", place, code);
	if (why[0] != '\0')
		printf("reason: %s\n", why);
}

void
out_check(const struct docker_check_msg *dc, json_t *rows)
{
	const char	*code = nstr(dc->dc_code, sizeof(dc->dc_code));
	const char	*ver = nstr(dc->dc_version, sizeof(dc->dc_version));
	const char	*api = nstr(dc->dc_api_version,
			    sizeof(dc->dc_api_version));
	const char	*minapi = nstr(dc->dc_min_api_version,
			    sizeof(dc->dc_min_api_version));
	const char	*os = nstr(dc->dc_os, sizeof(dc->dc_os));
	const char	*arch = nstr(dc->dc_arch, sizeof(dc->dc_arch));
	const char	*why = nstr(dc->dc_message, sizeof(dc->dc_message));

	if (env->sc_json) {
		if (dc->dc_available)
			json_array_append_new(rows, json_pack(
			    "{s:b, s:s, s:s, s:s, s:s, s:s, s:b}",
			    "available", 1, "version", ver, "apiVersion", api,
			    "minApiVersion", minapi, "os", os, "arch", arch,
			    "hostIsolation", dc->dc_host_isolation != 0));
		else
			json_array_append_new(rows, check_unavailable(code,
			    why));
	} else if (dc->dc_available)
		printf("docker: available\nversion: %s\napi version: %s "
		    "(minimum %s)\nos/arch: %s/%s\nhost isolation: %s\n",
		    ver, api, minapi, os, arch,
		    dc->dc_host_isolation ? "yes" : "no");
	else
		check_unavailable_line("docker", code, why);
}

/* The native place: a "native" object in Docker's record, or a line. */
void
out_check_native(const struct docker_check_msg *dc, json_t *rows)
{
	const char	*code = nstr(dc->dc_code, sizeof(dc->dc_code));
	const char	*miss = nstr(dc->dc_api_version,
			    sizeof(dc->dc_api_version));
	const char	*why = nstr(dc->dc_message, sizeof(dc->dc_message));
	json_t		*o;

	if (env->sc_json) {
		if ((o = json_array_get(rows, 0)) == NULL)
			return;
		json_object_set_new(o, "native", dc->dc_available ?
		    json_pack("{s:b, s:s, s:b}", "available", 1, "limits",
		    miss[0] != '\0' ? miss : "memory, swap, pids, cpu",
		    "hostIsolation", 1) : check_unavailable(code, why));
	} else if (dc->dc_available)
		printf("native: available\nlimits: %s\n", miss[0] != '\0' ?
		    miss : "memory, swap, pids, cpu");
	else
		check_unavailable_line("native", code, why);
}
