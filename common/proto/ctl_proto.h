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

#ifndef SPACED_CTL_PROTO_H
#define SPACED_CTL_PROTO_H

/*
 * The control socket: spacectl (or any local client) <-> spaced.  Type
 * numbers are pinned.  The conversations and the peerid's layout:
 * docs/notes/common-protocols.md.
 */

#include <stdint.h>

#include "git_proto.h"
#include "place_proto.h"
#include "proto.h"

/*
 * The low byte of every control message's peerid is its sender's
 * version, the request's and the answer's alike; spaced refuses a
 * request of another and spacectl an answer of another, by that byte
 * alone.  A new version whenever a message below (or one of another
 * protocol that a client reads) changes its layout:
 * regress/unit/common/ctl_sizes.c records each struct's size at this
 * version and fails until both change together.  Never changing, so
 * that a client of any build reads the refusal: the imsg header, the
 * byte's place, IMSG_CTL_FAIL's number and struct ctl_fail.  A client
 * of the versions before, which compared an answer's whole peerid with
 * its request's, is refused in its own, so that it says
 * protocol_version rather than bad_answer.
 * 3: check's answer grew its reason (docker_check_msg.dc_message).
 * 4: permission_denied's FAIL carries its reason (struct ctl_fail_why).
 */
#define CTL_PROTO_VERSION	4
#define CTL_VERSION(peerid)	((peerid) & 0xff)
/* Builds before 3 took back only their own peerid, whole. */
#define CTL_VERSION_ECHOED(v)	((v) == 1 || (v) == 2)
#define CTL_TAG(peerid)		((peerid) >> 8)
#define CTL_PEERID(tag)		(((uint32_t)(tag) << 8) | CTL_PROTO_VERSION)
#define CTL_MAX_PENDING		16	/* requests in flight a connection */

enum ctl_imsg_type {
	/* requests (client -> spaced) */
	IMSG_CTL_STATUS = 100,
	IMSG_CTL_PRIVILEGES,
	IMSG_CTL_CHECK,
	IMSG_CTL_VERBOSE,
	IMSG_CTL_PROBE,		/* struct probe_msg */
	IMSG_CTL_PING,		/* struct ping_msg: round trip to a worker */
	IMSG_CTL_STREAM_TEST,	/* struct ctl_stream_test */
	IMSG_CTL_CREATE,	/* struct ctl_space, through CTL_REMOVE */
	IMSG_CTL_LIST,
	IMSG_CTL_SHOW,
	IMSG_CTL_VERIFY,
	IMSG_CTL_STOP,
	IMSG_CTL_START,
	IMSG_CTL_REMOVE,
	IMSG_CTL_EXEC,		/* struct ctl_exec */
	IMSG_CTL_NETWORK,	/* struct ctl_network */
	IMSG_CTL_GRANT,		/* struct ctl_grant */
	IMSG_CTL_JOURNAL,	/* struct ctl_journal */
	IMSG_CTL_FILES,		/* struct ctl_git */
	IMSG_CTL_LIMITS,	/* struct ctl_git */
	IMSG_CTL_CODE_IN,	/* struct ctl_codein */
	IMSG_CTL_HISTORY,	/* struct ctl_codein */
	IMSG_CTL_SERVER,	/* struct ctl_server */
	IMSG_CTL_TOKEN,		/* struct ctl_space */
	IMSG_CTL_TOOLS,		/* struct ctl_tools */
	IMSG_CTL_TOOLS_FILL,	/* struct ctl_tools */
	/* not a request: a running exec -t's new window size */
	IMSG_CTL_EXEC_RESIZE,	/* struct ctl_exec_resize */
	IMSG_CTL_ATTACH,	/* struct ctl_exec, no argv: exec -t of attach */
	IMSG_CTL_EVENTS,	/* struct ctl_events_req */
	IMSG_CTL_REVIEW,	/* struct ctl_review */
	IMSG_CTL_APPLY,		/* struct ctl_apply */

	/* answers (spaced -> client) */
	IMSG_CTL_DATA = 200,	/* one record per message */
	IMSG_CTL_END,		/* answer complete */
	IMSG_CTL_FAIL,		/* struct ctl_fail, or ctl_fail_why */
	IMSG_CTL_PROGRESS,	/* struct ctl_progress: still at work */
};

struct ctl_fail {
	char		 cf_code[CTL_CODE_MAX];	/* NUL-terminated error code */
};

/*
 * A FAIL with its reason, for the refusals only spaced can explain
 * (permission_denied: who the request is for, the row's op_who), so no
 * client keeps a copy of spaced's rules.  Its head is a struct ctl_fail.
 */
struct ctl_fail_why {
	struct ctl_fail	 fw_fail;
	char		 fw_message[SPACE_DONE_MESSAGE_MAX];
};

/* A client's wait follows the operation, not a fixed time. */
#define CTL_PROGRESS_SECONDS	5
struct ctl_progress {
	uint64_t	 pg_done;	/* bytes (or steps) so far */
	uint64_t	 pg_total;	/* 0 when not known */
};

struct ping_msg {
	uint32_t	 pg_proc;	/* enum procid of a worker */
};

struct ctl_verbose {
	int32_t		 cv_level;
};

/* Where the self-test stream goes: a worker, or the client itself. */
enum ctl_sink {
	CTL_SINK_JOURNAL = 0,
	CTL_SINK_CLIENT,
};

struct ctl_stream_test {
	uint64_t	 ct_bytes;	/* to send; answer: what arrived */
	uint32_t	 ct_sink;	/* enum ctl_sink */
	uint32_t	 ct_reserved;	/* zero */
	/* answer only */
	uint64_t	 ct_bad;	/* chunks not as sent (journal sink) */
	uint64_t	 ct_usec;	/* from SEND to the end */
	uint64_t	 ct_peak_rss;	/* spaced's VmHWM, KiB */
};

struct ctl_space {
	char		 cs_id[SPACE_ID_SIZE];	/* "" for create and list */
	char		 cs_name[SPACE_NAME_MAX + 1];	/* create; "" default */
	char		 cs_project[SPACE_PROJECT_LEN + 1];	/* create; "" */
	uint64_t	 cs_memory;		/* create; 0: the default */
	char		 cs_place[8];	/* create: "", "docker", "native" */
};

struct ctl_exec {
	char		 cx_id[SPACE_ID_SIZE];
	uint8_t		 cx_pad[3];		/* zero */
	uint32_t	 cx_target;		/* enum space_exec_target */
	uint32_t	 cx_timeout_ms;		/* 0: none */
	uint32_t	 cx_stdin;		/* 1: stdin comes as a stream */
	uint32_t	 cx_argc;
	uint32_t	 cx_argv_len;		/* bytes of cx_argv used */
	char		 cx_argv[SPACE_EXEC_ARGV_MAX];	/* NUL-separated */
	uint32_t	 cx_tty;		/* 1: a terminal (exec -t) */
	uint16_t	 cx_rows;		/* its size at start; 0: none */
	uint16_t	 cx_cols;
};

/*
 * A window size for the exec -t whose output stream is xr_stream (the
 * client's own); spaced passes it on to the place, which resizes the
 * terminal.  One message, no answer: a late one names no stream.
 */
#define EXEC_TTY_DIM_MAX	4096	/* rows or columns */
struct ctl_exec_resize {
	uint32_t	 xr_stream;
	uint16_t	 xr_rows;
	uint16_t	 xr_cols;
};

enum ctl_network_mode {
	CTL_NETWORK_ALLOWLIST = 0,
	CTL_NETWORK_OPEN,
};
#define CTL_DOMAINS_MAX		2048	/* NUL-separated names */
struct ctl_network {
	char		 cn_id[SPACE_ID_SIZE];
	uint8_t		 cn_pad[3];		/* zero */
	uint32_t	 cn_mode;		/* enum ctl_network_mode */
	uint32_t	 cn_ndomains;
	uint32_t	 cn_len;		/* bytes of cn_domains used */
	char		 cn_domains[CTL_DOMAINS_MAX];
};

#define CTL_GRANT_ID_MAX	64
#define CTL_UPSTREAM_MAX	512
#define CTL_HEADER_MAX		128
#define CTL_SECRET_MAX		1024
struct ctl_grant {
	char		 cg_id[SPACE_ID_SIZE];
	char		 cg_grant[CTL_GRANT_ID_MAX + 1];
	char		 cg_upstream[CTL_UPSTREAM_MAX];
	char		 cg_header[CTL_HEADER_MAX];
	char		 cg_secret[CTL_SECRET_MAX];
};

struct ctl_journal {
	char		 cj_id[SPACE_ID_SIZE];
	uint8_t		 cj_pad[3];		/* zero */
	uint32_t	 cj_max;		/* 0: JOURNAL_READ_MAX */
	uint32_t	 cj_flags;		/* JOURNAL_VERIFY */
	uint64_t	 cj_from;		/* records before it are skipped */
};

/* spacectl events: the ring's events the caller may see, then (-f) more. */
#define CTL_EVENTS_FOLLOW	0x1
struct ctl_events_req {
	uint32_t	 ce_flags;		/* CTL_EVENTS_FOLLOW */
	uint32_t	 ce_pad;		/* zero */
};
#define CTL_EVENT_KIND_MAX	16
#define CTL_EVENT_DETAIL_MAX	128
#define CTL_EVENT_NO_UID	UINT32_MAX	/* spaced's own: root's */
struct ctl_event {
	uint64_t	 ev_seq;		/* from 1, since spaced started */
	int64_t		 ev_time;		/* unix ms */
	uint32_t	 ev_uid;		/* the space's owner */
	char		 ev_kind[CTL_EVENT_KIND_MAX];
	char		 ev_space[SPACE_ID_SIZE];	/* "" for none */
	uint8_t		 ev_pad[3];		/* zero */
	char		 ev_detail[CTL_EVENT_DETAIL_MAX];
};

/* A repository by an absolute path, as the caller resolved it. */
struct ctl_git {
	char		 cg_dir[GIT_DIR_MAX];
	char		 cg_id[SPACE_ID_SIZE];	/* "" when none */
	uint8_t		 cg_pad[3];		/* zero */
	uint32_t	 cg_flags;		/* zero */
};

#define CODEIN_CLEAN		0x01	/* start at HEAD, nothing else */
#define CODEIN_TIMEOUT_DEFAULT	600	/* seconds, for the transfer */
#define CODEIN_TIMEOUT_MAX	3600
#define CTL_SERVER_METHOD_MAX	16
#define CTL_SERVER_PATH_MAX	1024
#define CTL_SERVER_BODY_MAX	2048	/* what fits one exec's stdin */
struct ctl_server {
	char		 cv_id[SPACE_ID_SIZE];
	uint8_t		 cv_pad[3];		/* zero */
	uint32_t	 cv_bodylen;
	char		 cv_method[CTL_SERVER_METHOD_MAX];
	char		 cv_path[CTL_SERVER_PATH_MAX];
	char		 cv_content_type[128];	/* "" none */
	uint8_t		 cv_body[CTL_SERVER_BODY_MAX];
};

#define CTL_SERVER_CHUNK	8192
struct ctl_server_chunk {
	uint32_t	 ck_len;
	uint8_t		 ck_data[CTL_SERVER_CHUNK];
};

struct ctl_server_result {
	uint32_t	 cz_status;
	uint32_t	 cz_ready;	/* the answer is the profile's "ready" */
	uint64_t	 cz_bodylen;
};

/* list and show: one per running space whose server was asked. */
enum ctl_ready_state { CTL_READY_YES = 1, CTL_READY_NO };
struct ctl_ready {
	char		 cy_id[SPACE_ID_SIZE];
	uint8_t		 cy_pad[3];		/* zero */
	uint32_t	 cy_ready;		/* enum ctl_ready_state */
	char		 cy_code[CTL_CODE_MAX];	/* why not; "" */
	uint32_t	 cy_reserved;		/* zero */
};

/*
 * create: the space runs and its server is starting, sent before the
 * answer when an agent's server is waited for; a client may bring its
 * code in meanwhile (create --code).  Its size is its own among
 * create's records.
 */
struct ctl_space_running {
	char		 cn_id[SPACE_ID_SIZE];
	uint8_t		 cn_pad[3];		/* zero */
	uint32_t	 cn_reserved[2];	/* zero */
};

struct ctl_token {
	char		 ct_token[129];
	uint8_t		 ct_pad[7];
};

struct ctl_codein {
	char		 ci_id[SPACE_ID_SIZE];
	uint8_t		 ci_pad[3];		/* zero */
	uint32_t	 ci_flags;		/* CODEIN_* */
	uint32_t	 ci_timeout_s;		/* 0: the default */
	char		 ci_dir[GIT_DIR_MAX];
};

/* review: the work of a space, checked in its quarantine. */
struct ctl_review {
	char		 rv_id[SPACE_ID_SIZE];
	uint8_t		 rv_pad[3];		/* zero */
	uint32_t	 rv_flags;		/* REVIEW_F_* */
	char		 rv_dir[GIT_DIR_MAX];	/* "": where code in came from */
};
#define REVIEW_F_PATCH		0x01

/* apply: the review's way, then the checked objects into the repository. */
struct ctl_apply {
	char		 ca_id[SPACE_ID_SIZE];
	uint8_t		 ca_pad[3];		/* zero */
	uint32_t	 ca_mode;		/* APPLY_BRANCH, APPLY_WORKTREE */
	char		 ca_branch[GIT_BRANCH_MAX];	/* -b */
	char		 ca_allow[APPLY_ALLOW_MAX];	/* names, commas */
	char		 ca_dir[GIT_DIR_MAX];	/* "": where code in came from */
};

struct ctl_codein_result {
	char		 cr_space_path[GIT_DIR_MAX];
	char		 cr_project_path[GIT_DIR_MAX];
	char		 cr_base[GIT_HEX_SIZE];
	char		 cr_staged[GIT_HEX_SIZE];
	char		 cr_start[GIT_HEX_SIZE];
	char		 cr_format[8];
	char		 cr_branch[GIT_BRANCH_MAX];	/* "": detached */
	uint8_t		 cr_pad[2];
	int32_t		 cr_name_copied;
	int32_t		 cr_email_copied;
};

struct ctl_history_result {
	char		 ch_status[32];	/* complete, already_complete, */
	uint64_t	 ch_bytes;	/* host_shallow; the pack's bytes */
};

struct ctl_exec_streams {
	uint32_t	 xs_in;		/* 0 when no stdin was asked for */
	uint32_t	 xs_out;
};

#define CTL_NAME_MAX		32
#define CTL_STATE_MAX		16
#define CTL_DETAIL_MAX		64
struct ctl_proc {
	char		 cp_name[CTL_NAME_MAX];
	int32_t		 cp_pid;		/* 0 when not shown */
	char		 cp_state[CTL_STATE_MAX];
	char		 cp_detail[CTL_DETAIL_MAX];	/* "" when none */
	/* spaced's own row, for admins; -1 elsewhere */
	int32_t		 cp_clients;
	int32_t		 cp_requests;
	int32_t		 cp_streams;
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

/* --- tools ----------------------------------------------------------- */

#define CTL_AGENT_MAX		32	/* AGENT_NAME_MAX and the NUL */
struct ctl_tools {
	char		 ct_agent[CTL_AGENT_MAX];	/* "": the default */
};

#define CTL_TOOLS_DESC_MAX	8192	/* tools_key.h's TOOLS_DESC_MAX */
struct ctl_tools_info {
	char		 ti_agent[CTL_AGENT_MAX];
	char		 ti_key[17];
	char		 ti_volume[128];
	char		 ti_label[256];	/* the description label */
	char		 ti_description[CTL_TOOLS_DESC_MAX];	/* canonical */
};

#endif /* SPACED_CTL_PROTO_H */
