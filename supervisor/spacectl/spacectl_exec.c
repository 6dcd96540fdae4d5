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
 * spacectl exec: our stdin goes in as a stream (unless -n), the
 * command's output comes back and goes to ours (or, -j, into one
 * object), and we exit with its code.  The socket is non-blocking and
 * polled both ways, so a command that writes while we still send its
 * stdin never deadlocks against us.
 */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "errors.h"
#include "labels.h"
#include "stream.h"
#include "spacectl.h"
#include "spacectl_output.h"

#define EXEC_STDIN_CHUNK	8192	/* fits the control channel's cap */
#define EXEC_JSON_MAX		(64 * 1024 * 1024)
#define EXEC_TTY_EOF		0x04	/* the terminal's VEOF, Ctrl-D */

struct exec_client {
	struct ctl_req		 xc_req;
	struct stream_tx	 xc_in;
	int			 xc_in_open;	/* stdin still goes in */
	struct stream_rx	 xc_out;
	int			 xc_started;
	int			 xc_tty;		/* -t */
	size_t			 xc_eof_room;	/* -t, stdin no terminal */
	uint8_t			 xc_last;	/* stdin's last byte sent */
	char			 xc_fail[CTL_CODE_MAX];
	char			*xc_buf[2];	/* -j: stdout, stderr */
	size_t			 xc_len[2];
};

/*
 * O_NONBLOCK is a property of the open file, which our shell shares:
 * it goes back as it was on every way out, or the shell's next read
 * of its terminal fails with EAGAIN.
 */
static void
restore_stdin(void)
{
	if (env->sc_stdin_flags != -1)
		(void)fcntl(0, F_SETFL, env->sc_stdin_flags);
}

static void
take_output(struct exec_client *xc, const uint8_t *p, size_t n)
{
	int	 which;

	if (n < 1)
		failed("bad_answer", "an empty output chunk");
	/* A terminal has one stream; spaced-docker says stdout. */
	which = p[0] == EXEC_OUT_STDERR ? 1 : 0;
	if (p[0] != EXEC_OUT_STDOUT && p[0] != EXEC_OUT_STDERR)
		failed("bad_answer", "an output chunk of no stream");
	p++;
	n--;
	if (!env->sc_json) {
		out_bytes(which ? 2 : 1, p, n);
		return;
	}
	if (xc->xc_len[which] + n > EXEC_JSON_MAX)
		failed(ERR_OUTPUT_TOO_LARGE, "more output than -j collects");
	if ((xc->xc_buf[which] = realloc(xc->xc_buf[which],
	    xc->xc_len[which] + n + 1)) == NULL)
		failed("out_of_memory", NULL);
	memcpy(xc->xc_buf[which] + xc->xc_len[which], p, n);
	xc->xc_len[which] += n;
}

static void
exec_stream(struct ctl_req *cr, struct imsg *imsg)
{
	struct exec_client	*xc = cr->cr_arg;
	const uint8_t		*data;
	size_t			 len;
	uint32_t		 id = imsg_get_peerid(imsg);

	if (imsg_get_type(imsg) == IMSG_STREAM_CREDIT) {
		if (!xc->xc_in_open && (!xc->xc_started ||
		    id != xc->xc_in.st_id))
			return;	/* crossed our END */
		if (id != xc->xc_in.st_id ||
		    stream_tx_credit(&xc->xc_in, imsg) == -1)
			failed("bad_answer", "a credit we are not owed");
		return;
	}
	if (!xc->xc_started || id != xc->xc_out.sr_id)
		failed("bad_answer", "a stream we did not ask for");
	if (imsg_get_type(imsg) == IMSG_STREAM_END) {
		if (stream_rx_end(&xc->xc_out, imsg) == -1)
			failed("bad_answer", "a broken output stream");
		return;
	}
	if (stream_rx_data(&xc->xc_out, imsg, &data, &len) == -1)
		failed("bad_answer", "a broken output stream");
	take_output(xc, data, len);
	if (stream_rx_consumed(&xc->xc_out, &cr->cr_ibuf, len) == -1)
		failed("send", strerror(errno));
}

/* First the streams, at the end the exit code (a struct space_done). */
static void
exec_data(struct ctl_req *cr, struct imsg *imsg)
{
	struct exec_client	*xc = cr->cr_arg;
	struct ctl_exec_streams	 xs;

	if (!xc->xc_started && imsg_get_len(imsg) == sizeof(xs)) {
		if (imsg_get_data(imsg, &xs, sizeof(xs)) == -1)
			failed("bad_answer", "an unknown record");
		stream_rx_init(&xc->xc_out, xs.xs_out);
		if (xs.xs_in != 0) {
			stream_tx_init(&xc->xc_in, xs.xs_in);
			xc->xc_in_open = 1;
		}
		xc->xc_started = 1;
		return;
	}
	if (!ctl_take_done(cr, imsg))
		failed("bad_answer", "an unknown record");
}

static void
exec_fail(struct ctl_req *cr, const char *code)
{
	struct exec_client	*xc = cr->cr_arg;

	strlcpy(xc->xc_fail, code, sizeof(xc->xc_fail));
}

/* stdin is read when the window has room and the socket keeps up. */
static int
exec_input_fd(struct ctl_req *cr)
{
	struct exec_client	*xc = cr->cr_arg;

	return xc->xc_in_open && stream_tx_avail(&xc->xc_in) >
	    xc->xc_eof_room && imsgbuf_queuelen(&cr->cr_ibuf) < 16 &&
	    !(xc->xc_tty && tty_input_held()) ? 0 : -1;
}

/*
 * exec -t with stdin from a pipe or a file: its end goes in as the
 * space terminal's EOF (Ctrl-D; twice after a partial line, which the
 * first one only flushes), as a person ends a terminal's input; the
 * stream's own end is not passed on to a terminal.  Like script(1).
 */
static void
exec_tty_eof(struct exec_client *xc, struct ctl_req *cr)
{
	static const uint8_t	 eof[2] = { EXEC_TTY_EOF, EXEC_TTY_EOF };
	size_t			 n;

	n = xc->xc_in.st_sent == 0 || xc->xc_last == '\n' ||
	    xc->xc_last == '\r' ? 1 : 2;
	if (stream_tx_send(&xc->xc_in, &cr->cr_ibuf, eof, n) == -1)
		failed("send", strerror(errno));
}

/* Some of stdin, as far as the window allows; EOF ends the stream. */
static void
exec_input(struct ctl_req *cr)
{
	struct exec_client	*xc = cr->cr_arg;
	uint8_t			 buf[EXEC_STDIN_CHUNK];
	size_t			 want;
	ssize_t			 n;

	/* Room is kept in the window for the EOF bytes. */
	want = stream_tx_avail(&xc->xc_in) - xc->xc_eof_room;
	if (want > sizeof(buf))
		want = sizeof(buf);
	if ((n = read(0, buf, want)) == -1) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		/* -t in the background: we stop, the input waits */
		if (errno == EIO && xc->xc_tty && tty_read_background())
			return;
		n = 0;	/* an unreadable stdin is an empty one */
	}
	if (n == 0) {
		if (xc->xc_eof_room > 0)
			exec_tty_eof(xc, cr);
		if (stream_tx_end(&xc->xc_in, &cr->cr_ibuf, 0) == -1)
			failed("send", strerror(errno));
		xc->xc_in_open = 0;
		return;
	}
	if (stream_tx_send(&xc->xc_in, &cr->cr_ibuf, buf, n) == -1)
		failed("send", strerror(errno));
	xc->xc_last = buf[n - 1];
}

/*
 * exec -t: a stop or continue the poll saw is done first (the terminal
 * back, raw again); a new window size goes out once the streams are
 * known.
 */
static void
exec_tick(struct ctl_req *cr)
{
	struct exec_client	*xc = cr->cr_arg;
	struct ctl_exec_resize	 xr;

	tty_job();
	if (!xc->xc_started || !tty_resized())
		return;
	memset(&xr, 0, sizeof(xr));
	xr.xr_stream = xc->xc_out.sr_id;
	tty_size(&xr.xr_rows, &xr.xr_cols);
	if (xr.xr_rows == 0)
		return;
	if (imsg_compose(&cr->cr_ibuf, IMSG_CTL_EXEC_RESIZE, CTL_PEERID(0),
	    getpid(), -1, &xr, sizeof(xr)) == -1)
		failed("send", strerror(errno));
}

static int
exec_finish(struct exec_client *xc)
{
	struct ctl_req	*cr = &xc->xc_req;

	tty_stop();
	if (xc->xc_fail[0] != '\0' || !cr->cr_have_done) {
		out_exec_failed(xc->xc_fail[0] ? xc->xc_fail : "bad_answer",
		    cr->cr_have_done ? cr->cr_done.sd_message : "");
		return SPACECTL_EXEC_FAILED;
	}
	out_exec_result(cr->cr_done.sd_exit, xc->xc_buf[0], xc->xc_len[0],
	    xc->xc_buf[1], xc->xc_len[1], nstr(cr->cr_done.sd_message,
	    sizeof(cr->cr_done.sd_message)));
	return cr->cr_done.sd_exit;
}

/* The options up to the first word that is none; its index. */
static int
exec_opts(int argc, char *argv[], struct ctl_exec *cx)
{
	const char	*errstr;
	int		 ch;

	argv[0] = (char *)(uintptr_t)env->sc_cmd->cc_name;	/* in getopt's messages */
	optind = 0;	/* glibc: start over, at argv[1] */
	while ((ch = getopt(argc, argv, "+ginT:t")) != -1) {
		switch (ch) {
		case 'g':
			cx->cx_target = EXEC_TARGET_GATEKEEPER;
			break;
		case 'i':
			cx->cx_stdin = 1;	/* as without it: stdin goes in */
			break;
		case 'n':
			cx->cx_stdin = 0;
			break;
		case 't':
			cx->cx_tty = 1;
			break;
		case 'T':
			cx->cx_timeout_ms = strtonum(optarg, 1, 86400,
			    &errstr) * 1000;
			if (errstr != NULL)
				bad_value("invalid_timeout", "-T", optarg, errstr,
				    "whole seconds, 1 to 86400");
			break;
		default:
			usage();
		}
	}
	return optind;
}

/*
 * ID, the options and the command into cx.  The options may come
 * before the ID too, as docker exec -it takes them.
 */
static void
exec_args(int argc, char *argv[], struct ctl_exec *cx)
{
	const char	*id;
	size_t		 n, off = 0;
	int		 i;

	cx->cx_stdin = 1;
	i = exec_opts(argc, argv, cx);
	if (i >= argc || strcmp(argv[i], "--") == 0)
		usage();
	id = argv[i];
	argc -= i;
	argv += i;
	i = exec_opts(argc, argv, cx);
	argc -= i;
	argv += i;
	if (argc < 1)
		usage();
	check_space_id(id);
	strlcpy(cx->cx_id, id, sizeof(cx->cx_id));
	if (argc > SPACE_EXEC_ARGC_MAX)
		failed("invalid_argv", "too many arguments");
	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]) + 1;
		if (n > 4097 || off + n > sizeof(cx->cx_argv))
			failed("invalid_argv", "the command is too long");
		memcpy(cx->cx_argv + off, argv[i], n);
		off += n;
	}
	if (argv[0][0] == '\0')
		failed("invalid_argv", "an empty command");
	cx->cx_argc = argc;
	cx->cx_argv_len = off;
}

/* One exec (or attach) of cx to its end; the command's exit status. */
static int
exec_run(struct ctl_exec *cx, uint32_t type)
{
	struct exec_client	 xc;
	struct ctl_req		*cr = &xc.xc_req;
	int			 s;

	memset(&xc, 0, sizeof(xc));
	s = connect_socket(env->sc_socket);
	if (fcntl(s, F_SETFL, O_NONBLOCK) == -1)
		failed("fcntl", strerror(errno));
	if (cx->cx_tty) {
		xc.xc_tty = 1;
		if (cx->cx_stdin && !isatty(0))
			xc.xc_eof_room = 2;
		tty_size(&cx->cx_rows, &cx->cx_cols);
		cr->cr_tick = exec_tick;
		cr->cr_sigmask = tty_poll_mask();
	}
	if (cx->cx_stdin && (env->sc_stdin_flags = fcntl(0, F_GETFL)) != -1) {
		if (!cx->cx_tty)
			atexit(restore_stdin);
		if (fcntl(0, F_SETFL, env->sc_stdin_flags | O_NONBLOCK) == -1)
			failed("fcntl", strerror(errno));
	}
	/* After the flags were read: its restore puts them back too. */
	if (cx->cx_tty)
		tty_start(cx->cx_stdin ? env->sc_stdin_flags : -1);
	ctl_req_set(cr, type, cx, sizeof(*cx), &xc, exec_data);
	cr->cr_stream = exec_stream;
	cr->cr_fail = exec_fail;
	cr->cr_input_fd = exec_input_fd;
	cr->cr_input = exec_input;
	cr->cr_nonblock = 1;
	/* spaced sends progress while the command runs */
	cr->cr_patience = 2;
	ctl_send(cr, s);
	ctl_wait(cr);
	close(s);
	return exec_finish(&xc);
}

int
exec_main(int argc, char *argv[])
{
	static struct ctl_exec	 cx;

	exec_args(argc, argv, &cx);
	return exec_run(&cx, IMSG_CTL_EXEC);
}

/*
 * attach ID: the agent's own screen in our terminal; spaced picks the
 * command (the agent profile's), we give it a terminal and our keys.
 */
int
attach_main(int argc, char *argv[])
{
	static struct ctl_exec	 cx;

	if (argc != 2)
		usage();
	check_space_id(argv[1]);
	strlcpy(cx.cx_id, argv[1], sizeof(cx.cx_id));
	cx.cx_tty = 1;
	cx.cx_stdin = 1;
	return exec_run(&cx, IMSG_CTL_ATTACH);
}
