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

#ifndef SPACED_SPACECTL_OUTPUT_H
#define SPACED_SPACECTL_OUTPUT_H

/* spacectl_output.c and spacectl_output_space.c: what spacectl prints. */

#include <jansson.h>
#include <stdio.h>

#include "ctl_proto.h"

__dead void	 usage(void);
__dead void	 usage_why(const char *);
/* The words for a code whose answer had none, or NULL. */
const char	*space_message(const char *);
__dead void	 failed(const char *, const char *);
__dead void	 request_failed(const char *, const char *);
__dead void	 folder_failed(const char *);
void		 out_close(void);
__dead void	 bad_value(const char *, const char *, const char *,
		    const char *, const char *);
void		 take_space_id(char *, size_t, const char *);
void		 check_space_id(const char *);
void		 space_failed_json(const char *, const char *, int, json_t *);
__dead void	 unreachable(const char *, int);
void		 out_error(const char *);
const char	*nstr(const char *, size_t);
const char	*jstr(json_t *, const char *);

void		 out_json(json_t *);
void		 out_json_checked(json_t *);
/* Bytes from a space: control characters escaped at a terminal. */
void		 out_outside(FILE *, const char *, size_t, int text);
void		 out_json_line(json_t *);
void		 out_json_add(json_t *, json_t *);
void		 out_empty(void);
void		 out_bytes(int, const uint8_t *, size_t);

void		 out_status_head(void);
void		 out_status(const struct ctl_proc *, json_t *);
void		 out_privileges_head(void);
void		 out_privileges(const struct ctl_privileges *, json_t *);
void		 out_processes(json_t *);
void		 out_first_row(json_t *);
void		 out_check(const struct docker_check_msg *, json_t *);
void		 out_check_native(const struct docker_check_msg *, json_t *);
void		 out_probe(const char *, const char *, int, json_t *);
void		 out_stream_test(const char *, uint64_t, int,
		    const struct ctl_stream_test *, json_t *);

json_t		*out_space_info(const struct space_info *, int);
json_t		*out_space_violation(const struct space_violation *);
json_t		*out_space_resource(const struct space_resource *);
void		 out_space_ready(json_t *, const struct ctl_ready *);
__dead void	 out_space_failed(const char *, const struct space_done *,
		    json_t *);
void		 out_space_list(json_t *);
void		 out_space_show(json_t *);
void		 out_space_created(json_t *);
void		 out_space_verified(json_t *);
void		 out_space_removed(json_t *, json_t *);

void		 out_exec_failed(const char *, const char *);
void		 out_exec_result(int, const char *, size_t, const char *,
		    size_t, const char *);

void		 out_file(const struct git_file *, json_t *, json_t *);
void		 out_files(json_t *, json_t *, uint64_t, uint64_t);
void		 out_limit(const struct git_limit *, json_t *, json_t *);
void		 out_limits(json_t *, json_t *);
void		 out_codein_progress(uint64_t);
void		 out_codein_progress_end(void);
void		 out_codein_tail(const char *, size_t);
void		 out_codein(const struct ctl_codein_result *);
void		 out_history(const struct ctl_history_result *);

void		 out_journal_entry(const struct journal_entry *, json_t *);
void		 out_journal(json_t *, const struct journal_counts *, int);

int		 out_server(unsigned int, const uint8_t *, size_t);
void		 out_token(const char *);


#endif /* SPACED_SPACECTL_OUTPUT_H */
