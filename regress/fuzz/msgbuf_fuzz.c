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
 * Arbitrary bytes as a payload read with one fixed schema (every field
 * kind of common/msgbuf.h).  Invariants: a parse that passes the "at
 * end" check re-encodes to exactly the input; every string read holds
 * no NUL and fits its bound; a vector ends in NULL and fits its buffer;
 * a failure is EBADMSG or ERANGE, sticky, and leaves failed outputs empty.
 * Cost is linear in the input: a count is checked against its bound
 * before any loop.
 *
 * fuzz-link: common/msgbuf.c common/imsg.c
 */

#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msgbuf.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define ARGV_MAX	16
#define ENV_MAX		8

struct fields {
	uint32_t	 id;
	uint64_t	 size;
	char		 name[64];
	const char	*tag;
	size_t		 taglen;
	char		 argbuf[256];
	char		*argv[ARGV_MAX + 1];
	size_t		 argc;
	char		 envbuf[256];
	char		*envp[ENV_MAX + 1];
	size_t		 envc;
	uint8_t		 raw[4];
};

static void
check_strv(char **v, size_t n, const char *buf, size_t bufsz, int kv)
{
	size_t	 i, used = 0, l;

	if (v[n] != NULL)
		abort();
	for (i = 0; i < n; i++) {
		if (v[i] < buf || v[i] >= buf + bufsz)
			abort();
		l = strlen(v[i]);
		used += l + 1;
		if (kv && (v[i][0] == '=' || strchr(v[i], '=') == NULL))
			abort();
	}
	if (used > bufsz)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	static struct msg_writer w;	/* 16 KiB: off the stack */
	struct msg_reader r;
	struct fields	 f;
	const void	*out;
	size_t		 outlen;
	uint32_t	 x;
	int		 rc;

	memset(&f, 0xa5, sizeof(f));
	msg_reader_init(&r, buf, len);
	msg_read_u32(&r, &f.id);
	msg_read_u64(&r, &f.size);
	msg_read_str(&r, f.name, sizeof(f.name));
	msg_read_strn(&r, &f.tag, &f.taglen, 32);
	if (msg_read_strv(&r, f.argbuf, sizeof(f.argbuf), f.argv,
	    ARGV_MAX + 1, &f.argc, 0) == -1 && (f.argv[0] != NULL ||
	    f.argc != 0))
		abort();
	if (msg_read_strv(&r, f.envbuf, sizeof(f.envbuf), f.envp,
	    ENV_MAX + 1, &f.envc, MSG_STRV_KV) == -1 && (f.envp[0] != NULL ||
	    f.envc != 0))
		abort();
	msg_read_bytes(&r, f.raw, sizeof(f.raw));
	rc = msg_read_end(&r);

	/* What was read is well-formed whether or not the whole passed. */
	if (strlen(f.name) >= sizeof(f.name))
		abort();
	if (f.taglen > 32 || memchr(f.tag, '\0', f.taglen) != NULL)
		abort();
	check_strv(f.argv, f.argc, f.argbuf, sizeof(f.argbuf), 0);
	check_strv(f.envp, f.envc, f.envbuf, sizeof(f.envbuf), 1);

	if (rc == -1) {
		if (errno != EBADMSG && errno != ERANGE)
			abort();
		/* Sticky: nothing reads after a failure. */
		if (msg_read_u32(&r, &x) != -1 || x != 0)
			abort();
		return 0;
	}
	if (r.mr_off != len)
		abort();

	msg_writer_init(&w);
	msg_write_u32(&w, f.id);
	msg_write_u64(&w, f.size);
	msg_write_str(&w, f.name);
	msg_write_strn(&w, f.tag, f.taglen);
	msg_write_strv(&w, (const char *const *)f.argv, f.argc);
	msg_write_strv(&w, (const char *const *)f.envp, f.envc);
	msg_write_bytes(&w, f.raw, sizeof(f.raw));
	if (msg_writer_done(&w, &out, &outlen) == -1)
		abort();
	if (outlen != len || memcmp(out, buf, len) != 0)
		abort();
	return 0;
}
