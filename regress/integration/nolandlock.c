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
 * nolandlock command [args]: run a command as on a kernel without
 * Landlock.  The Landlock calls fail with ENOSYS from a seccomp filter
 * that every child inherits, so spaced and its workers see what an old
 * kernel shows them; nothing in spaced is told it is being tested.
 * Built by the integration suite that uses it, never installed.
 */

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	scmp_filter_ctx	 ctx;

	if (argc < 2) {
		fprintf(stderr, "usage: nolandlock command [arg ...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 ||
	    (ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SYS_landlock_create_ruleset, 0) != 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SYS_landlock_add_rule, 0) != 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
	    SYS_landlock_restrict_self, 0) != 0 ||
	    seccomp_load(ctx) != 0) {
		fprintf(stderr, "nolandlock: cannot install the filter\n");
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nolandlock: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
