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
 * One request and its answer, for the commands that need nothing more:
 * each DATA record goes to the caller's function, a struct space_done
 * is kept for the message of a FAIL, PROGRESS keeps the wait alive, and
 * a FAIL ends spacectl through request_failed().
 */

#include <sys/types.h>

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "spacectl.h"

/* spaced sends PROGRESS at least this often while a request runs. */
#define CALL_WAIT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)

void
ctl_call(int s, uint32_t type, const void *payload, size_t len, int json,
    void (*record)(struct imsg *, void *), void *arg)
{
	struct imsgbuf		 ibuf;
	struct imsg		 imsg;
	struct pollfd		 pfd;
	struct space_done	 sd;
	struct ctl_fail		 cf;
	ssize_t			 n;
	int			 have_done = 0;

	imsgbuf_init(&ibuf, s);
	if (imsg_compose(&ibuf, type, CTL_PEERID(0), getpid(), -1, payload,
	    len) == -1 || imsgbuf_flush(&ibuf) == -1)
		failed("send", strerror(errno));
	pfd.fd = s;
	pfd.events = POLLIN;
	for (;;) {
		if ((n = poll(&pfd, 1, CALL_WAIT_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0)
			request_failed(json, ERR_TIMEOUT, "spaced did not answer");
		if ((n = imsgbuf_read(&ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (n == 0)
			request_failed(json, "connection_closed", "spaced closed "
			    "the connection");
		while ((n = imsgbuf_get(&ibuf, &imsg)) > 0) {
			if (imsg_get_peerid(&imsg) != CTL_PEERID(0))
				failed("bad_answer", "another request's");
			switch (imsg_get_type(&imsg)) {
			case IMSG_CTL_PROGRESS:
				break;
			case IMSG_CTL_DATA:
				if (imsg_get_len(&imsg) == sizeof(sd)) {
					(void)imsg_get_data(&imsg, &sd,
					    sizeof(sd));
					sd.sd_message[sizeof(sd.sd_message) -
					    1] = '\0';
					have_done = 1;
				} else
					record(&imsg, arg);
				break;
			case IMSG_CTL_END:
				imsg_free(&imsg);
				imsgbuf_clear(&ibuf);
				return;
			case IMSG_CTL_FAIL:
				if (imsg_get_data(&imsg, &cf, sizeof(cf)) == -1)
					failed("bad_answer", NULL);
				cf.cf_code[sizeof(cf.cf_code) - 1] = '\0';
				request_failed(json, cf.cf_code, have_done ?
				    sd.sd_message : NULL);
			default:
				failed("bad_answer", "unknown message");
			}
			imsg_free(&imsg);
		}
		if (n == -1)
			failed("bad_answer", strerror(errno));
	}
}

void
json_out(json_t *o)
{
	if (o == NULL)
		failed("internal_error", "json");
	json_dumpf(o, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(o);
}
