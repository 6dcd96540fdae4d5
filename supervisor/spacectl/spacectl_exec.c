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
 * spacectl exec ID [-g] [-n] [-t seconds] -- command [arg ...]
 *
 * Runs a command in a space (or, -g, its gatekeeper) through spaced:
 * our stdin goes in as a stream (unless -n), the command's stdout and
 * stderr come back as one and go to ours, and we exit with its exit
 * code; with -j, the output is collected into one JSON object instead.
 * The socket is non-blocking and polled both ways, so a command that
 * writes while we still send its stdin never deadlocks against us.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "labels.h"
#include "stream.h"
#include "spacectl.h"

#define EXEC_STDIN_CHUNK	8192	/* fits the control channel's cap */
#define EXEC_JSON_MAX		(64 * 1024 * 1024)
#define EXEC_SILENCE_MS		(4 * CTL_PROGRESS_SECONDS * 1000)

struct exec_client {
	struct imsgbuf		 ibuf;
	int			 json;
	struct stream_tx	 in;
	int			 in_open;	/* stdin still goes in */
	struct stream_rx	 out;
	int			 started;
	int			 out_ended;
	struct space_done	 done;
	int			 have_done;
	int			 finished;	/* END or FAIL */
	char			 fail[CTL_CODE_MAX];
	char			*buf[2];	/* -j: stdout, stderr */
	size_t			 len[2];
};

/*
 * O_NONBLOCK is a property of the open file, which our shell shares:
 * it goes back as it was on every way out, or the shell's next read
 * of its terminal fails with EAGAIN.
 */
static int	 stdin_flags = -1;

static void
restore_stdin(void)
{
	if (stdin_flags != -1)
		(void)fcntl(0, F_SETFL, stdin_flags);
}

static __dead void
usage_exec(void)
{
	fprintf(stderr, "usage: spacectl [-j] exec ID [-g] [-n] "
	    "[-t seconds] -- command [arg ...]\n");
	exit(2);
}

static void
write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t	 w;

	while (n > 0) {
		if ((w = write(fd, p, n)) == -1) {
			if (errno == EINTR)
				continue;
			/* Our reader left: the command's output goes nowhere. */
			exit(SPACECTL_EXEC_FAILED);
		}
		p += w;
		n -= w;
	}
}

static void
take_output(struct exec_client *xc, const uint8_t *p, size_t n)
{
	int	 which;

	if (n < 1)
		failed("bad_answer", "an empty output chunk");
	which = p[0] == EXEC_OUT_STDERR ? 1 : 0;
	if (p[0] != EXEC_OUT_STDOUT && p[0] != EXEC_OUT_STDERR)
		failed("bad_answer", "an output chunk of no stream");
	p++;
	n--;
	if (!xc->json) {
		write_all(which ? 2 : 1, p, n);
		return;
	}
	if (xc->len[which] + n > EXEC_JSON_MAX)
		failed(ERR_OUTPUT_TOO_LARGE, "more output than -j collects");
	if ((xc->buf[which] = realloc(xc->buf[which], xc->len[which] + n +
	    1)) == NULL)
		failed("out_of_memory", NULL);
	memcpy(xc->buf[which] + xc->len[which], p, n);
	xc->len[which] += n;
}

static void
dispatch(struct exec_client *xc, struct imsg *imsg)
{
	struct ctl_exec_streams	 xs;
	struct ctl_fail		 cf;
	const uint8_t		*data;
	size_t			 len = imsg_get_len(imsg);
	uint32_t		 id = imsg_get_peerid(imsg);

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
	case IMSG_STREAM_END:
		if (!xc->started || id != xc->out.sr_id)
			failed("bad_answer", "a stream we did not ask for");
		if (imsg_get_type(imsg) == IMSG_STREAM_END) {
			if (stream_rx_end(&xc->out, imsg) == -1)
				failed("bad_answer", "a broken output stream");
			xc->out_ended = 1;
			return;
		}
		if (stream_rx_data(&xc->out, imsg, &data, &len) == -1)
			failed("bad_answer", "a broken output stream");
		take_output(xc, data, len);
		if (stream_rx_consumed(&xc->out, &xc->ibuf, len) == -1)
			failed("send", strerror(errno));
		return;
	case IMSG_STREAM_CREDIT:
		if (!xc->in_open && (!xc->started || id != xc->in.st_id))
			return;	/* crossed our END */
		if (id != xc->in.st_id || stream_tx_credit(&xc->in, imsg) == -1)
			failed("bad_answer", "a credit we are not owed");
		return;
	}
	if (id != CTL_PEERID(0))
		failed("bad_answer", "another request's");
	switch (imsg_get_type(imsg)) {
	case IMSG_CTL_PROGRESS:
		return;
	case IMSG_CTL_DATA:
		if (!xc->started && len == sizeof(xs)) {
			(void)imsg_get_data(imsg, &xs, sizeof(xs));
			stream_rx_init(&xc->out, xs.xs_out);
			if (xs.xs_in != 0) {
				stream_tx_init(&xc->in, xs.xs_in);
				xc->in_open = 1;
			}
			xc->started = 1;
			return;
		}
		if (len != sizeof(xc->done) ||
		    imsg_get_data(imsg, &xc->done, sizeof(xc->done)) == -1)
			failed("bad_answer", "an unknown record");
		xc->done.sd_code[sizeof(xc->done.sd_code) - 1] = '\0';
		xc->done.sd_message[sizeof(xc->done.sd_message) - 1] = '\0';
		xc->have_done = 1;
		return;
	case IMSG_CTL_END:
		xc->finished = 1;
		return;
	case IMSG_CTL_FAIL:
		if (imsg_get_data(imsg, &cf, sizeof(cf)) == -1)
			failed("bad_answer", NULL);
		strlcpy(xc->fail, cf.cf_code, sizeof(xc->fail));
		xc->finished = 1;
		return;
	}
	failed("bad_answer", "unknown message");
}

/* Some of stdin, as far as the window allows; EOF ends the stream. */
static void
pump_stdin(struct exec_client *xc)
{
	uint8_t	 buf[EXEC_STDIN_CHUNK];
	size_t	 want = stream_tx_avail(&xc->in);
	ssize_t	 n;

	if (want > sizeof(buf))
		want = sizeof(buf);
	if ((n = read(0, buf, want)) == -1) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		n = 0;	/* an unreadable stdin is an empty one */
	}
	if (n == 0) {
		if (stream_tx_end(&xc->in, &xc->ibuf, 0) == -1)
			failed("send", strerror(errno));
		xc->in_open = 0;
		return;
	}
	if (stream_tx_send(&xc->in, &xc->ibuf, buf, n) == -1)
		failed("send", strerror(errno));
}

static json_t *
output_json(const char *s, size_t n)
{
	json_t	*o;

	/* Bytes that are not UTF-8 are shown as U+FFFD, never dropped. */
	if ((o = json_stringn(s != NULL ? s : "", n)) != NULL)
		return o;
	return json_stringn_nocheck("", 0);
}

static int
finish(struct exec_client *xc)
{
	json_t	*o;

	if (xc->fail[0] != '\0' || !xc->have_done) {
		if (xc->json) {
			o = json_pack("{s:s, s:s}", "error", xc->fail[0] ?
			    xc->fail : "bad_answer", "message",
			    xc->have_done ? xc->done.sd_message : "");
			json_dumpf(o, stdout, JSON_INDENT(2));
			printf("\n");
			json_decref(o);
		} else
			fprintf(stderr, "spacectl: %s%s%s\n", xc->fail[0] ?
			    xc->fail : "bad_answer", xc->have_done &&
			    xc->done.sd_message[0] ? ": " : "",
			    xc->have_done ? xc->done.sd_message : "");
		return SPACECTL_EXEC_FAILED;
	}
	if (xc->json) {
		o = json_pack("{s:i, s:o, s:o}", "exitCode", xc->done.sd_exit,
		    "stdout", output_json(xc->buf[0], xc->len[0]),
		    "stderr", output_json(xc->buf[1], xc->len[1]));
		json_dumpf(o, stdout, JSON_INDENT(2));
		printf("\n");
		json_decref(o);
	}
	return xc->done.sd_exit;
}

int
exec_main(int argc, char *argv[], const char *sockpath, int json)
{
	static struct ctl_exec	 cx;
	struct exec_client	 xc;
	struct imsg		 imsg;
	struct pollfd		 pfd[2];
	const char		*errstr, *id;
	size_t			 n, off = 0;
	ssize_t			 r;
	int			 ch, i, s, nostdin = 0, silence = 0;

	memset(&cx, 0, sizeof(cx));
	memset(&xc, 0, sizeof(xc));
	xc.json = json;
	if (argc < 2)
		usage_exec();
	id = argv[1];
	argc--;
	argv++;
	optind = 0;
	while ((ch = getopt(argc, argv, "+gnt:")) != -1) {
		switch (ch) {
		case 'g':
			cx.cx_target = EXEC_TARGET_GATEKEEPER;
			break;
		case 'n':
			nostdin = 1;
			break;
		case 't':
			cx.cx_timeout_ms = strtonum(optarg, 1, 86400, &errstr) *
			    1000;
			if (errstr != NULL)
				failed("invalid_timeout", errstr);
			break;
		default:
			usage_exec();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage_exec();
	if (!space_id_valid(id))
		failed("invalid_space_id", "an ID is 12 lowercase hex "
		    "characters");
	strlcpy(cx.cx_id, id, sizeof(cx.cx_id));
	if (argc > SPACE_EXEC_ARGC_MAX)
		failed("invalid_argv", "too many arguments");
	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]) + 1;
		if (n > 4097 || off + n > sizeof(cx.cx_argv))
			failed("invalid_argv", "the command is too long");
		memcpy(cx.cx_argv + off, argv[i], n);
		off += n;
	}
	if (argv[0][0] == '\0')
		failed("invalid_argv", "an empty command");
	cx.cx_argc = argc;
	cx.cx_argv_len = off;
	cx.cx_stdin = !nostdin;

	s = connect_socket(sockpath);
	if (fcntl(s, F_SETFL, O_NONBLOCK) == -1)
		failed("fcntl", strerror(errno));
	if (!nostdin && (stdin_flags = fcntl(0, F_GETFL)) != -1) {
		atexit(restore_stdin);
		if (fcntl(0, F_SETFL, stdin_flags | O_NONBLOCK) == -1)
			failed("fcntl", strerror(errno));
	}
	imsgbuf_init(&xc.ibuf, s);
	imsgbuf_set_maxsize(&xc.ibuf, IMSG_HEADER_SIZE + IMSG_MAX_PAYLOAD);
	if (imsg_compose(&xc.ibuf, IMSG_CTL_EXEC, CTL_PEERID(0), getpid(), -1,
	    &cx, sizeof(cx)) == -1)
		failed("send", strerror(errno));

	while (!xc.finished) {
		pfd[0].fd = s;
		pfd[0].events = POLLIN |
		    (imsgbuf_queuelen(&xc.ibuf) > 0 ? POLLOUT : 0);
		pfd[1].fd = xc.in_open && stream_tx_avail(&xc.in) > 0 &&
		    imsgbuf_queuelen(&xc.ibuf) < 16 ? 0 : -1;
		pfd[1].events = POLLIN;
		if ((r = poll(pfd, 2, EXEC_SILENCE_MS)) == -1) {
			if (errno == EINTR)
				continue;
			failed("poll", strerror(errno));
		}
		if (r == 0) {
			/* spaced sends progress while the command runs */
			if (++silence > 1)
				failed(ERR_TIMEOUT, "spaced did not answer");
			continue;
		}
		silence = 0;
		if ((pfd[0].revents & POLLOUT) && imsgbuf_write(&xc.ibuf) == -1 &&
		    errno != EAGAIN && errno != EINTR)
			failed("send", strerror(errno));
		if (pfd[1].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
			pump_stdin(&xc);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if ((r = imsgbuf_read(&xc.ibuf)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			failed("read", strerror(errno));
		}
		if (r == 0)
			failed("connection_closed", "spaced closed the "
			    "connection");
		while (!xc.finished) {
			if ((r = imsgbuf_get(&xc.ibuf, &imsg)) == -1)
				failed("bad_answer", strerror(errno));
			if (r == 0)
				break;
			dispatch(&xc, &imsg);
			imsg_free(&imsg);
		}
	}
	close(s);
	return finish(&xc);
}
