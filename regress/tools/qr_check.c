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
 * The quarantine's checks (worker-git/spaced-git/quarantine.c) as a
 * program, for the live code-out suite until spaced runs them:
 *   qr-check script               prints code out's script inside
 *   qr-check QDIR BASE START BASEPACK
 *                       a new quarantine QDIR with the host's objects
 *                       (code in's pack), then the space's pack on stdin
 * Prints "tip ID", "commits N", "flag REASON COMMIT PATH" (escaped);
 * exits 0 clean, 1 flagged, 2 refused ("refused: WHY").
 */

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "worker-git/spaced-git/quarantine.h"

extern const char codeout_script[];

static void
flag(void *arg, uint32_t reason, const git_oid *commit, const char *path,
    size_t len)
{
	char	 esc[8192], hex[GIT_OID_HEXSZ + 1];

	policy_escape(esc, sizeof(esc), path, len);
	git_oid_tostr(hex, sizeof(hex), commit);
	printf("flag %s %s %s\n", policy_reason_name(reason), hex, esc);
}

static int
refused(const char *why)
{
	printf("refused: %s\n", why);
	return 2;
}

int
main(int argc, char *argv[])
{
	struct qr_caps		 caps;
	struct qr_result	 res;
	git_repository		*q;
	git_oid			 base, start, tip;
	const char		*why = NULL;
	char			 hex[GIT_OID_HEXSZ + 1];
	int			 fd;

	if (argc == 2 && strcmp(argv[1], "script") == 0) {
		fputs(codeout_script, stdout);
		return 0;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: qr-check script | "
		    "QDIR BASE START BASEPACK\n");
		return 2;
	}
	git_libgit2_init();
	qr_caps_default(&caps);
	memset(&res, 0, sizeof(res));
	if (git_oid_fromstr(&base, argv[2]) != 0 ||
	    git_oid_fromstr(&start, argv[3]) != 0 ||
	    git_repository_init(&q, argv[1], 1) != 0 ||
	    (fd = open(argv[4], O_RDONLY)) == -1)
		return refused("bad arguments");
	if (qr_index(q, fd, &caps, &res, &why) == -1)
		return refused(why);
	close(fd);
	if (qr_index(q, STDIN_FILENO, &caps, &res, &why) == -1)
		return refused(why);
	if (qr_tip(q, &base, &res, &tip, &why) == -1)
		return refused(why);
	printf("tip %s\n", git_oid_tostr(hex, sizeof(hex), &tip));
	if (qr_check(q, &base, &start, &tip, &caps, flag, NULL, &res,
	    &why) == -1)
		return refused(why);
	printf("commits %u\n", res.qr_commits);
	return res.qr_flags != 0;
}
