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
#define ERR_OUTPUT_TOO_LARGE	"command_output_too_large"
#define ERR_RUNTIME_FOREIGN	"runtime_volume_foreign"	/* not ours */
/* The tools volume and the server inside (spec "Tools volume"). */
#define ERR_TOOLS_NOT_OURS	"tools_volume_not_ours"
#define ERR_TOOLS_MARKER	"tools_marker_mismatch"
#define ERR_TOOLS_FILL_FAILED	"tools_fill_failed"
#define ERR_SERVER_UNREADABLE	"space_server_answer_unreadable"
#define ERR_SERVER_UNREACHABLE	"space_server_unreachable"	/* not yet */
#define ERR_SERVER_NOT_READY	"space_server_not_ready"	/* deadline */
#define ERR_TOKEN_UNREADABLE	"space_token_unreadable"

#endif /* SPACED_ERRORS_H */
