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
vlog(int pri, const char *fmt, va_list ap)
{
	char	 msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_debug_mode) {
		/* One write per line, so lines of two processes do not mix. */
		dprintf(STDERR_FILENO, "%s[%d]: %s\n", log_procname,
		    (int)getpid(), msg);
	} else
		syslog(pri, "%s: %s", log_procname, msg);
}

static void
vlog_errno(int pri, int saved_errno, const char *fmt, va_list ap)
{
	char	 msg[1024];

	if (fmt == NULL) {
		snprintf(msg, sizeof(msg), "%s", strerror(saved_errno));
	} else {
		vsnprintf(msg, sizeof(msg), fmt, ap);
		if (saved_errno != 0) {
			size_t len = strlen(msg);
			snprintf(msg + len, sizeof(msg) - len, ": %s",
			    strerror(saved_errno));
		}
	}
	if (log_debug_mode)
		dprintf(STDERR_FILENO, "%s[%d]: %s\n", log_procname,
		    (int)getpid(), msg);
	else
		syslog(pri, "%s: %s", log_procname, msg);
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
	int	 saved_errno = errno;

	va_start(ap, emsg);
	vlog_errno(LOG_CRIT, saved_errno, emsg, ap);
	va_end(ap);
	exit(1);
}

__dead void
fatalx(const char *emsg, ...)
{
	va_list	 ap;

	va_start(ap, emsg);
	vlog(LOG_CRIT, emsg, ap);
	va_end(ap);
	exit(1);
}
