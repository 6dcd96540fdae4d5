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

#include <stddef.h>
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
	IMSG_LAUNCH_CONF_REQ,		/* no payload: spaced.conf, for a reload */
	IMSG_LAUNCH_CONF_REP,		/* struct launch_conf_rep and its fd */

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
	/* code out (docs/notes/spaced-git-codeout.md) */
	IMSG_LAUNCH_QR_REQ,		/* struct launch_qr_req and an fd */
	IMSG_GIT_START_REQ,		/* struct git_req: the space's start */
	IMSG_GIT_QR_REQ,		/* struct git_qr_req, to a quarantine */
	IMSG_GIT_QR_REC,		/* struct git_review_batch, from it */
	IMSG_LAUNCH_QR_REMOVE,		/* struct launch_qr_req, no fd */
	IMSG_GIT_APPLY_REQ,		/* struct git_apply_req, to the owner's */
	IMSG_GIT_APPLY_HAVE,		/* struct git_apply_have, from it */
	IMSG_GIT_APPLY_RESULT,		/* struct git_apply_result, from it */
	IMSG_GIT_QR_OUT_REQ,		/* struct git_apply_req, to a quarantine */
};

#define GIT_REQ_CLEAN		0x01	/* snapshot: HEAD, nothing else */

/*
 * The commit code out's script makes of the agent's uncommitted work:
 * its author and committer, and its subject (the body: "start <id>").
 */
#define CODEOUT_WORK_NAME	"spaced"
#define CODEOUT_WORK_EMAIL	"code-out@spaced.invalid"
#define CODEOUT_WORK_SUBJECT	"spaced: uncommitted work"

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

/* The file named at spaced-launch's start (-c), or why it is not open. */
struct launch_conf_rep {
	int32_t		 lc_errno;	/* 0: the fd is the file, read-only */
};

/*
 * The steps of spaced-launch's child between its fork and spaced-git's
 * exec, the one that failed named in IMSG_LAUNCH_EXITED.
 */
enum launch_step {
	LAUNCH_STEP_NONE,	/* it ran spaced-git, or was never asked */
	LAUNCH_STEP_CHANNEL,	/* the channel on fd 3, /dev/null on 0-2 */
	LAUNCH_STEP_BOUNDING,	/* the capabilities' bounding set */
	LAUNCH_STEP_CREDENTIALS,	/* the owner's (the quarantine's) ids */
	LAUNCH_STEP_DEATHSIG,	/* to die with spaced-launch */
	LAUNCH_STEP_QR_FOLDER,	/* the quarantine's folder, entered */
	LAUNCH_STEP_QR_CAPS,	/* the quarantine's three capabilities */
	LAUNCH_STEP_EXEC,	/* the exec of spaced-git */
	LAUNCH_STEP_MAX
};

struct launch_exit {
	int32_t		 le_pid;
	int32_t		 le_status;	/* as waitpid gives it */
	int32_t		 le_step;	/* enum launch_step: where it failed */
	int32_t		 le_errno;	/* and why; 0 with LAUNCH_STEP_NONE */
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

/*
 * spaced -> spaced-launch: start spaced-git in the quarantine of a
 * space, <lq_state>/quarantine/<lq_space>/ (made if missing), as
 * _spaced-quarantine, chrooted there; or remove that folder.
 */
struct launch_qr_req {
	char		 lq_space[SPACE_ID_SIZE];
	uint8_t		 lq_pad[3];
	char		 lq_state[GIT_DIR_MAX];	/* spaced's state directory */
};
#define QUARANTINE_USER		"_spaced-quarantine"
#define QUARANTINE_DIR		"quarantine"	/* in the state directory */

/* spaced -> a quarantine: the two packs it takes, on two streams. */
struct git_qr_req {
	char		 qq_space[SPACE_ID_SIZE];
	uint8_t		 qq_pad[3];
	uint32_t	 qq_flags;		/* GIT_QR_* */
	uint32_t	 qq_base_stream;	/* the owner's start pack */
	uint32_t	 qq_space_stream;	/* the script's output */
	char		 qq_base[GIT_HEX_SIZE];
	char		 qq_start[GIT_HEX_SIZE];
	char		 qq_tip[GIT_HEX_SIZE];	/* GIT_QR_REUSE: expected */
	uint8_t		 qq_pad2[1];
};
#define GIT_QR_PATCH		0x01	/* the patch text too */
#define GIT_QR_KEEP		0x02	/* apply: the store stays open after */
/*
 * apply after a review: no stream at all; the store the review left
 * serves only when its record holds this base, start and qq_tip (the
 * tip spaced kept), else the quarantine refuses: review again.
 */
#define GIT_QR_REUSE		0x04

/*
 * apply: to the owner's spaced-git (ga_begin, then the pack on
 * ap_stream), and to the quarantine (qr_pack_out onto ap_stream, less
 * ap_have).  ap_allow: reason names, comma-separated.
 */
#define APPLY_BRANCH		1
#define APPLY_WORKTREE		2
#define APPLY_ALLOW_MAX		256
struct git_apply_req {
	char		 ap_space[SPACE_ID_SIZE];
	uint8_t		 ap_pad[3];
	uint32_t	 ap_mode;		/* APPLY_BRANCH or APPLY_WORKTREE */
	uint32_t	 ap_stream;
	char		 ap_branch[GIT_BRANCH_MAX];
	char		 ap_allow[APPLY_ALLOW_MAX];
	char		 ap_base[GIT_HEX_SIZE];
	char		 ap_start[GIT_HEX_SIZE];
	char		 ap_tip[GIT_HEX_SIZE];
	char		 ap_have[GIT_HEX_SIZE];	/* "": none */
};
struct git_apply_have {
	char		 ah_have[GIT_HEX_SIZE];	/* "": none */
	uint8_t		 ah_pad[7];
};
#define APPLY_FROM_SPACE	0	/* the space's work as it is now */
#define APPLY_FROM_REVIEW	1	/* the tip the review kept */
struct git_apply_result {
	uint32_t	 ar_mode;
	uint32_t	 ar_created;		/* -b: a new branch */
	uint32_t	 ar_unchanged;		/* -b: already at tip */
	uint32_t	 ar_commits;
	uint32_t	 ar_objects;
	uint32_t	 ar_added, ar_modified, ar_deleted;	/* -w */
	char		 ar_branch[300];
	char		 ar_old[GIT_HEX_SIZE];	/* "": none */
	char		 ar_new[GIT_HEX_SIZE];
	uint8_t		 ar_from;		/* spaced's: APPLY_FROM_* */
	uint8_t		 ar_replaced;	/* -b: an earlier uncommitted work's */
};

/* One record of a review, computed in the quarantine; text escaped. */
enum git_review_kind {
	REVIEW_TIP = 1,		/* rr_commit: the tip; rr_size: commits */
	REVIEW_COMMIT,		/* rr_a: author, rr_b: subject */
	REVIEW_PATH,		/* rr_status, rr_size, rr_a; rr_b: renamed from */
	REVIEW_FLAG,		/* rr_status: the reason's bit; rr_a: path */
	REVIEW_PATCH,		/* rr_a: a piece of the patch text */
	REVIEW_BASE,		/* spaced's: rr_commit the base, rr_b start */
};
#define REVIEW_TEXT_MAX		8192
#define REVIEW_OLD_MAX		4096
struct git_review_rec {
	uint32_t	 rr_kind;		/* enum git_review_kind */
	uint32_t	 rr_status;		/* 'A' 'M' 'D' 'R' 'T'; a reason */
	uint64_t	 rr_size;
	char		 rr_commit[GIT_HEX_SIZE];
	uint8_t		 rr_pad[7];
	char		 rr_a[REVIEW_TEXT_MAX];
	char		 rr_b[REVIEW_OLD_MAX];
};
_Static_assert(sizeof(struct git_review_rec) <= 16384, "git_review_rec");
/*
 * spaced -> client: a record packed, its head then rr_a and rr_b as
 * two strings, each with its NUL (never one's full 12 KiB a path: ten
 * thousand paths would sit in spaced's queue).  One more NUL pads it
 * when it would be a struct space_done's or git_apply_result's size.
 */
#define REVIEW_HEAD_SIZE	offsetof(struct git_review_rec, rr_a)
/*
 * quarantine -> spaced: records packed so (review_pack.c), as many as
 * fit, in order; one record packed always fits.
 */
struct git_review_batch {
	uint32_t	 rb_used;
	uint32_t	 rb_pad;
	uint8_t		 rb_data[sizeof(struct git_review_rec)];
};

#endif /* SPACED_GIT_PROTO_H */
