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

#ifndef SPACED_GIT_PROTO_H
#define SPACED_GIT_PROTO_H

/*
 * Code in: spaced and spaced-launch, spaced and a repository's
 * spaced-git.  The conversations: docs/notes/common-protocols.md.
 */

#include <stdint.h>

#include "labels.h"
#include "proto.h"

/* An absolute path of a directory, NUL-terminated (PATH_MAX is 4096). */
#define GIT_DIR_MAX		4096

enum git_imsg_type {
	IMSG_LAUNCH_GIT_REQ = 50,	/* struct launch_git_req and an fd */
	IMSG_LAUNCH_GIT_REP,		/* struct launch_git_rep */
	IMSG_LAUNCH_EXITED,		/* struct launch_exit; the instance */
	IMSG_LAUNCH_KILL,		/* struct launch_exit; the instance */

	IMSG_GIT_FILES_REQ = 56,	/* struct git_req, and so on */
	IMSG_GIT_LIMITS_REQ,
	IMSG_GIT_FILE,			/* struct git_file */
	IMSG_GIT_LIMIT,			/* struct git_limit */
	IMSG_GIT_DONE,			/* struct space_done */
	IMSG_GIT_SNAPSHOT_REQ,
	IMSG_GIT_SNAP,			/* struct git_snap */
	IMSG_GIT_PACK_REQ,		/* struct git_pack_req */
	IMSG_GIT_REFS_REMOVE_REQ,
	IMSG_GIT_HISTORY_REQ,
};

#define GIT_REQ_CLEAN		0x01	/* snapshot: HEAD, nothing else */

struct launch_git_req {
	uint32_t	 lg_caller;	/* the client's uid */
	uint32_t	 lg_any_owner;	/* 1: any owner's (root asks) */
	char		 lg_dir[GIT_DIR_MAX];
};

struct launch_git_rep {
	int32_t		 lr_pid;	/* 0: not started, lr_code says why */
	uint32_t	 lr_uid;	/* the repository's owner, its uid */
	char		 lr_code[64];
	char		 lr_message[256];
};

struct launch_exit {
	int32_t		 le_pid;
	int32_t		 le_status;	/* as waitpid gives it */
};

/* spaced -> spaced-git: what the request is about. */
struct git_req {
	char		 gq_space[SPACE_ID_SIZE];	/* "" when none */
	uint8_t		 gq_pad[3];
	uint32_t	 gq_flags;
};

/* Object ids in hex: SHA-1 today, room for SHA-256. */
#define GIT_HEX_SIZE		65
#define GIT_BRANCH_MAX		256
#define GIT_NAME_MAX		65	/* the project folder's name inside */
#define GIT_IDENTITY_MAX	256	/* user.name, user.email: one line */
struct git_snap {
	char		 gs_base[GIT_HEX_SIZE];		/* HEAD */
	char		 gs_staged[GIT_HEX_SIZE];
	char		 gs_start[GIT_HEX_SIZE];
	char		 gs_format[8];			/* "sha1" */
	char		 gs_branch[GIT_BRANCH_MAX];	/* "": detached */
	char		 gs_name[GIT_NAME_MAX];
	char		 gs_user_name[GIT_IDENTITY_MAX];	/* "": none */
	char		 gs_user_email[GIT_IDENTITY_MAX];
	char		 gs_project[GIT_DIR_MAX];	/* below the top; "" */
};

enum git_pack_kind {
	GIT_PACK_START = 1,	/* base (no parents), staged and start */
	GIT_PACK_HISTORY,	/* everything behind base, base included */
};
struct git_pack_req {
	char		 gp_space[SPACE_ID_SIZE];
	uint8_t		 gp_pad[3];
	uint32_t	 gp_kind;	/* enum git_pack_kind */
	uint32_t	 gp_stream;
	char		 gp_base[GIT_HEX_SIZE];
	char		 gp_staged[GIT_HEX_SIZE];
	char		 gp_start[GIT_HEX_SIZE];
	uint8_t		 gp_pad2[1];
};

enum git_file_kind {
	GIT_FILE_TRAVELS = 1,	/* an untracked file that travels */
	GIT_FILE_REPOSITORY,	/* an untracked repository: stays */
};
struct git_file {
	uint32_t	 gf_kind;	/* enum git_file_kind */
	uint32_t	 gf_pad;
	uint64_t	 gf_size;	/* bytes on disk; 0 for a repository */
	char		 gf_path[GIT_DIR_MAX];	/* relative to the top */
};

enum git_limit_kind {
	GIT_LIMIT_SUBMODULE = 1,	/* gl_path: it arrives empty */
	GIT_LIMIT_LFS,			/* gl_path: where it was seen */
};
struct git_limit {
	uint32_t	 gl_kind;	/* enum git_limit_kind */
	uint32_t	 gl_pad;
	char		 gl_path[GIT_DIR_MAX];
};

#endif /* SPACED_GIT_PROTO_H */
