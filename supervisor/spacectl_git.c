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
 * spacectl files DIR, spacectl limits DIR
 *
 * What code in would carry from the repository DIR is in, before any
 * space is involved: the untracked files that travel with their sizes
 * and the untracked repositories that stay ({"files": [{"path",
 * "size"}], "notTravelling": [{"path", "kind"}], "totalBytes"} with -j),
 * and what arrives incomplete: submodules (empty) and Git LFS files
 * (pointers) ({"submodules": [...], "lfs": bool, "lfsAttributes":
 * [...]}).  Paths are relative to the repository's top.  DIR is resolved
 * here, as the caller; spaced-git, as the repository's owner, reads it.
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_proto.h"
#include "imsg.h"
#include "spacectl.h"

struct git_listing {
	int		 json;
	json_t		*a, *b;		/* files and notTravelling, or... */
	uint64_t	 total;		/* submodules and lfsAttributes */
	uint64_t	 count;
};

static __dead void
usage_git(const char *cmd)
{
	fprintf(stderr, "usage: spacectl [-j] %s DIR\n", cmd);
	exit(2);
}

static void
git_dir_request(const char *dir, struct ctl_git *cg)
{
	char	 path[PATH_MAX];

	if (realpath(dir, path) == NULL)
		failed("project_folder_missing", strerror(errno));
	memset(cg, 0, sizeof(*cg));
	if (strlcpy(cg->cg_dir, path, sizeof(cg->cg_dir)) >=
	    sizeof(cg->cg_dir))
		failed("bad_request", "path too long");
}

/* Names come from a repository: printed as they are, one a line. */
static void
files_record(struct imsg *imsg, void *arg)
{
	struct git_listing	*gl = arg;
	struct git_file		 gf;

	if (imsg_get_data(imsg, &gf, sizeof(gf)) == -1)
		failed("bad_answer", "unknown record");
	gf.gf_path[sizeof(gf.gf_path) - 1] = '\0';
	if (gf.gf_kind == GIT_FILE_TRAVELS) {
		gl->total += gf.gf_size;
		gl->count++;
		if (!gl->json)
			printf("%s\t%llu\n", gf.gf_path,
			    (unsigned long long)gf.gf_size);
		else if (json_array_append_new(gl->a, json_pack("{s:s, s:I}",
		    "path", gf.gf_path, "size", (json_int_t)gf.gf_size)) == -1)
			failed("internal_error", "json");
	} else {
		if (!gl->json)
			printf("%s\trepository, stays\n", gf.gf_path);
		else if (json_array_append_new(gl->b, json_pack("{s:s, s:s}",
		    "path", gf.gf_path, "kind", "repository")) == -1)
			failed("internal_error", "json");
	}
}

static void
limits_record(struct imsg *imsg, void *arg)
{
	struct git_listing	*gl = arg;
	struct git_limit	 lm;

	if (imsg_get_data(imsg, &lm, sizeof(lm)) == -1)
		failed("bad_answer", "unknown record");
	lm.gl_path[sizeof(lm.gl_path) - 1] = '\0';
	if (!gl->json)
		printf("%s\t%s\n", lm.gl_kind == GIT_LIMIT_SUBMODULE ?
		    "submodule" : "lfs", lm.gl_path);
	else if (json_array_append_new(lm.gl_kind == GIT_LIMIT_SUBMODULE ?
	    gl->a : gl->b, json_string(lm.gl_path)) == -1)
		failed("internal_error", "json");
}

static void
print_json(json_t *o)
{
	if (o == NULL)
		failed("internal_error", "json");
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
}

int
files_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct git_listing	 gl = { json, NULL, NULL, 0, 0 };
	struct ctl_git		 cg;

	if (argc != 2)
		usage_git("files");
	git_dir_request(argv[1], &cg);
	if ((gl.a = json_array()) == NULL || (gl.b = json_array()) == NULL)
		failed("internal_error", "json");
	ctl_call(connect_socket(sockpath), IMSG_CTL_FILES, &cg, sizeof(cg),
	    json, files_record, &gl);
	if (json)
		print_json(json_pack("{s:o, s:o, s:I}", "files", gl.a,
		    "notTravelling", gl.b, "totalBytes", (json_int_t)gl.total));
	else {
		json_decref(gl.a);
		json_decref(gl.b);
		fprintf(stderr, "%llu untracked files travel, %llu bytes\n",
		    (unsigned long long)gl.count,
		    (unsigned long long)gl.total);
	}
	return 0;
}

int
limits_main(int argc, char *argv[], const char *sockpath, int json)
{
	struct git_listing	 gl = { json, NULL, NULL, 0, 0 };
	struct ctl_git		 cg;

	if (argc != 2)
		usage_git("limits");
	git_dir_request(argv[1], &cg);
	if ((gl.a = json_array()) == NULL || (gl.b = json_array()) == NULL)
		failed("internal_error", "json");
	ctl_call(connect_socket(sockpath), IMSG_CTL_LIMITS, &cg, sizeof(cg),
	    json, limits_record, &gl);
	if (json)
		print_json(json_pack("{s:o, s:b, s:o}", "submodules", gl.a,
		    "lfs", json_array_size(gl.b) > 0, "lfsAttributes", gl.b));
	else {
		json_decref(gl.a);
		json_decref(gl.b);
	}
	return 0;
}
