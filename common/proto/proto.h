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
 * The worker channel: what spaced and every worker say on fd 3.  The
 * conversations: docs/notes/common-protocols.md.
 */

#include <stdint.h>

#include "labels.h"

enum procid {
	PROC_PARENT = 0,
	PROC_DOCKER,
	PROC_GIT,
	PROC_JOURNAL,
	PROC_LAUNCH,
	PROC_GATEKEEPER,
	PROC_NS,
	PROC_QUARANTINE,	/* a spaced-git of code out's quarantine */
	PROC_MAX
};

enum imsg_type {
	IMSG_NONE = 0,

	IMSG_WORKER_READY = 1,	/* struct worker_ready_info */
	IMSG_WORKER_PROBE,	/* struct probe_msg */
	IMSG_WORKER_PING,
	IMSG_WORKER_CANCEL,
	IMSG_WORKER_FATAL,	/* struct worker_fatal: its last line */

	/* any channel, the control socket included */
	IMSG_STREAM_DATA = 10,
	IMSG_STREAM_CREDIT,
	IMSG_STREAM_END,
	IMSG_STREAM_TEST_RECV,	/* struct stream_test_msg */
	IMSG_STREAM_TEST_SEND,
	IMSG_STREAM_TEST_DONE,

	/* parent <-> spaced-git */
	IMSG_GIT_VERSION_REQ = 30,
	IMSG_GIT_VERSION_REP,

	/* parent <-> spaced-journal */
	IMSG_JOURNAL_STAT_REQ = 40,
	IMSG_JOURNAL_STAT_REP,		/* struct journal_stat_msg */
	IMSG_JOURNAL_INGEST_REQ,	/* struct journal_ingest_req */
	IMSG_JOURNAL_INGESTED,		/* struct journal_counts */
	IMSG_JOURNAL_READ_REQ,		/* struct journal_read_req */
	IMSG_JOURNAL_RECORD,		/* struct journal_entry */
	IMSG_JOURNAL_DONE,		/* struct journal_counts */
	IMSG_JOURNAL_ORIGIN_SET,	/* struct journal_origin, all four */
	IMSG_JOURNAL_ORIGIN_GET,
	IMSG_JOURNAL_ORIGIN_DEL,
	IMSG_JOURNAL_ORIGIN,
	IMSG_JOURNAL_SERVER_REQ,	/* struct journal_server_req */
	IMSG_JOURNAL_SERVER_EXIT,	/* struct journal_server_exit */
	IMSG_JOURNAL_SERVER_BODY,	/* struct journal_server_body */
	IMSG_JOURNAL_SERVER_REP,	/* struct journal_server_rep */
	IMSG_JOURNAL_VERIFIED,		/* struct journal_verdict */
	IMSG_JOURNAL_STORES_REQ,	/* struct journal_stores_req */
	IMSG_JOURNAL_STORE,		/* struct journal_store */
	IMSG_JOURNAL_STORES_END,	/* no payload */
	IMSG_JOURNAL_CODEOUT,		/* struct journal_codeout, no answer */
	IMSG_JOURNAL_RESTART,		/* struct journal_restart */
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

#define LANDLOCK_DESC_MAX	48
struct worker_ready_info {
	int32_t		 wi_pid;
	char		 wi_landlock[LANDLOCK_DESC_MAX];
};

/*
 * A spaced-git's fatal line, sent as it dies (its stderr goes nowhere):
 * outside bytes (a path, libgit2's words), so spaced takes a fixed size,
 * NUL-terminated, and escapes it.
 */
#define WORKER_FATAL_MAX	192
struct worker_fatal {
	char		 wf_line[WORKER_FATAL_MAX];
};

/* SEND: the source sends tm_bytes on stream tm_stream; DONE: what came. */
struct stream_test_msg {
	uint32_t	 tm_stream;
	uint32_t	 tm_reserved;	/* zero */
	uint64_t	 tm_bytes;
	uint64_t	 tm_bad;	/* DONE: chunks not as sent */
};

struct git_version_msg {
	char		 gv_libgit2[32];
};

#define JOURNAL_ORIGIN_DIR_MAX	4096	/* GIT_DIR_MAX */
struct journal_origin {
	char		 jo_id[SPACE_ID_SIZE];
	uint8_t		 jo_pad[3];	/* zero */
	uint32_t	 jo_uid;	/* the owner of the space */
	int32_t		 jo_found;	/* ORIGIN: 1 kept, 0 none; GET: how many */
	char		 jo_dir[JOURNAL_ORIGIN_DIR_MAX];
};

enum journal_server_kind {
	JOURNAL_SERVER_ANSWER = 1,	/* curl's, framed (space_server.h) */
	JOURNAL_SERVER_TOKEN,		/* the token file's content */
};

#define JOURNAL_FIELD_MAX	64	/* AGENT_FIELD_MAX + 1 */
struct journal_server_req {
	uint32_t	 js_stream;
	uint32_t	 js_kind;	/* enum journal_server_kind */
	uint32_t	 js_body;	/* 1: send the body back */
	uint16_t	 js_ready_status;	/* 0: no readiness asked */
	uint16_t	 js_reserved;	/* zero */
	char		 js_ready_field[JOURNAL_FIELD_MAX];	/* "" none */
};

struct journal_server_exit {
	int32_t		 jx_exit;	/* -1: the exec did not run */
	uint32_t	 jx_timedout;
};

#define JOURNAL_BODY_CHUNK	8192	/* CTL_SERVER_CHUNK */
struct journal_server_body {
	uint32_t	 jb_len;
	uint8_t		 jb_data[JOURNAL_BODY_CHUNK];
};

#define JOURNAL_TOKEN_MAX	128	/* SERVER_TOKEN_MAX */
#define JOURNAL_CODE_MAX	64	/* CTL_CODE_MAX */
struct journal_server_rep {
	int32_t		 jr_verdict;	/* enum server_verdict */
	uint32_t	 jr_ready;	/* 1: the readiness asked for */
	uint32_t	 jr_status;	/* the HTTP status */
	uint32_t	 jr_bodylen;	/* bytes of BODY sent before */
	char		 jr_code[JOURNAL_CODE_MAX];	/* "" fine */
	char		 jr_token[JOURNAL_TOKEN_MAX + 1];	/* TOKEN */
	uint8_t		 jr_pad[7];	/* zero */
};

struct journal_stat_msg {
	uint64_t	 js_records;
	uint64_t	 js_bytes;
};

/* The owner is spaced's: one user's records never reach another. */
struct journal_ingest_req {
	char		 ji_owner[SPACE_OWNER_SIZE];
	char		 ji_id[SPACE_ID_SIZE];
	uint8_t		 ji_pad[2];	/* zero */
	uint32_t	 ji_stream;	/* the place's log, stdout payload */
	uint32_t	 ji_flags;	/* JOURNAL_INGEST_ONLY or zero */
};

/* A collection: the ingest ends at INGESTED, no read follows. */
#define JOURNAL_INGEST_ONLY	0x1
/* The log is the space's relay's (restart_line.h), not a gatekeeper's. */
#define JOURNAL_INGEST_RESTARTS	0x2

/* The spaces of an install the store holds records of: spaced follows them. */
struct journal_stores_req {
	char		 jsr_install[INSTALL_ID_MAX + 1];
};
struct journal_store {
	uint32_t	 jst_uid;
	char		 jst_id[SPACE_ID_SIZE];
	uint8_t		 jst_pad[3];	/* zero */
};
/* At most this many a request: spaced follows no more. */
#define JOURNAL_STORES_MAX	4096

#define JOURNAL_READ_MAX	10000	/* records in one answer */
struct journal_read_req {
	uint64_t	 jq_from;	/* the first record wanted, from 0 */
	uint32_t	 jq_max;	/* 1..JOURNAL_READ_MAX */
	uint32_t	 jq_flags;	/* JOURNAL_VERIFY */
};
#define JOURNAL_VERIFY		0x01	/* walk the chain: a VERIFIED first */

/* What --verify found: status 0 the chain holds, else where it breaks. */
#define JOURNAL_REASON_MAX	160
struct journal_verdict {
	uint64_t	 jv_records;	/* lines walked */
	uint64_t	 jv_seq;	/* the first that does not match */
	uint64_t	 jv_first;	/* the first record the store keeps */
	int32_t		 jv_status;	/* 0 holds, -1 broken */
	uint32_t	 jv_segments;	/* files walked */
	char		 jv_reason[JOURNAL_REASON_MAX];
};

/* One record, with the gatekeeper's caps (spec "Journal"). */
#define JOURNAL_AT_LEN		24	/* 2026-12-03T19:19:20.569Z */
#define JOURNAL_LISTENER_MAX	16	/* corridor, window */
#define JOURNAL_HOST_MAX	256
#define JOURNAL_DECISION_MAX	64
struct journal_entry {
	char		 je_at[JOURNAL_AT_LEN + 1];
	char		 je_listener[JOURNAL_LISTENER_MAX];
	char		 je_host[JOURNAL_HOST_MAX + 1];
	char		 je_decision[JOURNAL_DECISION_MAX + 1];
	uint8_t		 je_pad[2];	/* zero */
	uint32_t	 je_port;	/* 0..65535 */
	uint32_t	 je_count;	/* attempts it stands for, >= 1 */
	uint64_t	 je_seq;	/* its place in the space's chain */
};

/*
 * A review or an apply, into the space's chain as a record of listener
 * "code-out" (only spaced writes one): what (host), how it ended
 * (decision), the commits (count).
 */
struct journal_codeout {
	char		 jo_owner[SPACE_OWNER_SIZE];
	char		 jo_id[SPACE_ID_SIZE];
	char		 jo_host[JOURNAL_HOST_MAX + 1];
	char		 jo_decision[JOURNAL_DECISION_MAX + 1];
	uint32_t	 jo_count;
};

struct journal_counts {
	uint64_t	 jc_records;	/* in the store for this space */
	uint64_t	 jc_new;	/* INGESTED: added by this log */
	uint64_t	 jc_lines;	/* lines in the log */
	uint64_t	 jc_malformed;	/* lines that are no record */
	uint64_t	 jc_dropped;	/* too long, or past the store cap */
	uint64_t	 jc_from;	/* DONE: the first record sent */
	uint64_t	 jc_sent;	/* DONE: records sent */
	int32_t		 jc_status;	/* 0; -1: the log did not come whole */
	uint32_t	 jc_reserved;	/* zero */
};

/*
 * An ingest of JOURNAL_INGEST_RESTARTS: one a restart kept (jt_new 1,
 * before INGESTED), then one with the store's total (jt_new 0).  The
 * detail is the relay's word, which the space could write too.
 */
struct journal_restart {
	char		 jt_at[JOURNAL_AT_LEN + 1];	/* the engine's time */
	char		 jt_detail[JOURNAL_HOST_MAX + 1];
	uint8_t		 jt_pad[2];	/* zero */
	uint32_t	 jt_new;	/* 1: this record is new; 0: the total */
	uint64_t	 jt_total;	/* restart records in the store */
};

#endif /* SPACED_PROTO_H */
