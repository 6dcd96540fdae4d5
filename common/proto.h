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

#ifndef SPACED_PROTO_H
#define SPACED_PROTO_H

/*
 * Every message type of every channel, in one enum.  A type is valid on
 * one channel only; each dispatcher checks the source (see STYLE.md 4).
 * Control socket numbers are pinned; the control protocol version
 * travels in the low byte of the peerid of a request.
 */

#include <stdint.h>

#define CTL_PROTO_VERSION	1

enum procid {
	PROC_PARENT = 0,
	PROC_DOCKER,
	PROC_GIT,
	PROC_JOURNAL,
	PROC_GATEKEEPER,
	PROC_MAX
};

enum imsg_type {
	IMSG_NONE = 0,

	/* worker -> parent: sandbox is in place, ready to serve */
	IMSG_WORKER_READY,
	/* parent -> worker: attempt a call the filter forbids (audit probe) */
	IMSG_WORKER_PROBE,
	/* parent -> worker -> parent: liveness and round trip, no payload */
	IMSG_WORKER_PING,

	/* chunked streams with credit flow control, any channel */
	IMSG_STREAM_DATA,
	IMSG_STREAM_CREDIT,
	IMSG_STREAM_END,
	/*
	 * The stream self-test: parent -> source worker SEND (struct
	 * stream_test_msg), the stream through the parent to the sink
	 * worker, sink -> parent DONE (the same struct, with what arrived).
	 */
	IMSG_STREAM_TEST_SEND,
	IMSG_STREAM_TEST_DONE,

	/* parent <-> spaced-docker; REQ carries a connected socket fd */
	IMSG_DOCKER_CHECK_REQ,
	IMSG_DOCKER_CHECK_REP,

	/* parent <-> spaced-git */
	IMSG_GIT_VERSION_REQ,
	IMSG_GIT_VERSION_REP,

	/* parent <-> spaced-journal */
	IMSG_JOURNAL_STAT_REQ,
	IMSG_JOURNAL_STAT_REP,

	/* control socket requests (client -> spaced) */
	IMSG_CTL_STATUS = 100,
	IMSG_CTL_PRIVILEGES,
	IMSG_CTL_CHECK,
	IMSG_CTL_VERBOSE,
	IMSG_CTL_PROBE,
	IMSG_CTL_PING,		/* struct ping_msg: round trip to a worker */
	IMSG_CTL_STREAM_TEST,	/* struct stream_test_msg: git -> journal */

	/* control socket answers (spaced -> client) */
	IMSG_CTL_DATA = 200,	/* one JSON object per message */
	IMSG_CTL_END,		/* answer complete */
	IMSG_CTL_FAIL,		/* struct ctl_fail: the error code */
};

/* Calls an audit probe may attempt; each must be forbidden in its worker. */
enum probe_call {
	PROBE_EXECVE = 1,
	PROBE_OPEN,
	PROBE_SOCKET,
	PROBE_CONNECT,
	PROBE_FORK,
};

struct probe_msg {
	uint32_t	 pr_proc;	/* enum procid; only in IMSG_CTL_PROBE */
	uint32_t	 pr_call;	/* enum probe_call */
	int32_t		 pr_errno;	/* answer: 0 the call succeeded, else errno */
};

/* worker -> parent in IMSG_WORKER_READY: what it did to itself */
#define LANDLOCK_DESC_MAX	48
struct worker_ready_info {
	int32_t		 wi_pid;
	char		 wi_landlock[LANDLOCK_DESC_MAX];
};

#define CTL_CODE_MAX		64
struct ctl_fail {
	char		 cf_code[CTL_CODE_MAX];	/* NUL-terminated error code */
};

struct ping_msg {
	uint32_t	 pg_proc;	/* enum procid of a worker */
};

struct stream_test_msg {
	uint64_t	 tm_bytes;	/* to send; in DONE: what arrived */
	uint64_t	 tm_bad;	/* DONE: chunks not as sent */
	uint64_t	 tm_usec;	/* answer: from SEND to DONE */
	uint64_t	 tm_peak_rss;	/* answer: spaced's VmHWM, KiB */
};

struct ctl_verbose {
	int32_t		 cv_level;
};

#define CTL_NAME_MAX		32
#define CTL_STATE_MAX		16
struct ctl_proc {
	char		 cp_name[CTL_NAME_MAX];
	int32_t		 cp_pid;		/* 0 when not shown */
	char		 cp_state[CTL_STATE_MAX];
};

/* One row of the audit table, read from /proc by the supervisor. */
#define CTL_IDS_MAX		48
#define CTL_ROOT_MAX		256
struct ctl_privileges {
	char		 cv_name[CTL_NAME_MAX];
	int32_t		 cv_pid;
	char		 cv_uid[CTL_IDS_MAX];	/* real eff saved fs */
	char		 cv_gid[CTL_IDS_MAX];
	int32_t		 cv_seccomp;		/* 0, 1 or 2 */
	int32_t		 cv_nnp;		/* NoNewPrivs */
	char		 cv_capeff[20];		/* hex, as /proc shows it */
	char		 cv_landlock[LANDLOCK_DESC_MAX];
	char		 cv_root[CTL_ROOT_MAX];
	int32_t		 cv_nfds;
};

#define DOCKER_VERSION_MAX	64
struct docker_check_msg {
	int32_t		 dc_available;		/* 1 or 0 */
	char		 dc_code[CTL_CODE_MAX];	/* when not available */
	char		 dc_version[DOCKER_VERSION_MAX];
	char		 dc_api_version[16];
	char		 dc_min_api_version[16];
	char		 dc_os[32];
	char		 dc_arch[32];
	int32_t		 dc_host_isolation;	/* 1 or 0 */
};

struct git_version_msg {
	char		 gv_libgit2[32];
};

struct journal_stat_msg {
	uint64_t	 js_records;
	uint64_t	 js_bytes;
};

#endif /* SPACED_PROTO_H */
