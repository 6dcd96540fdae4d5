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
 * spaced.conf(5) and the kernel's audit lines, the two texts spaced
 * parses itself.  fuzz-link: supervisor/config.c supervisor/kmsg.c supervisor/audit_parse.c common/log.c -lseccomp
 */

#include <stdint.h>
#include <string.h>

#include "supervisor/spaced.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaced_conf	 conf;
	struct ctl_privileges	 cv;
	char			 err[256];
	long			 nr;

	config_defaults(&conf, 0, NULL, NULL);
	if (config_parse((const char *)data, size, &conf, err,
	    sizeof(err)) == 0) {
		/* Whatever it took is an absolute, terminated path. */
		if (memchr(conf.sc_socket, '\0', sizeof(conf.sc_socket)) ==
		    NULL || conf.sc_socket[0] != '/')
			__builtin_trap();
	} else if (memchr(err, '\0', sizeof(err)) == NULL)
		__builtin_trap();
	(void)kmsg_parse_seccomp((const char *)data, size, 42, &nr);
	memset(&cv, 0, sizeof(cv));
	if (audit_parse_status((const char *)data, size, &cv) == 0 &&
	    (memchr(cv.cv_uid, '\0', sizeof(cv.cv_uid)) == NULL ||
	    memchr(cv.cv_capeff, '\0', sizeof(cv.cv_capeff)) == NULL))
		__builtin_trap();
	return 0;
}
