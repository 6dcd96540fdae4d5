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
 * The requests spaced sends a repository's spaced-git: each answered by
 * records and one IMSG_GIT_DONE.  Whatever libgit2 or the repository
 * says wrong becomes that DONE's code and message.
 */

#include <sys/stat.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <git2.h>

#include "errors.h"
#include "git_proto.h"
#include "imsg.h"
#include "log.h"
#include "place_proto.h"
#include "proc.h"
#include "git_worker.h"

static void
done_sd(struct imsgev *iev, uint32_t peerid, struct space_done *sd)
{
	sd->sd_exit = -1;
	imsg_compose_event(iev, IMSG_GIT_DONE, peerid, 0, -1, sd,
	    sizeof(*sd));
}

static void
done(struct imsgev *iev, uint32_t peerid, const char *code,
    const char *fmt, ...)
{
	struct space_done	 sd;
	va_list			 ap;

	memset(&sd, 0, sizeof(sd));
	if (code != NULL) {
		strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
		va_start(ap, fmt);
		vsnprintf(sd.sd_message, sizeof(sd.sd_message), fmt, ap);
		va_end(ap);
	}
	done_sd(iev, peerid, &sd);
}

static void
done_libgit2(struct imsgev *iev, uint32_t peerid, const char *what)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	snap_libgit2(&sd, what);
	done_sd(iev, peerid, &sd);
}

static void
serve_snapshot(struct imsgev *iev, uint32_t peerid, git_repository *r,
    const struct git_req *gq, uint32_t imsg_type)
{
	struct space_done	 sd;
	struct git_snap		 gs;

	memset(&sd, 0, sizeof(sd));
	if ((imsg_type == IMSG_GIT_START_REQ ?
	    start_find(r, gq->gq_space, &gs, &sd) :
	    imsg_type == IMSG_GIT_HISTORY_REQ ?
	    history_find(r, gq->gq_space, &gs, &sd) :
	    snapshot_take(r, gq->gq_space, gq->gq_flags & GIT_REQ_CLEAN, &gs,
	    &sd)) == 0)
		imsg_compose_event(iev, IMSG_GIT_SNAP, peerid, 0, -1, &gs,
		    sizeof(gs));
	done_sd(iev, peerid, &sd);
}

/* Credit that crosses the END is owed nothing (proc.c's ended ring). */
static void
pack_late(struct imsgev *iev, struct imsg *imsg, void *arg)
{
}

static void
serve_pack(struct imsgev *iev, uint32_t peerid, git_repository *r,
    struct imsg *imsg)
{
	struct git_pack_req	 gp;
	struct space_done	 sd;

	if (imsg_get_data(imsg, &gp, sizeof(gp)) == -1 ||
	    memchr(gp.gp_base, '\0', sizeof(gp.gp_base)) == NULL ||
	    memchr(gp.gp_staged, '\0', sizeof(gp.gp_staged)) == NULL ||
	    memchr(gp.gp_start, '\0', sizeof(gp.gp_start)) == NULL ||
	    (gp.gp_kind != GIT_PACK_START && gp.gp_kind != GIT_PACK_HISTORY))
		fatalx("%s: bad pack request", __func__);
	if (worker_stream_register(gp.gp_stream, pack_late, NULL) == -1)
		fatal("%s: stream %u", __func__, gp.gp_stream);
	memset(&sd, 0, sizeof(sd));
	(void)pack_send(r, iev, peerid, &gp, &sd);
	worker_stream_unregister(gp.gp_stream);
	done_sd(iev, peerid, &sd);
}

static void
send_file(struct imsgev *iev, uint32_t peerid, uint32_t kind,
    const char *path, uint64_t size)
{
	struct git_file	 gf;

	memset(&gf, 0, sizeof(gf));
	gf.gf_kind = kind;
	gf.gf_size = size;
	if (strlcpy(gf.gf_path, path, sizeof(gf.gf_path)) >=
	    sizeof(gf.gf_path))
		return;		/* git itself keeps paths shorter */
	imsg_compose_event(iev, IMSG_GIT_FILE, peerid, 0, -1, &gf,
	    sizeof(gf));
}

/*
 * The untracked files that travel, by git's own ignore rules (the
 * owner's global ignores among them), and the untracked repositories,
 * which stay: libgit2 reports each as one folder entry ending in '/'.
 */
static void
serve_files(struct imsgev *iev, uint32_t peerid, git_repository *r)
{
	git_status_options	 so;
	git_status_list		*list;
	const git_status_entry	*e;
	struct stat		 sb;
	char			 path[PATH_MAX * 2];
	const char		*rel;
	size_t			 i, n, len;

	if (git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION) != 0) {
		done_libgit2(iev, peerid, "status options");
		return;
	}
	so.show = GIT_STATUS_SHOW_WORKDIR_ONLY;
	so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED |
	    GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
	    GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
	if (git_status_list_new(&list, r, &so) != 0) {
		done_libgit2(iev, peerid, "status");
		return;
	}
	n = git_status_list_entrycount(list);
	for (i = 0; i < n; i++) {
		e = git_status_byindex(list, i);
		if ((e->status & GIT_STATUS_WT_NEW) == 0 ||
		    e->index_to_workdir == NULL)
			continue;
		rel = e->index_to_workdir->new_file.path;
		len = strlen(rel);
		if (len > 0 && rel[len - 1] == '/') {
			snprintf(path, sizeof(path), "%.*s", (int)len - 1, rel);
			send_file(iev, peerid, GIT_FILE_REPOSITORY, path, 0);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", repo.rs_top, rel);
		send_file(iev, peerid, GIT_FILE_TRAVELS, rel,
		    lstat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0);
	}
	git_status_list_free(list);
	done(iev, peerid, NULL, NULL);
}

static void
send_limit(struct imsgev *iev, uint32_t peerid, uint32_t kind,
    const char *path)
{
	struct git_limit gl;

	memset(&gl, 0, sizeof(gl));
	gl.gl_kind = kind;
	if (strlcpy(gl.gl_path, path, sizeof(gl.gl_path)) >=
	    sizeof(gl.gl_path))
		return;
	imsg_compose_event(iev, IMSG_GIT_LIMIT, peerid, 0, -1, &gl,
	    sizeof(gl));
}

/* Does this attributes blob send anything through Git LFS? */
static int
attributes_use_lfs(git_repository *r, const git_oid *id)
{
	git_blob	*blob;
	const char	*p, *end;
	int		 found = 0;

	if (git_blob_lookup(&blob, r, id) != 0)
		return 0;
	p = git_blob_rawcontent(blob);
	end = p + git_blob_rawsize(blob);
	for (; p != NULL && end - p >= 10; p++)
		if (memcmp(p, "filter=lfs", 10) == 0) {
			found = 1;
			break;
		}
	git_blob_free(blob);
	return found;
}

/* Submodules arrive empty and LFS files as pointers: say where. */
static void
serve_limits(struct imsgev *iev, uint32_t peerid, git_repository *r)
{
	git_index		*index;
	const git_index_entry	*e;
	const char		*base;
	size_t			 i, n;

	if (git_repository_index(&index, r) != 0) {
		done_libgit2(iev, peerid, "index");
		return;
	}
	n = git_index_entrycount(index);
	for (i = 0; i < n; i++) {
		e = git_index_get_byindex(index, i);
		if (e->mode == GIT_FILEMODE_COMMIT) {
			send_limit(iev, peerid, GIT_LIMIT_SUBMODULE, e->path);
			continue;
		}
		base = strrchr(e->path, '/');
		base = base != NULL ? base + 1 : e->path;
		if (strcmp(base, ".gitattributes") == 0 &&
		    attributes_use_lfs(r, &e->id))
			send_limit(iev, peerid, GIT_LIMIT_LFS, e->path);
	}
	git_index_free(index);
	done(iev, peerid, NULL, NULL);
}

/*
 * A split index, which libgit2 cannot read, merged in memory as r's
 * (split_index.c) so that its status and index calls read it; one that
 * cannot be merged stays unread, and their failure names it.
 */
static void
index_merged(git_repository *r)
{
	git_index	*index;
	const char	*why;

	if (git_repository_index(&index, r) == 0) {
		git_index_free(index);
		return;
	}
	if (libgit2_index_split() && split_index_load(r, &why) == -1)
		log_debug("split index: %s", why);
}

void
git_serve(struct imsgev *iev, struct imsg *imsg)
{
	struct git_req	 gq;
	git_repository	*r;
	uint32_t	 peerid = imsg_get_peerid(imsg);

	memset(&gq, 0, sizeof(gq));
	if (imsg_get_type(imsg) != IMSG_GIT_PACK_REQ &&
	    (imsg_get_data(imsg, &gq, sizeof(gq)) == -1 ||
	    memchr(gq.gq_space, '\0', sizeof(gq.gq_space)) == NULL))
		fatalx("%s: bad request", __func__);
	if (!repo.rs_open) {
		done(iev, peerid, repo.rs_code, "%s", repo.rs_message);
		return;
	}
	if (repo_owner_changed()) {
		done(iev, peerid, ERR_GIT_WORKER_STALE, "the repository's "
		    "owner changed");
		return;
	}
	if (repo_open(&r) != 0) {
		done_libgit2(iev, peerid, repo.rs_top);
		return;
	}
	if (repo_stale(r)) {
		done(iev, peerid, ERR_GIT_WORKER_STALE, "the repository's git "
		    "files moved");
		git_repository_free(r);
		return;
	}
	switch (imsg_get_type(imsg)) {
	case IMSG_GIT_FILES_REQ:
		index_merged(r);
		serve_files(iev, peerid, r);
		break;
	case IMSG_GIT_LIMITS_REQ:
		index_merged(r);
		serve_limits(iev, peerid, r);
		break;
	case IMSG_GIT_SNAPSHOT_REQ:
	case IMSG_GIT_HISTORY_REQ:
	case IMSG_GIT_START_REQ:
		serve_snapshot(iev, peerid, r, &gq, imsg_get_type(imsg));
		break;
	case IMSG_GIT_PACK_REQ:
		serve_pack(iev, peerid, r, imsg);
		break;
	case IMSG_GIT_REFS_REMOVE_REQ: {
		struct space_done sd;

		memset(&sd, 0, sizeof(sd));
		(void)refs_remove(r, gq.gq_space, &sd);
		done_sd(iev, peerid, &sd);
		break;
	}
	}
	git_repository_free(r);
}
