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

#ifndef SPACED_SPACECTL_H
#define SPACED_SPACECTL_H

/* spacectl's parts shared between its files. */

#include <stddef.h>
#include <stdint.h>

#include "log.h"	/* __dead */

#define SPACECTL_EXEC_FAILED	125	/* exec: spaced or the place failed */

__dead void	 failed(const char *code, const char *detail);
int		 connect_socket(const char *path);
/* exits 1: "spacectl: code: message", or {"error","message"} with -j */
__dead void	 request_failed(int json, const char *code,
		    const char *message);
/* spacectl exec ...: exits with the command's code. */
int		 exec_main(int argc, char *argv[], const char *sockpath,
		    int json);
int		 network_main(int, char *[], const char *, int json);
int		 grant_main(int, char *[], const char *, int json);
int		 journal_main(int, char *[], const char *, int json);
int		 files_main(int, char *[], const char *, int json);
int		 limits_main(int, char *[], const char *, int json);
int		 codein_main(int, char *[], const char *, int json);
int		 history_main(int, char *[], const char *, int json);
int		 tools_main(int, char *[], const char *, int json);
/*
 * spacectl_call.c: send one request, hand each DATA record but a struct
 * space_done to record, return at END; a FAIL exits (request_failed).
 */
struct imsg;
void		 ctl_call(int s, uint32_t type, const void *, size_t,
		    int json, void (*record)(struct imsg *, void *), void *);

/* Prints o indented with a newline and frees it; NULL is a failure. */
struct json_t;
void		 json_out(struct json_t *);
int		 server_main(int, char *[], const char *, int json);
int		 token_main(int, char *[], const char *, int json);

#endif /* SPACED_SPACECTL_H */
