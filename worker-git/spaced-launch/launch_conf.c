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
 * spaced.conf for a reload: spaced reads no file once it serves, so the
 * file named at our start (-c) is opened here and passed, read-only, to
 * be judged and parsed there.  Never another path: spaced cannot name one.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "git_proto.h"
#include "log.h"
#include "proc.h"
#include "launch.h"

void
launch_conf(struct imsgev *iev, struct imsg *imsg)
{
	struct launch_conf_rep	 lc;
	int			 fd = -1;

	if (imsg_get_len(imsg) != 0 || imsg->fd != -1)
		fatalx("%s: bad request", __func__);
	memset(&lc, 0, sizeof(lc));
	/* O_NONBLOCK: a FIFO put there must not hold us; spaced refuses it. */
	if (worker_conf() == NULL)
		lc.lc_errno = ENOENT;
	else if ((fd = open(worker_conf(), O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOCTTY)) == -1)
		lc.lc_errno = errno;
	imsg_compose_event(iev, IMSG_LAUNCH_CONF_REP, 0, 0, fd, &lc,
	    sizeof(lc));
}
