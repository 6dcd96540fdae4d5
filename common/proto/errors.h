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

#ifndef SPACED_ERRORS_H
#define SPACED_ERRORS_H

/*
 * Error codes are stable strings: they reach users, scripts and tests,
 * and never change meaning once published.  The spec's codes are kept.
 */
#define ERR_SPACE_NOT_FOUND	"space_not_found"
#define ERR_SPACE_NOT_OURS	"space_not_ours"
#define ERR_PERMISSION_DENIED	"permission_denied"	/* root only */
#define ERR_BAD_REQUEST		"bad_request"		/* malformed */
#define ERR_REQUEST_TOO_LARGE	"request_too_large"
#define ERR_UNKNOWN_REQUEST	"unknown_request"
#define ERR_PROTOCOL_VERSION	"protocol_version"
#define ERR_WORKER_UNAVAILABLE	"worker_unavailable"
#define ERR_BUSY		"busy"
#define ERR_DOCKER_UNREACHABLE	"docker_unreachable"
#define ERR_DOCKER_UNREADABLE	"docker_output_unreadable"
#define ERR_DOCKER_TOO_OLD	"docker_too_old"
#define ERR_DOCKER_NO_SECCOMP	"docker_no_seccomp"	/* no default profile */
#define ERR_DOCKER_TOO_NEW	"docker_too_new"	/* dropped every API we speak */
#define ERR_TIMEOUT		"command_timeout"
#define ERR_INTERNAL		"internal_error"
#define ERR_CANCELLED		"cancelled"	/* the client left */
#define ERR_SPACE_NAME_TAKEN	"space_name_taken"
#define ERR_SPACE_NOT_RUNNING	"space_not_running"
#define ERR_SPACE_VERIFY_FAILED	"space_verify_failed"	/* violations sent */
#define ERR_GATEKEEPER_MISSING	"gatekeeper_missing"
#define ERR_DOCKER_FAILED	"docker_command_failed"
#define ERR_RUNTIME_MISSING	"runtime_missing"	/* no relay to fill from */
#define ERR_GATEKEEPER_REFUSED	"gatekeeper_refused"	/* its control said no */
#define ERR_INVALID_EXEC_TARGET	"invalid_exec_target"
#define ERR_INVALID_TIMEOUT	"invalid_timeout"	/* -T where it cannot hold */
#define ERR_OUTPUT_TOO_LARGE	"command_output_too_large"
#define ERR_RUNTIME_FOREIGN	"runtime_volume_foreign"	/* not ours */
/* A runtime or tools volume went before the container that mounts it. */
#define ERR_VOLUME_GONE		"space_volume_gone"
/* code in (spec "Code in") */
#define ERR_PROJECT_FOLDER_MISSING "project_folder_missing"
#define ERR_REPOSITORY_NOT_OWNED "repository_not_owned"	/* a plain caller's */
#define ERR_CODE_IN_FAILED	"code_in_failed"
#define ERR_NOT_A_GIT_WORK_TREE	"not_a_git_work_tree"
#define ERR_GIT_COMMAND_FAILED	"git_command_failed"	/* libgit2 said no */
#define ERR_REPOSITORY_HAS_NO_COMMIT "repository_has_no_commit"
#define ERR_REPOSITORY_HAS_UNMERGED "repository_has_unmerged_changes"
#define ERR_SPACE_REF_EXISTS	"space_ref_exists"
#define ERR_PROJECT_FOLDER_NO_TRAVEL "project_folder_does_not_travel"
#define ERR_UNSUPPORTED_OBJECT_FORMAT "unsupported_object_format"
#define ERR_UNSUPPORTED_INDEX_FORMAT "unsupported_index_format"	/* split */
#define ERR_SPACE_PATH_IN_USE	"space_path_in_use"
#define ERR_CODE_TRANSFER_FAILED "code_transfer_failed"
#define ERR_CODE_UNFOLD_FAILED	"code_unfold_failed"
#define ERR_HISTORY_FAILED	"history_transfer_failed"
#define ERR_CODE_OUT_REFUSED	"code_out_refused"
#define ERR_CODE_OUT_FAILED	"code_out_failed"
#define ERR_NOT_A_COMMIT	"not_a_commit"
#define ERR_HOST_SHALLOW	"host_shallow"	/* an answer of history */
#define ERR_INVALID_BRANCH_NAME	"invalid_branch_name"	/* the space cannot take it */
/* A file needs a clean filter (Git LFS & co), which libgit2 cannot run. */
#define ERR_CLEAN_FILTER_UNSUPPORTED "clean_filter_unsupported"
#define ERR_GIT_WORKER_FAILED	"git_worker_failed"	/* its spaced-git died */
/* spaced-git's rules no longer cover the repository: spaced starts anew */
#define ERR_GIT_WORKER_STALE	"git_worker_stale"
/* The tools volume and the server inside (spec "Tools volume"). */
#define ERR_TOOLS_NOT_OURS	"tools_volume_not_ours"
#define ERR_TOOLS_MARKER	"tools_marker_mismatch"
#define ERR_TOOLS_FILL_FAILED	"tools_fill_failed"
#define ERR_SERVER_UNREADABLE	"space_server_answer_unreadable"
#define ERR_SERVER_UNREACHABLE	"space_server_unreachable"	/* not yet */
#define ERR_SERVER_NOT_READY	"space_server_not_ready"	/* deadline */
/* create: the server died SERVER_DEATHS_MAX times, never ready */
#define ERR_SERVER_FAILED	"space_server_failed"
#define ERR_TOKEN_UNREADABLE	"space_token_unreadable"
/*
 * New tools at the next start (spec): only the aside container of a
 * move exists; start finishes or undoes it.  And a move whose undo
 * could not put everything back (what: the answer's message).
 */
#define ERR_SPACE_MOVE_UNFINISHED "space_move_unfinished"
#define ERR_SPACE_MOVE_FAILED	"space_move_failed"
/* spaced.conf's "spaces per owner", and its outer networks' pool. */
#define ERR_TOO_MANY_SPACES	"too_many_spaces"
#define ERR_NETWORK_POOL_FULL	"network_pool_exhausted"
/* the native place: namespaces or limits refused, the first line why */
#define ERR_SANDBOX_UNAVAILABLE	"sandbox_unavailable"
/* attach: the agent profile names no attach command (or there is none) */
#define ERR_NO_ATTACH		"agent_has_no_attach"
/* default agent none, or an agent spaced.conf does not name */
#define ERR_NO_AGENT		"no_agent"
/* the native place: the state directory's disk has no room left */
#define ERR_DISK_FULL		"disk_full"

#endif /* SPACED_ERRORS_H */
