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

#ifndef SPACED_LOG_H
#define SPACED_LOG_H

#include <stdarg.h>
#include <stddef.h>

#ifndef __dead
#define __dead __attribute__((__noreturn__))
#endif

/* debug: log to stderr and not syslog; facility: syslog(3) facility. */
void	log_init(int debug, int facility);
void	log_procinit(const char *procname);
void	log_setverbose(int verbose);
/* A dying process's last words: fatal() and fatalx() hand it the line. */
void	log_setlast(void (*)(const char *));
int	log_getverbose(void);
void	log_warn(const char *, ...) __attribute__((__format__(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((__format__(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((__format__(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((__format__(printf, 1, 2)));
void	vlog(int, const char *, va_list) __attribute__((__format__(printf, 2, 0)));
/* Escaped form of outside bytes, for a log line or a terminal. */
#define LOG_ESCAPE_MAX	1024
char	*log_escape(char *, size_t, const char *);
void	 log_relay(const char *, const char *);
__dead void fatal(const char *, ...) __attribute__((__format__(printf, 1, 2)));
__dead void fatalx(const char *, ...) __attribute__((__format__(printf, 1, 2)));

#endif /* SPACED_LOG_H */
