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

#ifndef SPACED_TOOLS_KEY_H
#define SPACED_TOOLS_KEY_H

/*
 * The content key of a tools volume (spec "Sources and the key"): new
 * content is a new key and so a new volume; a filled one never changes.
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "agent.h"

#define TOOLS_KEY_LEN		16
#define TOOLS_DESC_MAX		8192	/* the longest profile fits */
/* "spaced-tools-<install id>-<uid>-<key>", with its NUL */
#define TOOLS_VOLUME_MAX	128
/* 2: the fill moved into SPACE_TOOLS_ROOT, a new layout (issue 27) */
#define TOOLS_DESC_VERSION	"spaced-tools 2"

int	 tools_describe(const struct agent_profile *, const char *image,
	    const char *filler_sha256, char *buf, size_t len);
/* The key of that description; -1 as tools_describe. */
int	 tools_key(const struct agent_profile *, const char *image,
	    const char *filler_sha256, char key[TOOLS_KEY_LEN + 1]);
int	 tools_key_valid(const char *);
/* The volume's name; -1 on a bad install id or key, or a short buf. */
int	 tools_volume_name(char *buf, size_t len, const char *install,
	    uid_t uid, const char *key);

/* sha256 of an fd's content from offset 0, at most max bytes, as hex. */
int	 tools_sha256_fd(int fd, uint64_t max, char hex[SHA256_HEX_LEN + 1],
	    uint64_t *size);
void	 tools_sha256_hex(const void *, size_t, char hex[SHA256_HEX_LEN + 1]);

#endif /* SPACED_TOOLS_KEY_H */
