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
 * The control protocol's version against its messages: each struct a
 * client of the control socket reads or writes, with its size at the
 * version this table was recorded at.  A size that moves fails here
 * until CTL_PROTO_VERSION moves with it (common/proto/ctl_proto.h): a
 * spacectl of another build then hears protocol_version, not
 * bad_answer.  Never edit a row without the version.
 */

#include <stddef.h>
#include <stdio.h>

#include <criterion/criterion.h>

#include "ctl_proto.h"
#include "errors.h"
#include "imsg.h"
#include "stream.h"

#define SIZES_VERSION	4	/* the version the rows below were taken at */

#define SZ(s, n)	{ #s, sizeof(struct s), n }
static const struct {
	const char	*name;
	size_t		 now;
	size_t		 recorded;
} sizes[] = {
	/* ctl_proto.h */
	SZ(ctl_fail, 64),
	SZ(ctl_fail_why, 320),
	SZ(ctl_progress, 16),
	SZ(ping_msg, 4),
	SZ(ctl_verbose, 4),
	SZ(ctl_stream_test, 40),
	SZ(ctl_space, 112),
	SZ(ctl_exec, 8236),
	SZ(ctl_exec_resize, 8),
	SZ(ctl_exec_streams, 8),
	SZ(ctl_network, 2076),
	SZ(ctl_grant, 1742),
	SZ(ctl_journal, 32),
	SZ(ctl_events_req, 8),
	SZ(ctl_event, 184),
	SZ(ctl_git, 4116),
	SZ(ctl_server, 3236),
	SZ(ctl_server_chunk, 8196),
	SZ(ctl_server_result, 16),
	SZ(ctl_ready, 88),
	SZ(ctl_space_running, 24),
	SZ(ctl_token, 136),
	SZ(ctl_codein, 4120),
	SZ(ctl_codein_result, 8664),
	SZ(ctl_history_result, 40),
	SZ(ctl_review, 4116),
	SZ(ctl_apply, 4628),
	SZ(ctl_proc, 128),
	SZ(ctl_privileges, 468),
	SZ(ctl_tools, 32),
	SZ(ctl_tools_info, 8625),
	/* other protocols' structs that spaced hands a client as they are */
	SZ(probe_msg, 12),
	SZ(docker_check_msg, 488),
	SZ(space_done, 328),
	SZ(space_resource, 164),
	SZ(space_info, 408),
	SZ(space_violation, 148),
	SZ(tools_volume_info, 652),
	SZ(tools_done, 484),
	SZ(journal_entry, 384),
	SZ(journal_counts, 64),
	SZ(journal_verdict, 192),
	SZ(git_file, 4112),
	SZ(git_limit, 4104),
	SZ(git_review_rec, 12376),
	SZ(git_apply_result, 464),
	/* the streams of exec, code in and stream-test */
	SZ(stream_credit, 4),
	SZ(stream_end, 16),
};

Test(ctl_sizes, each_struct_as_recorded_at_this_version)
{
	size_t	 i, moved = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (sizes[i].now == sizes[i].recorded)
			continue;
		moved++;
		cr_log_error("struct %s is %zu bytes, %zu at version %d",
		    sizes[i].name, sizes[i].now, sizes[i].recorded,
		    SIZES_VERSION);
	}
	cr_expect_eq(moved, 0, "%zu structs of the control protocol moved: "
	    "raise CTL_PROTO_VERSION, then record the new sizes and the "
	    "version here", moved);
	cr_expect_eq(CTL_PROTO_VERSION, SIZES_VERSION, "CTL_PROTO_VERSION is "
	    "%d, the sizes were recorded at %d: record them at the new "
	    "version", CTL_PROTO_VERSION, SIZES_VERSION);
}

/* What a client of any version reads: these never change at all. */
Test(ctl_sizes, the_refusal_is_the_same_in_every_version)
{
	uint32_t	 p = CTL_PEERID(0x123456);

	cr_expect_eq(IMSG_HEADER_SIZE, 16);
	cr_expect_eq(offsetof(struct imsg_hdr, peerid), 8);
	cr_expect_eq(IMSG_CTL_FAIL, 202);
	cr_expect_eq(sizeof(struct ctl_fail), 64);
	cr_expect_eq(CTL_VERSION(p), CTL_PROTO_VERSION);
	cr_expect_eq(CTL_TAG(p), 0x123456);
	cr_expect_str_eq(ERR_PROTOCOL_VERSION, "protocol_version");
}
