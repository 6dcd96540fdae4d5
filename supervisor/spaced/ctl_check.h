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


#ifndef SPACED_CTL_CHECK_H
#define SPACED_CTL_CHECK_H

/*
 * Each control op's own payload check (ctl_check.c), after the router
 * took it at exactly its op_len: 1 when every field is as the op's
 * start needs it, else 0 (ERR_BAD_REQUEST).  Pure: fuzzed by
 * regress/fuzz/ctl_ops_fuzz.c.
 */

#include "ctl_proto.h"

int	 ctl_exec_valid(const struct ctl_exec *);	/* exec */
int	 ctl_attach_valid(const struct ctl_exec *);	/* attach */
int	 ctl_network_valid(const struct ctl_network *);
int	 ctl_grant_valid(const struct ctl_grant *);
int	 ctl_journal_valid(const struct ctl_journal *);
int	 ctl_git_valid(const struct ctl_git *);		/* files, limits */
int	 ctl_codein_valid(const struct ctl_codein *, int history);
int	 ctl_server_valid(const struct ctl_server *);
int	 ctl_token_valid(const struct ctl_space *);
int	 ctl_review_valid(const struct ctl_review *);
int	 ctl_apply_valid(const struct ctl_apply *);
int	 ctl_events_valid(const struct ctl_events_req *);
int	 ctl_tools_valid(const struct ctl_tools *);	/* tools, tools-fill */
int	 ctl_stream_test_valid(const struct ctl_stream_test *);

#endif /* SPACED_CTL_CHECK_H */
