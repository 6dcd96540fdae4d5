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
 * Job control goes the same way: SIGTSTP, SIGTTIN, SIGTTOU and SIGCONT
 * only mark, in the poll, and the loop (tty_job) gives the terminal back
 * before it stops for real and takes it again, raw, after.
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
static struct termios		 tty_rawmode;
static int			 tty_have;	/* tty_saved is stdin's */
static volatile sig_atomic_t	 tty_raw;	/* tty_saved is to restore */
static volatile sig_atomic_t	 tty_winch;
static volatile sig_atomic_t	 tty_susp;	/* a stop signal to take */
static volatile sig_atomic_t	 tty_cont;	/* continued: raw again */
static int			 tty_held;	/* input waits for the terminal */
static int			 tty_fl = -1;	/* fd 0's flags, to restore */
static int			 tty_started;
static sigset_t			 tty_pollmask;
static sigset_t			 tty_oldmask;

static void	tty_on_winch(int);
static void	tty_on_stop(int);
static void	tty_on_cont(int);

/* What only marks, for the loop; blocked but in the poll. */
static const struct {
	int	  sig;
	void	(*fn)(int);
} tty_marks[] = {
	{ SIGWINCH, tty_on_winch },
	{ SIGTSTP, tty_on_stop },
	{ SIGTTIN, tty_on_stop },
	{ SIGTTOU, tty_on_stop },
	{ SIGCONT, tty_on_cont },
};
#define TTY_NMARKS	(sizeof(tty_marks) / sizeof(tty_marks[0]))
static struct sigaction		 tty_oldact[TTY_NMARKS];

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

/* Raw again, fd 0 non-blocking again (the shell had it back). */
static void
tty_enter(void)
{
	if (tty_fl != -1)
		(void)fcntl(0, F_SETFL, tty_fl | O_NONBLOCK);
	if (!tty_have)
		return;
	tty_raw = 1;
	if (tcsetattr(0, TCSADRAIN, &tty_rawmode) == -1)
		tty_raw = 0;
}

/*
 * The terminal as it was, before any word of ours: a message printed in
 * raw mode has no carriage return, and the shell's prompt would follow
 * at its last column.  A stop signal from now on stops us as it would
 * have without us.
 */
void
tty_stop(void)
{
	size_t	 i;

	tty_have = 0;
	tty_restore();
	if (!tty_started)
		return;
	tty_started = 0;
	for (i = 0; i < TTY_NMARKS; i++)
		(void)sigaction(tty_marks[i].sig, &tty_oldact[i], NULL);
	(void)sigprocmask(SIG_SETMASK, &tty_oldmask, NULL);
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

static void
tty_on_stop(int sig)
{
	tty_susp = sig;
}

static void
tty_on_cont(int sig)
{
	tty_cont = 1;
}

/* Another process group has the terminal: a shell took it back. */
static int
tty_background(void)
{
	pid_t	 pg;

	return tty_have && (pg = tcgetpgrp(0)) != -1 && pg != getpgrp();
}

/*
 * A read of the terminal met EIO.  In the background that is the
 * kernel's SIGTTIN, which we block outside the poll (a stop between the
 * poll and the read, then a continue once the shell took the terminal):
 * not the input's end.  We stop as SIGTTIN stops a program, and the
 * input waits until the terminal is ours again (an orphaned group does
 * not stop).  0: another EIO (the terminal is gone).
 */
int
tty_read_background(void)
{
	if (!tty_background())
		return 0;
	tty_susp = SIGTTIN;
	tty_held = 1;
	return 1;
}

/* 1 while the input waits for the terminal (tty_read_background). */
int
tty_input_held(void)
{
	if (tty_held && !tty_background())
		tty_held = 0;
	return tty_held;
}

/*
 * Stopped by sig's default action, the terminal as it was meanwhile: the
 * shell that takes it back wants its own mode (one that has it already
 * set its own: it stays).  The SIGCONT that ends the stop is taken here;
 * in an orphaned process group sig stops no one and we go on at once.
 */
static void
tty_suspend(int sig)
{
	static const struct timespec	 now;
	struct sigaction		 sa, old;
	sigset_t			 set;

	if (tty_background())
		tty_raw = 0;
	tty_restore();
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	(void)sigaction(sig, &sa, &old);
	sigemptyset(&set);
	sigaddset(&set, sig);
	(void)sigprocmask(SIG_UNBLOCK, &set, NULL);
	(void)raise(sig);
	(void)sigprocmask(SIG_BLOCK, &set, NULL);
	(void)sigaction(sig, &old, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCONT);
	(void)sigtimedwait(&set, NULL, &now);
	tty_cont = 1;
}

/*
 * What the poll marked, done: a stop signal restores the terminal and
 * stops; a continue (after it, or after a SIGSTOP, which nobody sees)
 * makes it raw again and the size goes out again, since it may have
 * changed meanwhile.  Continued in the background we stop as SIGTTOU
 * would stop a program that sets the terminal from there; once a call
 * (an orphaned process group does not stop: the next tick tries again).
 */
void
tty_job(void)
{
	int	 sig, stopped = 0;

	for (;;) {
		if ((sig = tty_susp) != 0) {
			tty_susp = 0;
			tty_suspend(sig);
			stopped = 1;
		} else if (tty_cont && !tty_background()) {
			tty_cont = 0;
			tty_enter();
			tty_winch = 1;
		} else if (tty_cont && !stopped)
			tty_susp = SIGTTOU;
		else
			return;
	}
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

/* What ppoll unblocks: SIGWINCH and job control, blocked elsewhere. */
const sigset_t *
tty_poll_mask(void)
{
	return &tty_pollmask;
}

/*
 * Raw mode on stdin when it is a terminal (every byte goes through:
 * Ctrl-C, Ctrl-D, Ctrl-Z), the handlers that undo it, SIGWINCH and job
 * control.  fl is fd 0's flags before we made it non-blocking (-1:
 * untouched).
 */
void
tty_start(int fl)
{
	static const int	 fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM,
				    SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2 };
	struct sigaction	 sa;
	sigset_t		 block;
	size_t			 i;

	tty_fl = fl;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = tty_fatal_signal;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		(void)sigaction(fatal[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;
	sigemptyset(&block);
	for (i = 0; i < TTY_NMARKS; i++) {
		sa.sa_handler = tty_marks[i].fn;
		(void)sigaction(tty_marks[i].sig, &sa, &tty_oldact[i]);
		sigaddset(&block, tty_marks[i].sig);
	}
	(void)sigprocmask(SIG_BLOCK, &block, &tty_oldmask);
	tty_pollmask = tty_oldmask;
	for (i = 0; i < TTY_NMARKS; i++)
		sigdelset(&tty_pollmask, tty_marks[i].sig);
	tty_started = 1;
	atexit(tty_restore);
	if (!isatty(0) || tcgetattr(0, &tty_saved) == -1)
		return;
	tty_rawmode = tty_saved;
	cfmakeraw(&tty_rawmode);
	tty_have = 1;
	/*
	 * As after a continue: started in the background (&) we leave the
	 * shell's terminal alone and stop until fg.  The size went with
	 * the request.
	 */
	tty_cont = 1;
	tty_job();
	tty_winch = 0;
}
