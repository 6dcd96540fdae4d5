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

#ifndef GIT_WORKER_H
#define GIT_WORKER_H

#include <limits.h>

struct sandbox_spec;
extern const struct sandbox_spec git_sandbox;

/* git_repo.c: the repository of a spaced-git started with -g */
struct repo_state {
	int		 rs_open;	/* 0: rs_code says why not */
	char		 rs_dir[PATH_MAX];	/* as asked, resolved */
	char		 rs_top[PATH_MAX];	/* its work tree's top */
	char		 rs_code[64];
	char		 rs_message[256];
};
extern struct repo_state repo;
/* Before the filter: open, check, and fill in sb's Landlock rules. */
void	 repo_prewarm(const char *dir, struct sandbox_spec *sb);
struct git_repository;
int	 repo_open(struct git_repository **);
/* 1: git now reads files this process's Landlock rules do not cover. */
int	 repo_stale(struct git_repository *);

/* git_serve.c: the requests of a repository's spaced-git */
struct imsgev;
struct imsg;
void	 git_serve(struct imsgev *, struct imsg *);

/* git_done.c: a request's refusal, for the DONE git_serve.c sends */
struct space_done;
void	 snap_refuse(struct space_done *, const char *code, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));
void	 snap_libgit2(struct space_done *, const char *what);

/* git_codein.c, git_pack.c */
struct git_snap;
struct git_pack_req;
int	 snapshot_take(struct git_repository *, const char *space, int clean,
	    struct git_snap *, struct space_done *);
int	 refs_remove(struct git_repository *, const char *space,
	    struct space_done *);
int	 history_find(struct git_repository *, const char *space,
	    struct git_snap *, struct space_done *);
int	 pack_send(struct git_repository *, struct imsgev *, uint32_t request,
	    const struct git_pack_req *, struct space_done *);

#endif /* GIT_WORKER_H */
