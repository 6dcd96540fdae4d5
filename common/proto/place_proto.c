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

/* What the place protocol's messages share beyond their layout. */

#include <string.h>

#include "place_proto.h"

int
space_exec_argv(struct space_exec_req *se, const char *const *argv)
{
	size_t	 n, off = 0;

	for (se->se_argc = 0; argv[se->se_argc] != NULL; se->se_argc++) {
		n = strlen(argv[se->se_argc]) + 1;
		if (se->se_argc >= SPACE_EXEC_ARGC_MAX ||
		    n > sizeof(se->se_argv) - off)
			return -1;
		memcpy(se->se_argv + off, argv[se->se_argc], n);
		off += n;
	}
	se->se_argv_len = off;
	return 0;
}

int
tools_keep_valid(const struct tools_keep *tk)
{
	size_t	 i;

	for (i = 0; i < AGENT_PROFILES_MAX; i++)
		if (memchr(tk->tk_volume[i], '\0',
		    sizeof(tk->tk_volume[i])) == NULL)
			return -1;
	return 0;
}

int
tools_keep_has(const struct tools_keep *tk, const char *name)
{
	size_t	 i;

	for (i = 0; i < AGENT_PROFILES_MAX; i++)
		if (tk->tk_volume[i][0] != '\0' &&
		    strcmp(tk->tk_volume[i], name) == 0)
			return 1;
	return 0;
}
