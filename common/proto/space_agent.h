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

#ifndef SPACED_SPACE_AGENT_H
#define SPACED_SPACE_AGENT_H

/*
 * What an agent profile makes of a space: the tools mount, the command
 * the relay starts, its variables.  The token reaches the server by
 * exec stdin only (docs/notes/common-space-server.md).  Pure.
 */

#include <stddef.h>
#include <stdint.h>

#include "agent.h"
#include "labels.h"

#define SPACE_TOOLS_DIR		"/opt/spaced-tools"	/* the volume */
/*
 * The fill, in a folder of the volume that the filler's uid owns: the
 * engine cannot give a volume's root to a uid (docs/privsep.md).
 */
#define SPACE_TOOLS_SUBDIR	"fill"
#define SPACE_TOOLS_ROOT	SPACE_TOOLS_DIR "/" SPACE_TOOLS_SUBDIR
#define SPACE_TOOLS_BIN		SPACE_TOOLS_ROOT "/node_modules/.bin"
#define SPACE_TOKEN_DIR		"/home/space/.spaced-space"
#define SPACE_TOKEN_FILE	SPACE_TOKEN_DIR "/token"
#define SPACE_TOKEN_BYTES	32	/* random, sent as base64url */
#define SPACE_TOKEN_LEN		43	/* its base64url, unpadded */
/* Through a temporary name: the command never reads half a token. */
#define SPACE_TOKEN_WRITE_ARGV { "/bin/sh", "-c", \
	"PATH=/usr/bin:/bin; umask 077; d=" SPACE_TOKEN_DIR "; " \
	"/bin/mkdir -p \"$d\" && /bin/chmod 700 \"$d\" && " \
	"/bin/cat > \"$d/token.new\" && /bin/mv -f \"$d/token.new\" " \
	"\"$d/token\"", NULL }
/* The window, as the space sees it; a grant's base is this/<grant>. */
#define SPACE_WINDOW_URL	"http://gatekeeper:8080/model/"
#define SPACE_MODEL_GRANT	"model"	/* the grant the model setting names */
#define SPACE_AGENT_CMD_MAX	1024
#define SPACE_AGENT_ENV_MAX	1536
#define SPACE_AGENT_ENVS_MAX	(AGENT_ENVS_MAX + 1)

struct space_agent {
	char		 sa_name[AGENT_NAME_MAX + 1];	/* "" idle */
	char		 sa_tools[SPACE_RESOURCE_MAX];	/* volume; "" none */
	char		 sa_command[SPACE_AGENT_CMD_MAX];	/* sh -c line */
	uint32_t	 sa_nenv;
	uint32_t	 sa_envlen;	/* bytes of sa_env used */
	char		 sa_env[SPACE_AGENT_ENV_MAX];	/* NAME=value\0... */
};

int	 space_agent_build(const struct agent_profile *, struct space_agent *);
const char *space_agent_check(const struct space_agent *);
/* A token as create sends it: SPACE_TOKEN_LEN of base64url, terminated. */
int	 space_token_valid(const char *, size_t size);
/* The attach command's sh -c line (SPACE_AGENT_CMD_MAX); -1 none. */
int	 space_agent_attach(const struct agent_profile *, char *, size_t);
/* The i-th variable, or NULL past the last. */
const char *space_agent_env(const struct space_agent *, uint32_t i);

#endif /* SPACED_SPACE_AGENT_H */
