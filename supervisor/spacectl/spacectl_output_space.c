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
 * What spacectl prints of the spaces: their records as JSON objects,
 * the list's table, a space shown, and a space request's failure.
 */

#include <sys/types.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_proto.h"
#include "errors.h"
#include "spacectl.h"
#include "spacectl_output.h"

json_t *
out_space_info(const struct space_info *si, int with_memory)
{
	json_t		*o, *missing;
	uint32_t	 i;

	if (si->si_kind != SPACE_REC_INFO ||
	    si->si_nmissing > SPACE_MISSING_MAX)
		failed("bad_answer", "space info");
	missing = json_array();
	for (i = 0; i < si->si_nmissing; i++)
		json_array_append_new(missing, json_string(nstr(
		    si->si_missing[i], sizeof(si->si_missing[i]))));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:[]}",
	    "id", nstr(si->si_id, sizeof(si->si_id)),
	    "name", nstr(si->si_name, sizeof(si->si_name)),
	    "project", nstr(si->si_project, sizeof(si->si_project)),
	    "created", nstr(si->si_created, sizeof(si->si_created)),
	    "state", nstr(si->si_state, sizeof(si->si_state)),
	    "gatekeeper", nstr(si->si_gk_state, sizeof(si->si_gk_state)),
	    "damaged", si->si_damaged != 0, "missing", missing, "orphans");
	if (o == NULL)
		failed("bad_answer", "space info is not UTF-8");
	/* Where it runs: a Docker place's record says nothing of it. */
	json_object_set_new(o, "place", json_string(si->si_place[0] == '\0' ?
	    "docker" : nstr(si->si_place, sizeof(si->si_place))));
	if (with_memory)
		json_object_set_new(o, "memory",
		    json_integer((json_int_t)si->si_memory));
	/* spaced's last disk sweep, when it measured this space */
	if (si->si_disk_limit != 0)
		json_object_set_new(o, "disk", json_pack("{s:I, s:I, s:b}",
		    "used", (json_int_t)si->si_disk_used,
		    "limit", (json_int_t)si->si_disk_limit,
		    "over", si->si_disk_over != 0));
	/* The journal's count of the relay's restarts of the server */
	if (si->si_restarts_known)
		json_object_set_new(o, "restarts",
		    json_integer((json_int_t)si->si_restarts));
	return o;
}

json_t *
out_space_violation(const struct space_violation *sv)
{
	json_t	*r;

	if (sv->sv_kind != SPACE_REC_VIOLATION ||
	    (r = json_pack("{s:s, s:s}", "check",
	    nstr(sv->sv_check, sizeof(sv->sv_check)), "message",
	    nstr(sv->sv_message, sizeof(sv->sv_message)))) == NULL)
		failed("bad_answer", "violation");
	return r;
}

json_t *
out_space_resource(const struct space_resource *sr)
{
	json_t	*r;

	if (sr->sr_kind != SPACE_REC_RESOURCE ||
	    (r = json_pack("{s:s, s:s}", "kind",
	    nstr(sr->sr_type, sizeof(sr->sr_type)), "name",
	    nstr(sr->sr_name, sizeof(sr->sr_name)))) == NULL)
		failed("bad_answer", "resource");
	return r;
}

/* The space's readiness, on its record in infos. */
void
out_space_ready(json_t *info, const struct ctl_ready *cy)
{
	json_object_set_new(info, "ready",
	    json_boolean(cy->cy_ready == CTL_READY_YES));
	if (cy->cy_ready == CTL_READY_NO)
		json_object_set_new(info, "notReady", json_string(
		    nstr(cy->cy_code, sizeof(cy->cy_code))));
}


/* A space request failed with code: say so, with what the place told. */
__dead void
out_space_failed(const char *code, const struct space_done *sd,
    json_t *rollback)
{
	const char	*message = NULL;
	int		 uncertain = 0;
	size_t		 i;
	json_t		*r;

	if (sd != NULL && strcmp(sd->sd_code, code) == 0) {
		message = sd->sd_message;
		uncertain = sd->sd_uncertain != 0;
	}
	if (message == NULL || *message == '\0')
		message = space_message(code);
	if (env->sc_json) {
		space_failed_json(code, message, uncertain, rollback);
		exit(1);
	}
	if (message != NULL)
		fprintf(stderr, "spacectl: %s: %s\n", code, message);
	else
		fprintf(stderr, "spacectl: %s\n", code);
	json_array_foreach(env->sc_violations, i, r)
		fprintf(stderr, "spacectl: %s: %s\n", jstr(r, "check"),
		    jstr(r, "message"));
	json_array_foreach(rollback, i, r)
		fprintf(stderr, "spacectl: not removed: %s %s\n",
		    jstr(r, "kind"), jstr(r, "name"));
	if (uncertain)
		fprintf(stderr, "spacectl: a step may still finish: see "
		    "spacectl list\n");
	exit(1);
}

static const char *
or_dash(const char *s)
{
	return s == NULL || *s == '\0' ? "-" : s;
}

/* "a,b" of an array of strings, or "-". */
static void
join(json_t *a, char *buf, size_t len)
{
	json_t	*v;
	size_t	 i;

	buf[0] = '\0';
	json_array_foreach(a, i, v) {
		if (i > 0)
			strlcat(buf, ",", len);
		strlcat(buf, json_string_value(v), len);
	}
	if (buf[0] == '\0')
		strlcpy(buf, "-", len);
}

#define LIST_COLS	8	/* of the list's table */

/*
 * A cell's columns: its characters, not its bytes (a name is any UTF-8
 * without controls; "héllo" took six columns and pushed its row out of
 * line).  A wide character (CJK, most emoji) still counts one.
 */
static int
cell_width(const char *cell)
{
	int	 n = 0;

	for (; *cell != '\0'; cell++)
		if (((unsigned char)*cell & 0xc0) != 0x80)
			n++;
	return n;
}

static void
cell_print(int c, int w, const char *cell)
{
	if (c < LIST_COLS - 1)
		printf("%s%*s  ", cell, w - cell_width(cell), "");
	else
		printf("%s\n", cell);
}

/* "yes", "no" or "-": the server's readiness, when it was asked. */
static const char *
ready_text(json_t *o)
{
	json_t	*v = json_object_get(o, "ready");

	return v == NULL ? "-" : json_is_true(v) ? "yes" : "no";
}

/* The cells of one space's row. */
static void
space_cells(json_t *o, const char **cell, char *missing, size_t len)
{
	join(json_object_get(o, "missing"), missing, len);
	cell[0] = jstr(o, "id");
	cell[1] = or_dash(jstr(o, "name"));
	cell[2] = or_dash(jstr(o, "state"));
	cell[3] = or_dash(jstr(o, "gatekeeper"));
	cell[4] = ready_text(o);
	cell[5] = or_dash(jstr(o, "created"));
	cell[6] = missing;
	cell[7] = or_dash(jstr(o, "place"));
}

/* ID NAME STATE GATEKEEPER READY CREATED MISSING PLACE, as wide as needed. */
void
out_space_list(json_t *infos)
{
	static const char *cols[] = { "ID", "NAME", "STATE", "GATEKEEPER",
	    "READY", "CREATED", "MISSING", "PLACE" };
	char		 missing[SPACE_MISSING_MAX * SPACE_MISSING_LEN];
	const char	*cell[LIST_COLS];
	int		 w[LIST_COLS], c, n;
	size_t		 i, j;
	json_t		*o, *orphan;

	if (env->sc_json) {
		out_json(json_incref(infos));
		return;
	}
	for (c = 0; c < LIST_COLS; c++)
		w[c] = cell_width(cols[c]);
	json_array_foreach(infos, i, o) {
		space_cells(o, cell, missing, sizeof(missing));
		for (c = 0; c < LIST_COLS; c++)
			if ((n = cell_width(cell[c])) > w[c])
				w[c] = n;
	}
	for (c = 0; c < LIST_COLS; c++)
		cell_print(c, w[c], cols[c]);
	json_array_foreach(infos, i, o) {
		space_cells(o, cell, missing, sizeof(missing));
		for (c = 0; c < LIST_COLS; c++)
			cell_print(c, w[c], cell[c]);
	}
	json_array_foreach(infos, i, o)
		json_array_foreach(json_object_get(o, "orphans"), j, orphan)
			printf("%s: orphan %s %s\n", jstr(o, "id"),
			    jstr(orphan, "kind"), jstr(orphan, "name"));
}

/* One space, or with -j and none (a start), "{}". */
void
out_space_show(json_t *o)
{
	char	 missing[SPACE_MISSING_MAX * SPACE_MISSING_LEN];
	json_t	*orphan, *disk;
	size_t	 i;

	if (env->sc_json) {
		if (o != NULL)
			out_json(json_incref(o));
		else
			printf("{}\n");
		return;
	}
	if (o == NULL)
		return;
	join(json_object_get(o, "missing"), missing, sizeof(missing));
	printf("id:          %s\n", jstr(o, "id"));
	printf("name:        %s\n", or_dash(jstr(o, "name")));
	printf("project:     %s\n", or_dash(jstr(o, "project")));
	printf("created:     %s\n", or_dash(jstr(o, "created")));
	printf("state:       %s\n", or_dash(jstr(o, "state")));
	printf("gatekeeper:  %s\n", or_dash(jstr(o, "gatekeeper")));
	printf("ready:       %s\n", ready_text(o));
	printf("memory:      %lld\n",
	    (long long)json_integer_value(json_object_get(o, "memory")));
	printf("damaged:     %s\n",
	    json_is_true(json_object_get(o, "damaged")) ? "yes" : "no");
	printf("missing:     %s\n", missing);
	printf("place:       %s\n", or_dash(jstr(o, "place")));
	if ((disk = json_object_get(o, "disk")) != NULL)
		printf("disk:        %lld of %lld bytes%s\n",
		    (long long)json_integer_value(json_object_get(disk, "used")),
		    (long long)json_integer_value(json_object_get(disk,
		    "limit")), json_is_true(json_object_get(disk, "over")) ?
		    ", at its limit: stopped by spaced" : "");
	if (json_object_get(o, "restarts") != NULL)
		printf("restarts:    %lld\n", (long long)json_integer_value(
		    json_object_get(o, "restarts")));
	json_array_foreach(json_object_get(o, "orphans"), i, orphan)
		printf("orphan:      %s %s\n", jstr(orphan, "kind"),
		    jstr(orphan, "name"));
}

void
out_space_created(json_t *o)
{
	if (env->sc_json)
		out_json(json_incref(o));
	else
		printf("%s\n", jstr(o, "id"));
}

void
out_space_verified(json_t *violations)
{
	json_t	*r;
	size_t	 i;

	if (env->sc_json)
		out_json(json_incref(violations));
	else
		json_array_foreach(violations, i, r)
			printf("%s: %s\n", jstr(r, "check"), jstr(r, "message"));
}

void
out_space_removed(json_t *removed, json_t *notremoved)
{
	json_t	*r;
	size_t	 i;

	if (env->sc_json) {
		out_json(json_pack("{s:O, s:O}", "removed", removed,
		    "failed", notremoved));
		return;
	}
	json_array_foreach(removed, i, r)
		printf("removed %s %s\n", jstr(r, "kind"), jstr(r, "name"));
	json_array_foreach(notremoved, i, r)
		printf("failed %s %s\n", jstr(r, "kind"), jstr(r, "name"));
}

