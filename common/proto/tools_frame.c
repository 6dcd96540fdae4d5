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
 * The filler's framed stdin: its header line and package.json, built
 * from a checked profile (tools_frame.h).  Pure; both places use it.
 */

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools_frame.h"
#include "tools_key.h"

const char *
tools_fill_step(int code)
{
	switch (code) {
	case TOOLS_EXIT_OK:
		return "done";
	case TOOLS_EXIT_FRAMING:
		return "framing";
	case TOOLS_EXIT_NPM:
		return "npm";
	case TOOLS_EXIT_POSTINSTALL:
		return "postinstall";
	case TOOLS_EXIT_BINARIES:
		return "binaries";
	case TOOLS_EXIT_SYNC:
		return "sync";
	case TOOLS_EXIT_MARKER:
		return "marker";
	case TOOLS_EXIT_CORRIDOR:
		return "corridor";
	}
	return "unknown";
}

int
tools_packed_name(uint32_t i, char *buf, size_t len)
{
	int	 n;

	/* By index: a package name may hold "@" and "/". */
	n = snprintf(buf, len, "packed-%u.tgz", i);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Keys sorted, compact: the same profile gives the same bytes. */
static char *
dump(json_t *o)
{
	return json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
}

int
tools_package_json(const struct agent_profile *ag, const char *staging,
    char *buf, size_t len)
{
	const struct agent_package	*ap;
	json_t				*o, *deps, *over;
	char				 name[32], spec[PATH_MAX], *s = NULL;
	uint32_t			 i;
	int				 n = -1;

	if (agent_profile_check(ag) != NULL || staging[0] != '/')
		return -1;
	o = json_object();
	deps = json_object();
	over = json_object();
	if (o == NULL || deps == NULL || over == NULL)
		goto done;
	for (i = 0; i < ag->ag_npackages; i++) {
		ap = &ag->ag_packages[i];
		if (ap->ap_tarball[0] == '\0') {
			if (json_object_set_new(deps, ap->ap_name,
			    json_string(ap->ap_version)) == -1)
				goto done;
			continue;
		}
		if (tools_packed_name(i, name, sizeof(name)) == -1 ||
		    (size_t)snprintf(spec, sizeof(spec), "file:%s/%s",
		    staging, name) >= sizeof(spec) ||
		    json_object_set_new(deps, ap->ap_name,
		    json_string(spec)) == -1)
			goto done;
		/* "$name": the version the root depends on, everywhere. */
		if ((size_t)snprintf(spec, sizeof(spec), "$%s",
		    ap->ap_name) >= sizeof(spec) ||
		    json_object_set_new(over, ap->ap_name,
		    json_string(spec)) == -1)
			goto done;
	}
	/*
	 * The overrides keep a registry package's copy of a packed one
	 * local (the spec's sdk under web).  A profile that is packed
	 * whole has no registry package to pull a copy, and the npm of the
	 * space image (Debian's 9.2.0) refuses "$name" for a file: root
	 * dependency ("Invalid comparator"): none then.
	 */
	for (i = 0; i < ag->ag_npackages; i++)
		if (ag->ag_packages[i].ap_tarball[0] == '\0')
			break;
	if (i == ag->ag_npackages)
		json_object_clear(over);
	if (json_object_set_new(o, "name", json_string("spaced-tools")) ==
	    -1 || json_object_set_new(o, "private", json_true()) == -1 ||
	    json_object_set(o, "dependencies", deps) == -1 ||
	    (json_object_size(over) > 0 &&
	    json_object_set(o, "overrides", over) == -1))
		goto done;
	if ((s = dump(o)) == NULL || strlen(s) >= len ||
	    strlen(s) > TOOLS_PACKAGE_JSON_MAX)
		goto done;
	n = (int)strlcpy(buf, s, len);
 done:
	free(s);
	json_decref(deps);
	json_decref(over);
	json_decref(o);
	return n;
}

static int
add_file(json_t *files, const char *name, uint64_t size, uint64_t *total)
{
	json_t	*f;

	if (size > TOOLS_FILE_MAX || (*total += size) > TOOLS_TOTAL_MAX)
		return -1;
	if ((f = json_object()) == NULL)
		return -1;
	if (json_object_set_new(f, "name", json_string(name)) == -1 ||
	    json_object_set_new(f, "size", json_integer((json_int_t)size)) ==
	    -1 || json_array_append_new(files, f) == -1) {
		json_decref(f);
		return -1;
	}
	return 0;
}

char *
tools_frame_header(const struct agent_profile *ag, const char *key,
    size_t pkg_size, uint64_t ca_size, size_t *len)
{
	const struct agent_bin	*ab;
	json_t			*o, *files, *bins, *b, *args, *post;
	char			 name[32], *s = NULL, *line = NULL;
	uint64_t		 total = 0;
	uint32_t		 i, j;
	size_t			 n;

	if (agent_profile_check(ag) != NULL || !tools_key_valid(key) ||
	    pkg_size > TOOLS_PACKAGE_JSON_MAX || ca_size > TOOLS_CA_MAX)
		return NULL;
	if ((o = json_object()) == NULL)
		return NULL;
	files = json_array();
	bins = json_array();
	if (files == NULL || bins == NULL ||
	    json_object_set_new(o, "key", json_string(key)) == -1 ||
	    add_file(files, "package.json", pkg_size, &total) == -1)
		goto done;
	for (i = 0; i < ag->ag_npackages; i++) {
		if (ag->ag_packages[i].ap_tarball[0] == '\0')
			continue;
		if (tools_packed_name(i, name, sizeof(name)) == -1 ||
		    add_file(files, name, ag->ag_packages[i].ap_size,
		    &total) == -1)
			goto done;
	}
	if (ca_size > 0 && add_file(files, TOOLS_CA_NAME, ca_size,
	    &total) == -1)
		goto done;
	for (i = 0; i < ag->ag_nbins; i++) {
		ab = &ag->ag_bins[i];
		if ((b = json_object()) == NULL)
			goto done;
		if (json_array_append_new(bins, b) == -1 ||
		    json_object_set_new(b, "name", json_string(ab->ab_name)) ==
		    -1 || (args = json_array()) == NULL)
			goto done;
		if (json_object_set_new(b, "args", args) == -1)
			goto done;
		for (j = 0; j < ab->ab_nargs; j++)
			if (json_array_append_new(args,
			    json_string(ab->ab_args[j])) == -1)
				goto done;
	}
	if (ag->ag_post_package[0] == '\0')
		post = json_null();
	else
		post = json_pack("{ssss}", "package", ag->ag_post_package,
		    "script", ag->ag_post_script);
	if (post == NULL || json_object_set_new(o, "postinstall", post) ==
	    -1 || json_object_set(o, "files", files) == -1 ||
	    json_object_set(o, "bins", bins) == -1 ||
	    json_object_set_new(o, "cafile", ca_size > 0 ?
	    json_string(TOOLS_CA_NAME) : json_null()) == -1)
		goto done;
	if ((s = dump(o)) == NULL)
		goto done;
	n = strlen(s);
	if (n + 1 > TOOLS_HEADER_MAX || (line = malloc(n + 2)) == NULL)
		goto done;
	memcpy(line, s, n);
	line[n] = '\n';
	line[n + 1] = '\0';
	*len = n + 1;
 done:
	free(s);
	json_decref(files);
	json_decref(bins);
	json_decref(o);
	return line;
}

enum tools_verdict
tools_marker_verdict(int exited, int exit_code, const uint8_t *out,
    size_t len, int truncated, const char *key)
{
	if (!exited)
		return TOOLS_VERDICT_REJECT;
	if (exit_code == TOOLS_MARKER_ABSENT_EXIT)
		return TOOLS_VERDICT_ABSENT;
	if (exit_code != 0)
		return TOOLS_VERDICT_REJECT;
	/* The filler writes the key and nothing else, no newline. */
	if (!truncated && key != NULL && tools_key_valid(key) &&
	    len == strlen(key) && len <= TOOLS_MARKER_OUT_MAX &&
	    memcmp(out, key, len) == 0)
		return TOOLS_VERDICT_FILLED;
	return TOOLS_VERDICT_MISMATCH;
}

const char *
tools_verdict_name(enum tools_verdict v)
{
	switch (v) {
	case TOOLS_VERDICT_FILLED:
		return "filled";
	case TOOLS_VERDICT_ABSENT:
		return "no marker";
	case TOOLS_VERDICT_MISMATCH:
		return "marker mismatch";
	case TOOLS_VERDICT_REJECT:
		return "unreadable";
	}
	return "unknown";
}
