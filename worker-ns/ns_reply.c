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

/* The channel to spaced, and the last word of every request. */

#include <sys/types.h>

#include <string.h>

#include "log.h"
#include "ns.h"

static struct imsgev	*chan;

struct imsgev *
ns_channel(void)
{
	return chan;
}

void
ns_channel_set(struct imsgev *iev)
{
	chan = iev;
}

void
ns_reply(uint32_t type, uint32_t peerid, const void *data, size_t len)
{
	if (imsg_compose_event(chan, type, peerid, 0, -1, data, len) == -1)
		fatal("%s: imsg_compose_event", __func__);
}

void
ns_done(uint32_t peerid, const char *code, const char *msg, int exit_code)
{
	struct space_done	 sd;

	memset(&sd, 0, sizeof(sd));
	strlcpy(sd.sd_code, code, sizeof(sd.sd_code));
	if (msg != NULL)
		strlcpy(sd.sd_message, msg, sizeof(sd.sd_message));
	sd.sd_exit = exit_code;
	ns_reply(IMSG_SPACE_DONE, peerid, &sd, sizeof(sd));
}
