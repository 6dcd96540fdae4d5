/*
 * Copyright (c) 2026 The spaced developers
 * Copyright (c) 2003, 2004 Henning Brauer <henning@openbsd.org>
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static int	 log_debug_mode = 1;
static int	 log_verbose;
static const char *log_procname = "spaced";
static void	(*log_last)(const char *);

void
log_init(int debug, int facility)
{
	log_debug_mode = debug;
	log_verbose = debug;
	if (!debug)
		/* LOG_NDELAY: the socket is opened now, before any chroot. */
		openlog(getprogname(), LOG_PID | LOG_NDELAY, facility);
	tzset();
}

void
log_procinit(const char *procname)
{
	if (procname != NULL)
		log_procname = procname;
}

void
log_setverbose(int verbose)
{
	log_verbose = verbose;
}

int
log_getverbose(void)
{
	return log_verbose;
}

void
log_setlast(void (*last)(const char *))
{
	log_last = last;
}

/*
 * Bytes of outside origin (paths, names, what a worker or client said)
 * must not forge a log line or reach a terminal raw.  Printable ASCII
 * but the backslash stays; the rest becomes a C escape (vis(3)-like).
 */
/* The letter of a C escape for the byte, or NUL. */
static char
c_escape(unsigned char b)
{
	switch (b) {
	case '\\':
		return '\\';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	}
	return '\0';
}

static char *
escape_bytes(char *dst, size_t dstsize, const char *src, int backslash)
{
	const unsigned char	*s = (const unsigned char *)src;
	char			 e[5], c;
	size_t			 n = 0, elen;

	if (dstsize == 0)
		return dst;
	for (; *s != '\0'; s++) {
		if (*s >= 0x20 && *s < 0x7f && (*s != '\\' || !backslash)) {
			e[0] = (char)*s;
			e[1] = '\0';
		} else if ((c = c_escape(*s)) != '\0')
			snprintf(e, sizeof(e), "\\%c", c);
		else
			snprintf(e, sizeof(e), "\\%03o", *s);
		elen = strlen(e);
		/* Never half an escape: it would read as another byte. */
		if (n + elen >= dstsize)
			break;
		memcpy(dst + n, e, elen);
		n += elen;
	}
	dst[n] = '\0';
	return dst;
}

char *
log_escape(char *dst, size_t dstsize, const char *src)
{
	return escape_bytes(dst, dstsize, src, 1);
}

/*
 * Every line goes out escaped, whatever its arguments: a log call need
 * not know which of them came from outside (docs/privsep.md, "Logs").
 */
static void
log_line(int pri, const char *msg, int backslash)
{
	char	 esc[LOG_ESCAPE_MAX];

	escape_bytes(esc, sizeof(esc), msg, backslash);
	if (log_debug_mode)
		/* One write per line, so lines of two processes do not mix. */
		dprintf(STDERR_FILENO, "%s[%d]: %s\n", log_procname,
		    (int)getpid(), esc);
	else
		syslog(pri, "%s: %s", log_procname, esc);
}

/*
 * A line a child wrote on its stderr: its own log line, escaped by it
 * already, so its backslashes stay; no control byte does.
 */
void
log_relay(const char *from, const char *line)
{
	char	 msg[1024];

	snprintf(msg, sizeof(msg), "%s: %s", from, line);
	log_line(LOG_INFO, msg, 0);
}

void
vlog(int pri, const char *fmt, va_list ap)
{
	char	 msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_line(pri, msg, 1);
}

/* A fatal line goes out, and to whoever wants the last words first. */
static __dead void
log_die(const char *msg)
{
	void	(*last)(const char *) = log_last;

	log_line(LOG_CRIT, msg, 1);
	/* Once: a fatal on the way out does not come back here. */
	log_last = NULL;
	if (last != NULL)
		last(msg);
	exit(1);
}

static void
format_errno(char *msg, size_t size, int saved_errno, const char *fmt,
    va_list ap)
{
	if (fmt == NULL) {
		snprintf(msg, size, "%s", strerror(saved_errno));
	} else {
		vsnprintf(msg, size, fmt, ap);
		if (saved_errno != 0) {
			size_t len = strlen(msg);
			snprintf(msg + len, size - len, ": %s",
			    strerror(saved_errno));
		}
	}
}

static void
vlog_errno(int pri, int saved_errno, const char *fmt, va_list ap)
{
	char	 msg[1024];

	format_errno(msg, sizeof(msg), saved_errno, fmt, ap);
	log_line(pri, msg, 1);
}

void
log_warn(const char *emsg, ...)
{
	va_list	 ap;
	int	 saved_errno = errno;

	va_start(ap, emsg);
	vlog_errno(LOG_ERR, saved_errno, emsg, ap);
	va_end(ap);
	errno = saved_errno;
}

void
log_warnx(const char *emsg, ...)
{
	va_list	 ap;

	va_start(ap, emsg);
	vlog(LOG_ERR, emsg, ap);
	va_end(ap);
}

void
log_info(const char *emsg, ...)
{
	va_list	 ap;

	va_start(ap, emsg);
	vlog(LOG_INFO, emsg, ap);
	va_end(ap);
}

void
log_debug(const char *emsg, ...)
{
	va_list	 ap;

	if (log_verbose > 1) {
		va_start(ap, emsg);
		vlog(LOG_DEBUG, emsg, ap);
		va_end(ap);
	}
}

__dead void
fatal(const char *emsg, ...)
{
	va_list	 ap;
	char	 msg[1024];
	int	 saved_errno = errno;

	va_start(ap, emsg);
	format_errno(msg, sizeof(msg), saved_errno, emsg, ap);
	va_end(ap);
	log_die(msg);
}

__dead void
fatalx(const char *emsg, ...)
{
	va_list	 ap;
	char	 msg[1024];

	va_start(ap, emsg);
	vsnprintf(msg, sizeof(msg), emsg, ap);
	va_end(ap);
	log_die(msg);
}
