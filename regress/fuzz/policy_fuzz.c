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

/*
 * Code out's tree policy (worker-git/spaced-git/tree_policy.c) on any
 * entry a space could make: no read past the bytes; .git is found
 * whatever the case; a link it lets pass never climbs above the tree,
 * as a plain walk of its target shows; an escaped path holds no
 * control byte.  Input: a mode byte, the path, NUL, the blob.
 * fuzz-link: worker-git/spaced-git/tree_policy.c
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "worker-git/spaced-git/tree_policy.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const uint32_t modes[] = { POLICY_MODE_FILE, POLICY_MODE_EXEC,
    POLICY_MODE_LINK, POLICY_MODE_TREE, POLICY_MODE_GITLINK, 0100664 };

/* A walk of target from the link's folder: does it climb above? */
static int
climbs(const char *path, size_t plen, const char *t, size_t tlen)
{
	long	 depth = 0;
	size_t	 i, start = 0, n;

	for (i = 0; i < plen; i++)
		if (path[i] == '/')
			depth++;
	if (tlen > 0 && (t[0] == '/' || t[0] == '\\'))
		return 1;
	for (i = 0; i <= tlen; i++) {
		if (i < tlen && t[i] != '/' && t[i] != '\\')
			continue;
		n = i - start;
		if (n == 2 && t[start] == '.' && t[start + 1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (n > 0 && !(n == 1 && t[start] == '.'))
			depth++;
		start = i + 1;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy_caps	 pc;
	struct policy_entry	 pe;
	const uint8_t		*nul;
	char			*upper, out[512];
	uint32_t		 bits, ubits;
	size_t			 i, n;

	if (size < 1)
		return 0;
	policy_caps_default(&pc);
	memset(&pe, 0, sizeof(pe));
	pe.pe_mode = modes[data[0] % (sizeof(modes) / sizeof(modes[0]))];
	pe.pe_old_mode = data[0] & 0x80 ? POLICY_MODE_EXEC : 0;
	data++, size--;
	nul = memchr(data, '\0', size);
	pe.pe_path = (const char *)data;
	pe.pe_path_len = nul != NULL ? (size_t)(nul - data) : size;
	if (nul != NULL) {
		pe.pe_data = (const char *)nul + 1;
		pe.pe_data_len = size - pe.pe_path_len - 1;
	}
	pe.pe_size = pe.pe_data_len;
	bits = policy_check_entry(&pc, &pe);
	/* A bad name is refused before its link is read. */
	if (pe.pe_mode == POLICY_MODE_LINK && pe.pe_data != NULL &&
	    (bits & (POLICY_SYMLINK_ESCAPE | POLICY_BAD_NAME)) == 0 &&
	    climbs(pe.pe_path, pe.pe_path_len, pe.pe_data, pe.pe_data_len))
		abort();
	/* The case of a name changes nothing about .git. */
	if ((upper = malloc(pe.pe_path_len + 1)) == NULL)
		return 0;
	for (i = 0; i < pe.pe_path_len; i++)
		upper[i] = pe.pe_path[i] >= 'a' && pe.pe_path[i] <= 'z' ?
		    pe.pe_path[i] - 'a' + 'A' : pe.pe_path[i];
	pe.pe_path = upper;
	ubits = policy_check_entry(&pc, &pe);
	if ((bits & POLICY_DOTGIT) != (ubits & POLICY_DOTGIT))
		abort();
	free(upper);
	n = policy_escape(out, sizeof(out), (const char *)data, size);
	if (n >= sizeof(out) || out[n] != '\0' || strlen(out) != n)
		abort();
	for (i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			abort();
	return 0;
}
