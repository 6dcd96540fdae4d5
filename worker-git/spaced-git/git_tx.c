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
 * A stream spaced-git writes under credit, blocking: the pack of code
 * in (git_pack.c) and the quarantine's pack out (git_quarantine.c).
 * While it waits it takes only credit and its request's cancel.
 */

#include <sys/types.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "imsg.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "git_worker.h"

void
git_tx_init(struct git_tx *gt, struct imsgev *iev, uint32_t stream,
    uint32_t request, int wait_ms)
{
	gt->gt_iev = iev;
	gt->gt_request = request;
	gt->gt_wait_ms = wait_ms;
	gt->gt_cancelled = gt->gt_stalled = 0;
	stream_tx_init(&gt->gt_tx, stream);
}

/* Until credit comes: -1 when none came in the wait, or a cancel did. */
static int
git_tx_wait(struct git_tx *gt)
{
	struct pollfd	 pfd;
	struct imsg	 imsg;
	int		 n;

	if (imsgbuf_flush(&gt->gt_iev->ibuf) == -1)
		return -1;
	pfd.fd = gt->gt_iev->ibuf.fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, gt->gt_wait_ms) <= 0) {
		gt->gt_stalled = 1;
		return -1;
	}
	if ((n = imsgbuf_read(&gt->gt_iev->ibuf)) == 0)
		exit(0);		/* spaced is gone */
	if (n == -1 && errno != EAGAIN && errno != EINTR)
		fatal("%s: read", __func__);
	while ((n = imsgbuf_get(&gt->gt_iev->ibuf, &imsg)) > 0) {
		if (imsg_get_type(&imsg) == IMSG_STREAM_CREDIT &&
		    imsg_get_peerid(&imsg) == gt->gt_tx.st_id) {
			if (stream_tx_credit(&gt->gt_tx, &imsg) == -1)
				fatal("%s: credit", __func__);
		} else if (imsg_get_type(&imsg) == IMSG_WORKER_CANCEL &&
		    imsg_get_peerid(&imsg) == gt->gt_request)
			gt->gt_cancelled = 1;
		else
			fatalx("%s: message %u while a pack streams", __func__,
			    imsg_get_type(&imsg));
		imsg_free(&imsg);
	}
	if (n == -1)
		fatal("%s: imsgbuf_get", __func__);
	return gt->gt_cancelled ? -1 : 0;
}

/* Bytes sent as credit allows; -1: stalled or cancelled. */
int
git_tx_write(void *arg, const void *buf, size_t size)
{
	struct git_tx	*gt = arg;
	const uint8_t	*p = buf;
	size_t		 n;

	while (size > 0) {
		while (stream_tx_avail(&gt->gt_tx) == 0)
			if (git_tx_wait(gt) == -1)
				return -1;
		n = size < STREAM_CHUNK ? size : STREAM_CHUNK;
		if (n > stream_tx_avail(&gt->gt_tx))
			n = stream_tx_avail(&gt->gt_tx);
		if (stream_tx_send(&gt->gt_tx, &gt->gt_iev->ibuf, p, n) == -1)
			fatal("%s: stream_tx_send", __func__);
		p += n;
		size -= n;
	}
	return 0;
}
