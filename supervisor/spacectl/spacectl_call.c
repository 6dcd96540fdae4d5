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
 * The one request/answer loop: send a request, read its answers until
 * END or FAIL, and hand each to the command's callbacks.  PROGRESS
 * keeps the wait alive; silence for several of its periods means spaced
 * is stuck.
 */

#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define CALL_WAIT_MS	(4 * CTL_PROGRESS_SECONDS * 1000)

int
connect_socket(const char *path)
{
	struct sockaddr_un	 sun;
	int			 s;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path))
		failed("bad_socket_path", path);
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		failed("socket", strerror(errno));
	if (connect(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		unreachable(path, errno);
	return s;
}

/* A record of exactly len bytes, or spaced broke the protocol. */
void
ctl_read(struct imsg *imsg, void *p, size_t len)
{
	if (imsg_get_data(imsg, p, len) == -1)
		failed("bad_answer", "unknown record");
}

/* 1 when the DATA record is the struct space_done a failure sends. */
int
ctl_take_done(struct ctl_req *cr, struct imsg *imsg)
{
	struct space_done	*sd = &cr->cr_done;

	if (imsg_get_len(imsg) != sizeof(*sd))
		return 0;
	if (imsg_get_data(imsg, sd, sizeof(*sd)) == -1)
		failed("bad_answer", NULL);
	sd->sd_code[sizeof(sd->sd_code) - 1] = '\0';
	sd->sd_message[sizeof(sd->sd_message) - 1] = '\0';
	cr->cr_have_done = 1;
	return 1;
}

/* The request goes out on fd s; its answers are read by ctl_wait(). */
void
ctl_send(struct ctl_req *cr, int s)
{
	struct imsgbuf	*ibuf = &cr->cr_ibuf;

	cr->cr_fd = s;
	cr->cr_have_done = cr->cr_finished = 0;
	imsgbuf_init(ibuf, s);
	if (imsg_compose(ibuf, cr->cr_type, CTL_PEERID(0), getpid(), -1,
	    cr->cr_payload, cr->cr_len) == -1)
		failed("send", strerror(errno));
	if (!cr->cr_nonblock && imsgbuf_flush(ibuf) == -1)
		failed("send", strerror(errno));
}

/*
 * An answer of another version: its payload may mean anything, so it is
 * not read.  A spaced from before answers carried its version echoes
 * ours in a protocol_version FAIL: it speaks another, unnamed.
 */
static __dead void
ctl_version_failed(uint32_t theirs)
{
	char	 msg[128];

	if (theirs == CTL_PROTO_VERSION)
		(void)snprintf(msg, sizeof(msg), "spacectl speaks %u, spaced "
		    "another version; use the spacectl of the same build",
		    (unsigned)CTL_PROTO_VERSION);
	else
		(void)snprintf(msg, sizeof(msg), "spacectl speaks %u, spaced "
		    "speaks %u; use the spacectl of the same build",
		    (unsigned)CTL_PROTO_VERSION, (unsigned)theirs);
	request_failed(ERR_PROTOCOL_VERSION, msg);
}

/*
 * The code, and the reason when spaced gave one (ctl_fail_why): that is
 * what the failure says, as a DATA struct space_done's message would.
 */
static void
ctl_fail(struct ctl_req *cr, struct imsg *imsg)
{
	struct ctl_fail_why	 fw;
	struct ctl_fail		*cf = &fw.fw_fail;
	struct space_done	*sd = &cr->cr_done;

	memset(&fw, 0, sizeof(fw));
	if (imsg_get_len(imsg) == sizeof(fw) ?
	    imsg_get_data(imsg, &fw, sizeof(fw)) == -1 :
	    imsg_get_data(imsg, cf, sizeof(*cf)) == -1)
		failed("bad_answer", NULL);
	cf->cf_code[sizeof(cf->cf_code) - 1] = '\0';
	fw.fw_message[sizeof(fw.fw_message) - 1] = '\0';
	if (strcmp(cf->cf_code, ERR_PROTOCOL_VERSION) == 0)
		ctl_version_failed(CTL_VERSION(imsg_get_peerid(imsg)));
	if (fw.fw_message[0] != '\0') {
		memset(sd, 0, sizeof(*sd));
		strlcpy(sd->sd_code, cf->cf_code, sizeof(sd->sd_code));
		strlcpy(sd->sd_message, fw.fw_message, sizeof(sd->sd_message));
		sd->sd_exit = -1;
		cr->cr_have_done = 1;
	}
	cr->cr_finished = 1;
	if (cr->cr_fail != NULL)
		cr->cr_fail(cr, cf->cf_code);
	else
		request_failed(cf->cf_code, cr->cr_have_done ?
		    cr->cr_done.sd_message : NULL);
}

static void
ctl_dispatch(struct ctl_req *cr, struct imsg *imsg)
{
	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
	case IMSG_STREAM_END:
	case IMSG_STREAM_CREDIT:
		/* The peerid is the stream's: the command checks it. */
		if (cr->cr_stream == NULL)
			failed("bad_answer", "unknown message");
		cr->cr_stream(cr, imsg);
		return;
	}
	if (CTL_VERSION(imsg_get_peerid(imsg)) != CTL_PROTO_VERSION)
		ctl_version_failed(CTL_VERSION(imsg_get_peerid(imsg)));
	if (imsg_get_peerid(imsg) != CTL_PEERID(0))
		failed("bad_answer", "another request's");
	switch (imsg_get_type(imsg)) {
	case IMSG_CTL_PROGRESS:
		if (cr->cr_progress != NULL)
			cr->cr_progress(cr, imsg);
		return;
	case IMSG_CTL_DATA:
		if (cr->cr_data == NULL)
			failed("bad_answer", "unexpected data");
		cr->cr_data(cr, imsg);
		return;
	case IMSG_CTL_END:
		cr->cr_finished = 1;
		return;
	case IMSG_CTL_FAIL:
		ctl_fail(cr, imsg);
		return;
	}
	failed("bad_answer", "unknown message");
}

/* What came in on the socket, handed on; a close is a failure. */
static void
ctl_input(struct ctl_req *cr)
{
	struct imsg	 imsg;
	ssize_t		 n;

	if ((n = imsgbuf_read(&cr->cr_ibuf)) == -1) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		failed("read", strerror(errno));
	}
	if (n == 0)
		request_failed("connection_closed", cr->cr_type ==
		    IMSG_CTL_EXEC || cr->cr_type == IMSG_CTL_ATTACH ?
		    "spaced closed the connection (it stopped or restarted); "
		    "the command may still run in the space" :
		    "spaced closed the connection (it stopped or restarted)");
	while (!cr->cr_finished) {
		if ((n = imsgbuf_get(&cr->cr_ibuf, &imsg)) == -1)
			failed("bad_answer", strerror(errno));
		if (n == 0)
			break;
		ctl_dispatch(cr, &imsg);
		imsg_free(&imsg);
	}
	/* Credit for a stream we read goes back at once. */
	if (!cr->cr_nonblock && imsgbuf_queuelen(&cr->cr_ibuf) > 0 &&
	    imsgbuf_flush(&cr->cr_ibuf) == -1)
		failed("send", strerror(errno));
}

void
ctl_wait(struct ctl_req *cr)
{
	struct pollfd	 pfd[2];
	struct timespec	 ts = { CALL_WAIT_MS / 1000, 0 };
	int		 n, silence = 0;

	while (!cr->cr_finished) {
		if (cr->cr_tick != NULL)
			cr->cr_tick(cr);
		pfd[0].fd = cr->cr_fd;
		pfd[0].events = POLLIN | (cr->cr_nonblock &&
		    imsgbuf_queuelen(&cr->cr_ibuf) > 0 ? POLLOUT : 0);
		pfd[1].fd = cr->cr_input_fd != NULL ? cr->cr_input_fd(cr) : -1;
		pfd[1].events = POLLIN;
		if ((n = cr->cr_sigmask != NULL ? ppoll(pfd, 2, &ts,
		    cr->cr_sigmask) : poll(pfd, 2, CALL_WAIT_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (n == 0) {
			if (++silence >= (cr->cr_patience > 0 ?
			    cr->cr_patience : 1))
				request_failed(ERR_TIMEOUT,
				    "spaced did not answer");
			continue;
		}
		silence = 0;
		if ((pfd[0].revents & POLLOUT) &&
		    imsgbuf_write(&cr->cr_ibuf) == -1 &&
		    errno != EAGAIN && errno != EINTR)
			failed("send", strerror(errno));
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
			cr->cr_input(cr);
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))
			ctl_input(cr);
		/* A keystroke (or a credit) goes now, not after one more poll. */
		if (cr->cr_nonblock && imsgbuf_queuelen(&cr->cr_ibuf) > 0 &&
		    imsgbuf_write(&cr->cr_ibuf) == -1 && errno != EAGAIN &&
		    errno != EINTR)
			failed("send", strerror(errno));
	}
	imsgbuf_clear(&cr->cr_ibuf);
}

void
ctl_req_set(struct ctl_req *cr, uint32_t type, const void *payload,
    size_t len, void *arg, void (*data)(struct ctl_req *, struct imsg *))
{
	cr->cr_type = type;
	cr->cr_payload = payload;
	cr->cr_len = len;
	cr->cr_arg = arg;
	cr->cr_data = data;
}

/* One request on a connection of its own. */
void
ctl_call(struct ctl_req *cr)
{
	ctl_send(cr, connect_socket(env->sc_socket));
	ctl_wait(cr);
	close(cr->cr_fd);
}
