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

extern const struct sandbox_spec git_sandbox, qr_sandbox;

#include "sandbox.h"
#include "stream.h"

#define REPO_PATHS_MAX	12

/* The paths beside the work tree that Landlock lets it reach. */
struct path_list {
	char		 pl_path[REPO_PATHS_MAX][PATH_MAX];
	unsigned int	 pl_access[REPO_PATHS_MAX];
	size_t		 pl_n;
};

/* spaced-git's environment: the repository it was started with (-g). */
struct repo_state {
	int		 rs_open;	/* 0: rs_code says why not */
	char		 rs_dir[PATH_MAX];	/* as asked, resolved */
	char		 rs_top[PATH_MAX];	/* its work tree's top */
	char		 rs_code[64];
	char		 rs_message[256];
	struct path_list rs_allowed;	/* as found before the filter */
	struct sandbox_path rs_paths[REPO_PATHS_MAX + 1];
	struct sandbox_spec rs_sandbox;	/* git_sandbox plus rs_paths */
};
extern struct repo_state repo;
/* Before the filter: open, check, and fill in sb's Landlock rules. */
void	 repo_prewarm(const char *dir, struct sandbox_spec *sb);
struct git_repository;
int	 repo_open(struct git_repository **);
/* 1: git now reads files this process's Landlock rules do not cover. */
int	 repo_stale(struct git_repository *);
int	 repo_owner_changed(void);

/* git_serve.c: the requests of a repository's spaced-git */
struct imsgev;
struct imsg;
void	 git_serve(struct imsgev *, struct imsg *);

/* git_done.c: a request's refusal, for the DONE git_serve.c sends */
struct space_done;
void	 snap_refuse(struct space_done *, const char *code, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));
void	 snap_libgit2(struct space_done *, const char *what);
/* 1: libgit2's last error was a split index, which it cannot read. */
int	 libgit2_index_split(void);
/* 1: libgit2's last error was a sparse index (git_done.c). */
int	 libgit2_index_sparse(void);
/* split_index.c: a split index, merged in memory as the repository's. */
int	 split_index_load(struct git_repository *, const char **);
#define INDEX_SPLIT_WHY	"the index is split (core.splitIndex), which " \
	"libgit2 cannot read: run git config core.splitIndex false && " \
	"git update-index --no-split-index"

/* git_codein.c, git_pack.c */
struct git_snap;
struct git_pack_req;
int	 snapshot_take(struct git_repository *, const char *space, int clean,
	    struct git_snap *, struct space_done *);
int	 refs_remove(struct git_repository *, const char *space,
	    struct space_done *);
int	 start_find(struct git_repository *, const char *space,
	    struct git_snap *, struct space_done *);
int	 history_find(struct git_repository *, const char *space,
	    struct git_snap *, struct space_done *);
int	 pack_send(struct git_repository *, struct imsgev *, uint32_t request,
	    const struct git_pack_req *, struct space_done *);

/* git_quarantine.c: a space's quarantine (-Q) */
/* git_tx.c: a stream written under credit, blocking */
struct git_tx {
	struct imsgev		*gt_iev;
	struct stream_tx	 gt_tx;
	uint32_t		 gt_request;	/* its cancel's peer */
	int			 gt_wait_ms;	/* for credit, at most */
	int			 gt_cancelled;
	int			 gt_stalled;
};
void	 git_tx_init(struct git_tx *, struct imsgev *, uint32_t, uint32_t,
	    int);
int	 git_tx_write(void *, const void *, size_t);
void	 qr_serve(struct imsgev *, struct imsg *);
void	 qr_out_serve(struct imsgev *, struct imsg *);
/* git_applyserve.c: apply, as the repository's owner */
void	 apply_serve(struct imsgev *, struct imsg *);

#endif /* GIT_WORKER_H */
