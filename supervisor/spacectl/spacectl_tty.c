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
 * exec -t's local terminal: raw while the command runs, as it was on
 * every way out (exit, a failure, a signal that ends us), and its size
 * at start and after each SIGWINCH.  SIGWINCH stays blocked but in the
 * poll (ppoll), so a resize is never read after the keys typed after it.
 */

#include <sys/ioctl.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ctl_proto.h"
#include "spacectl.h"

static struct termios		 tty_saved;
static volatile sig_atomic_t	 tty_raw;	/* tty_saved is to restore */
static volatile sig_atomic_t	 tty_winch;
static int			 tty_fl = -1;	/* fd 0's flags, to restore */
static sigset_t			 tty_pollmask;

/* Async-signal-safe: a signal handler calls it too. */
static void
tty_restore(void)
{
	if (tty_raw) {
		(void)tcsetattr(0, TCSADRAIN, &tty_saved);
		tty_raw = 0;
	}
	if (tty_fl != -1)
		(void)fcntl(0, F_SETFL, tty_fl);
}

/*
 * The terminal as it was, before any word of ours: a message printed in
 * raw mode has no carriage return, and the shell's prompt would follow
 * at its last column.
 */
void
tty_stop(void)
{
	tty_restore();
}

/* A signal that ends us: the terminal first, then its default action. */
static void
tty_fatal_signal(int sig)
{
	int	 saved_errno = errno;

	tty_restore();
	(void)signal(sig, SIG_DFL);
	(void)raise(sig);
	errno = saved_errno;
}

static void
tty_on_winch(int sig)
{
	tty_winch = 1;
}

/* The size of our terminal (stdin's, else stdout's); 0 when none. */
void
tty_size(uint16_t *rows, uint16_t *cols)
{
	struct winsize	 ws;

	*rows = *cols = 0;
	if (ioctl(0, TIOCGWINSZ, &ws) == -1 &&
	    ioctl(1, TIOCGWINSZ, &ws) == -1)
		return;
	if (ws.ws_row == 0 || ws.ws_col == 0 ||
	    ws.ws_row > EXEC_TTY_DIM_MAX || ws.ws_col > EXEC_TTY_DIM_MAX)
		return;
	*rows = ws.ws_row;
	*cols = ws.ws_col;
}

/* 1 once after each SIGWINCH. */
int
tty_resized(void)
{
	if (!tty_winch)
		return 0;
	tty_winch = 0;
	return 1;
}

/* What ppoll unblocks: SIGWINCH, blocked everywhere else. */
const sigset_t *
tty_poll_mask(void)
{
	return &tty_pollmask;
}

/*
 * Raw mode on stdin when it is a terminal (every byte goes through:
 * Ctrl-C, Ctrl-D, Ctrl-Z), the handlers that undo it, and SIGWINCH.
 * fl is fd 0's flags before we made it non-blocking (-1: untouched).
 */
void
tty_start(int fl)
{
	static const int	 fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				    SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2 };
	struct sigaction	 sa;
	struct termios		 raw;
	sigset_t		 block;
	size_t			 i;

	tty_fl = fl;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = tty_fatal_signal;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		(void)sigaction(fatal[i], &sa, NULL);
	sa.sa_handler = tty_on_winch;
	sa.sa_flags = SA_RESTART;
	(void)sigaction(SIGWINCH, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGWINCH);
	(void)sigprocmask(SIG_BLOCK, &block, &tty_pollmask);
	sigdelset(&tty_pollmask, SIGWINCH);
	atexit(tty_restore);
	if (!isatty(0) || tcgetattr(0, &tty_saved) == -1)
		return;
	raw = tty_saved;
	cfmakeraw(&raw);
	tty_raw = 1;
	if (tcsetattr(0, TCSADRAIN, &raw) == -1)
		tty_raw = 0;
}
