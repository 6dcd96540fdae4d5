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

#ifndef SPACED_TOOLS_FRAME_H
#define SPACED_TOOLS_FRAME_H

/*
 * The filler's stdin (spec "The filler"): a JSON header line, then the
 * bytes of each file in its order.  Only the header and package.json
 * are built here; the tarballs and the bundle follow from the fds spaced
 * passed (docs/notes/spaced-docker-tools.md).  Both places fill with it:
 * spaced-docker in its one-shot container, spaced-ns in its one-shot.
 */

#include <stddef.h>
#include <stdint.h>

#include "agent.h"
#include "space_agent.h"

#define TOOLS_DIR		SPACE_TOOLS_DIR		/* the mount */
#define TOOLS_ROOT		SPACE_TOOLS_ROOT	/* the filler's */
#define TOOLS_STAGING_DIR	"/tmp/spaced-fill"
#define TOOLS_MARKER		".spaced-filled"
#define TOOLS_CA_NAME		"ca.pem"
#define TOOLS_HEADER_MAX	(64 * 1024)
#define TOOLS_FILES_MAX		32
#define TOOLS_FILE_MAX		(512ULL * 1024 * 1024)
#define TOOLS_TOTAL_MAX		(900ULL * 1024 * 1024)
#define TOOLS_PACKAGE_JSON_MAX	(64 * 1024)
#define TOOLS_CA_MAX		(1024 * 1024)
#define TOOLS_NAME_MAX		128

/* The filler's exit codes: the step that failed. */
enum tools_fill_exit {
	TOOLS_EXIT_OK = 0,
	TOOLS_EXIT_FRAMING = 2,
	TOOLS_EXIT_NPM = 3,
	TOOLS_EXIT_POSTINSTALL = 4,
	TOOLS_EXIT_BINARIES = 5,
	TOOLS_EXIT_SYNC = 6,
	TOOLS_EXIT_MARKER = 7,
	TOOLS_EXIT_CORRIDOR = 8,	/* its way out never came up */
};
/* The step's name for an error's details, "unknown" else. */
const char	*tools_fill_step(int exit_code);

/* The staging name of the profile's i-th package when packed. */
int	 tools_packed_name(uint32_t i, char *buf, size_t len);

/*
 * package.json for the profile, NUL-terminated: the packages as exact
 * dependencies, a packed one as "file:<staging>/packed-<i>.tgz" plus an
 * override "$<name>", so every copy in the tree is the local one.  Its
 * length, or -1 when the profile is not valid or buf is short.
 */
int	 tools_package_json(const struct agent_profile *, const char *staging,
	    char *buf, size_t len);

/*
 * The header line, with its newline, in a buffer the caller frees.
 * The files: package.json of pkg_size bytes first, then each packed
 * tarball (its ap_size), then the CA bundle of ca_size bytes when
 * ca_size > 0.  NULL on a bad profile or key, or a file over its cap.
 */
char	*tools_frame_header(const struct agent_profile *, const char *key,
	    size_t pkg_size, uint64_t ca_size, size_t *len);

/*
 * The marker rule (spec "ensure" step 3), on what the tools-check
 * one-shot's exec gave: /bin/sh -c '[ -f "$1" ] || exit 42; /bin/cat
 * "$1"' sh <marker>.  exited is 0 when no exit code was read (the exec
 * or the engine failed); out holds at most TOOLS_MARKER_OUT_MAX bytes of
 * its stdout, truncated when it wrote more.
 *   exit 42, and only 42        ABSENT: no marker, fill again
 *   exit 0, out exactly the key FILLED
 *   exit 0, anything else       MISMATCH (an empty marker too): fill again
 *   anything else               REJECT: the volume is kept, the call fails
 * A daemon hiccup is never read as "no marker": with a plain cat, a CLI
 * that cannot reach the daemon exits 1 like a missing file does.
 */
#define TOOLS_MARKER_ABSENT_EXIT	42
#define TOOLS_MARKER_OUT_MAX		256
enum tools_verdict {
	TOOLS_VERDICT_FILLED = 1,
	TOOLS_VERDICT_ABSENT,
	TOOLS_VERDICT_MISMATCH,
	TOOLS_VERDICT_REJECT,
};
enum tools_verdict tools_marker_verdict(int exited, int exit_code,
		    const uint8_t *out, size_t len, int truncated,
		    const char *key);
const char	*tools_verdict_name(enum tools_verdict);

#endif /* SPACED_TOOLS_FRAME_H */
