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
 * Freed memory holds no secret: a grant's JSON (jansson) and an exec's
 * stdin on its way to the engine (libevent's evbuffers) are zeroed when
 * the library frees them, and no core file is written.
 */

#include <sys/prctl.h>
#include <sys/resource.h>

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <jansson.h>

#include "log.h"
#include "zfree.h"

static void
zero_free(void *p)
{
	if (p == NULL)
		return;
	explicit_bzero(p, malloc_usable_size(p));
	free(p);
}

/* realloc may move the bytes: the old place is zeroed, never left. */
static void *
zero_realloc(void *p, size_t n)
{
	void	*q;
	size_t	 old;

	if (p == NULL)
		return malloc(n);
	old = malloc_usable_size(p);
	if ((q = malloc(n == 0 ? 1 : n)) == NULL)
		return NULL;
	memcpy(q, p, old < n ? old : n);
	zero_free(p);
	return q;
}

void
zfree_install(void)
{
	event_set_mem_functions(malloc, zero_realloc, zero_free);
	json_set_alloc_funcs(malloc, zero_free);
}

void
zfree_no_core(int dumpable)
{
	struct rlimit	 rl = { 0, 0 };

	if (setrlimit(RLIMIT_CORE, &rl) == -1)
		fatal("setrlimit(RLIMIT_CORE)");
	if (!dumpable && prctl(PR_SET_DUMPABLE, 0) == -1)
		fatal("prctl(PR_SET_DUMPABLE)");
}
