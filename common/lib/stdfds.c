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
 * Standard input, output and error open, on /dev/null where the caller
 * closed one: else the first file or socket a program opens takes the
 * lowest free number, and what it prints (a log line, a command's
 * output) is written into that file or socket, or a read of stdin
 * reads it; daemon(3) later puts /dev/null over it behind our back.
 *
 * Only where someone else chose the descriptors: spaced and spacectl.
 * A worker's 0-2 are always set by whoever execs it (spaced's
 * worker_stdio, spaced-launch's child_stdio for spaced-git, the engine
 * or spaced-ns for the gatekeeper and the relay), so no worker calls it.
 */

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "stdfds.h"

int
stdfds_open(void)
{
	int	 fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* The lowest free number: fd itself, the ones below are open. */
		if (open("/dev/null", O_RDWR) != fd)
			return -1;
	}
	return 0;
}
