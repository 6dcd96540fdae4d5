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

#ifndef SPACED_PLACE_PROTO_H
#define SPACED_PLACE_PROTO_H

/*
 * The place protocol: what spaced asks of a place (spaced-docker today,
 * spaced-ns later).  The conversations: docs/notes/common-protocols.md.
 */

#include <stdint.h>

#include "agent.h"
#include "labels.h"
#include "proto.h"
#include "space_agent.h"

enum place_imsg_type {
	IMSG_DOCKER_CHECK_REQ = 64,	/* an engine socket */
	IMSG_DOCKER_CHECK_REP,		/* struct docker_check_msg */
	IMSG_DOCKER_RUNTIME,	/* struct docker_runtime_msg and the fd */
	IMSG_DOCKER_RUNTIME_CA,	/* struct docker_runtime_ca_msg and the fd */

	/* struct space_req and an engine socket; records, then DONE */
	IMSG_SPACE_CREATE_REQ = 70,	/* struct space_create_req */
	IMSG_SPACE_LIST_REQ,
	IMSG_SPACE_SHOW_REQ,
	IMSG_SPACE_VERIFY_REQ,
	IMSG_SPACE_STOP_REQ,
	IMSG_SPACE_START_REQ,
	IMSG_SPACE_REMOVE_REQ,
	IMSG_SPACE_EXEC_REQ,		/* struct space_exec_req */
	IMSG_SPACE_LOGS_REQ,		/* struct space_logs_req */

	IMSG_SPACE_INFO = 90,	/* struct space_info */
	IMSG_SPACE_VIOLATION,	/* struct space_violation */
	IMSG_SPACE_RESOURCE,	/* struct space_resource */
	IMSG_SPACE_DONE,	/* struct space_done */
	IMSG_SPACE_CONN_REQ,	/* place -> spaced, no payload */
	IMSG_SPACE_CONN,	/* an engine socket, or none */

	IMSG_TOOLS_ENSURE_REQ,	/* struct tools_ensure_req */
	IMSG_TOOLS_FILE,	/* struct tools_file_msg and the fd */
	IMSG_TOOLS_DONE,	/* struct tools_done */
	IMSG_TOOLS_LIST_REQ,	/* struct tools_ensure_req */
	IMSG_TOOLS_VOLUME,	/* struct tools_volume_info */
	IMSG_SPACE_MOVED,	/* struct space_move */
	IMSG_SPACE_MOVE_DONE_REQ,	/* struct space_move_req */
	IMSG_SPACE_MOVE_UNDO_REQ,
	IMSG_SPACE_EXEC_RESIZE,	/* struct space_exec_resize, the exec's peer */
	IMSG_SPACE_DISK_REQ,	/* struct space_disk_req and an engine socket */
	IMSG_SPACE_DISK,	/* struct space_disk, one a space, then DONE */
};

#define CTL_CODE_MAX		64
#define DOCKER_VERSION_MAX	64
#define CHECK_MESSAGE_MAX	256
/* spaced passes it on to the client unchanged. */
struct docker_check_msg {
	int32_t		 dc_available;		/* 1 or 0 */
	char		 dc_code[CTL_CODE_MAX];	/* when not available */
	char		 dc_version[DOCKER_VERSION_MAX];
	char		 dc_api_version[16];
	char		 dc_min_api_version[16];
	char		 dc_os[32];
	char		 dc_arch[32];
	int32_t		 dc_host_isolation;	/* 1 or 0 */
	/*
	 * When not available, why, in the words a refused create would
	 * say: spaced's (the socket it could not connect to, a plain
	 * user's native place) or spaced-ns's; "" when there are none.
	 */
	char		 dc_message[CHECK_MESSAGE_MAX];
};

struct docker_runtime_msg {
	char		 dr_key[RUNTIME_KEY_LEN + 1];	/* 16 hex of its sha256 */
	uint64_t	 dr_size;
	uint64_t	 dr_ca_size;	/* 0: no CA bundle */
};
#define RUNTIME_CA_MAX	(4U * 1024 * 1024)	/* a space CA bundle */
struct docker_runtime_ca_msg {
	uint64_t	 dca_size;
};

#define SPACE_IMAGE_MAX		256
#define SPACE_HOSTS_MAX		512	/* an absolute path */
/* The engine's own minimum and 1 TiB; as docker_harden.h's copy. */
#define HARDEN_MEMORY_MIN	(6LL << 20)
#define HARDEN_MEMORY_MAX	(1LL << 40)
/* The owner is spaced's to set, never the client's. */
struct space_req {
	char		 sq_owner[SPACE_OWNER_SIZE];
	char		 sq_id[SPACE_ID_SIZE];	/* "" for create and list */
	char		 sq_name[SPACE_NAME_MAX + 1];	/* create; "" default */
	char		 sq_project[SPACE_PROJECT_LEN + 1];	/* create */
	/*
	 * The limits spaced.conf lets the native place go without
	 * (space_limits.h); in the padding before sq_memory, since
	 * space_exec_req, which holds this, is at its 16 KiB.
	 */
	uint8_t		 sq_limits_accept;
	/*
	 * remove, as the undo of a create whose server kept dying or
	 * was never ready, and stop, as the end of a start whose server
	 * kept dying: the done's sd_exit says whether the kernel killed
	 * for memory in the space (the count on native, 1 on Docker; 0:
	 * it did not).
	 */
	uint8_t		 sq_oom;
	/*
	 * show as an operation's lookup of the caller's space, which
	 * reads no record: on Docker its containers alone (their labels
	 * say whose), no networks or volumes, no records.
	 */
	uint8_t		 sq_look;
	uint64_t	 sq_memory;		/* create; 0: the default */
	int64_t		 sq_cpus;		/* NanoCpus; 0: the default */
	char		 sq_space_image[SPACE_IMAGE_MAX];
	char		 sq_gk_image[SPACE_IMAGE_MAX];
	char		 sq_runtime_key[RUNTIME_KEY_LEN + 1];
	char		 sq_runtime_owner[SPACE_OWNER_SIZE];	/* the install's */
	/* create, verify, start: the host file bound at /etc/hosts */
	char		 sq_hosts[SPACE_HOSTS_MAX];
	/* create: what runs; verify and start: what the space must run */
	struct space_agent sq_agent;
	/* the space uids spaced.conf reserves: a space's is one of them */
	uint32_t	 sq_uid_first;
	uint32_t	 sq_uid_count;
	/* the outer networks' pool (host order) and the prefix of each */
	uint32_t	 sq_net_base;
	uint8_t		 sq_net_pool_prefix;
	uint8_t		 sq_net_prefix;
	/* create: the spaces its owner may have, this one included */
	uint16_t	 sq_spaces_max;
};

/* The token travels here and as an exec's stdin only. */
struct space_create_req {
	struct space_req cq_space;
	char		 cq_token[SPACE_TOKEN_LEN + 1];
};

/* The first field of every record says which record it is. */
enum space_record_kind {
	SPACE_REC_INFO = 1,
	SPACE_REC_VIOLATION,
	SPACE_REC_RESOURCE,
};

#define SPACE_STATE_MAX		16	/* running, exited, created, missing */
#define SPACE_MISSING_MAX	8
#define SPACE_MISSING_LEN	24
/* One space: create, start, show, and one per space for list. */
struct space_info {
	uint32_t	 si_kind;		/* SPACE_REC_INFO */
	char		 si_id[SPACE_ID_SIZE];
	char		 si_name[SPACE_NAME_MAX + 1];
	char		 si_project[SPACE_PROJECT_LEN + 1];
	char		 si_created[SPACE_CREATED_LEN + 1];
	uint64_t	 si_memory;
	char		 si_state[SPACE_STATE_MAX];	/* of the space container */
	char		 si_gk_state[SPACE_STATE_MAX];	/* of its gatekeeper */
	int32_t		 si_damaged;
	uint32_t	 si_nmissing;
	/* "network", "socket_volume", "gatekeeper", "gatekeeper_stopped" */
	char		 si_missing[SPACE_MISSING_MAX][SPACE_MISSING_LEN];
	uint32_t	 si_norphans;	/* space_resource records follow */
	char		 si_place[8];	/* "native", or "" for docker */
	/* spaced's last disk sweep (the place sends 0): limit 0, unmeasured */
	uint64_t	 si_disk_used;
	uint64_t	 si_disk_limit;
	int32_t		 si_disk_over;	/* at its limit: stopped by spaced */
	/* The journal's count of the relay's restarts (spaced's word too) */
	int32_t		 si_restarts_known;	/* 0: not collected yet */
	uint64_t	 si_restarts;
};

/* The disk sweep: the spaces of one installation, every owner's. */
struct space_disk_req {
	char		 dq_install[INSTALL_ID_MAX + 1];
};

/* A space's bytes on the engine's disk: its writable layers and volumes. */
struct space_disk {
	char		 sk_id[SPACE_ID_SIZE];
	char		 sk_owner[SPACE_OWNER_SIZE];
	char		 sk_state[SPACE_STATE_MAX];	/* of the space container */
	uint64_t	 sk_used;
};

/* One finding of verify, or of the verify inside create and start. */
#define SPACE_CHECK_MAX		48
#define SPACE_MESSAGE_MAX	96
struct space_violation {
	uint32_t	 sv_kind;		/* SPACE_REC_VIOLATION */
	char		 sv_check[SPACE_CHECK_MAX];
	char		 sv_message[SPACE_MESSAGE_MAX];
};

/* A container, network or volume: removed, failed, or an orphan. */
enum space_resource_state {
	SPACE_RES_REMOVED = 1,
	SPACE_RES_FAILED,	/* remove or rollback could not remove it */
	SPACE_RES_ORPHAN,	/* list: its space container is gone */
};
#define SPACE_RES_TYPE_MAX	12	/* "container", "network", "volume" */
struct space_resource {
	uint32_t	 sr_kind;		/* SPACE_REC_RESOURCE */
	uint32_t	 sr_state;		/* enum space_resource_state */
	char		 sr_id[SPACE_ID_SIZE];	/* the space it belongs to */
	char		 sr_type[SPACE_RES_TYPE_MAX];
	char		 sr_name[SPACE_RESOURCE_MAX];
};

/* The last word: sd_code "" when it worked. */
#define SPACE_DONE_MESSAGE_MAX	256
struct space_done {
	char		 sd_code[CTL_CODE_MAX];
	int32_t		 sd_uncertain;	/* a step may still finish: look */
	char		 sd_message[SPACE_DONE_MESSAGE_MAX];
	int32_t		 sd_exit;	/* exec: the exit code; sq_oom; else -1 */
};

enum space_exec_target {
	EXEC_TARGET_SPACE = 0,
	EXEC_TARGET_GATEKEEPER,
};
#define SPACE_EXEC_ARGV_MAX	8192	/* argv, NUL-separated */
#define SPACE_EXEC_ARGC_MAX	256
#define SPACE_EXEC_STDIN_MAX	4096	/* inline stdin */
#define EXEC_OUT_STDOUT		1	/* first byte of an output chunk */
#define EXEC_OUT_STDERR		2
struct space_exec_req {
	struct space_req se_space;	/* owner and id */
	uint32_t	 se_target;	/* enum space_exec_target */
	uint32_t	 se_timeout_ms;	/* 0: none */
	uint64_t	 se_output_max;	/* bytes; 0: no cap */
	uint32_t	 se_in_stream;	/* 0: stdin is se_stdin, then EOF */
	uint32_t	 se_out_stream;	/* 0: the output is dropped */
	uint16_t	 se_argc;	/* at most SPACE_EXEC_ARGC_MAX */
	uint16_t	 se_tty;	/* 1: the engine's Tty, a raw stream */
	uint32_t	 se_argv_len;	/* bytes of se_argv used */
	uint32_t	 se_stdin_len;
	uint16_t	 se_rows;	/* the terminal's size; 0: none */
	uint16_t	 se_cols;
	char		 se_argv[SPACE_EXEC_ARGV_MAX];
	uint8_t		 se_stdin[SPACE_EXEC_STDIN_MAX];
};

/* exec -t: the terminal's new size (the exec's request is the peer). */
struct space_exec_resize {
	uint16_t	 er_rows;
	uint16_t	 er_cols;
};

/* The two containers of a move, by the engine's ids (plain hex). */
#define SPACE_CID_SIZE		72
struct space_move {
	char		 mv_old[SPACE_CID_SIZE];	/* aside, -old */
	char		 mv_new[SPACE_CID_SIZE];	/* its create's Id */
};
#define TOOLS_MSG_VOLUME_MAX	128	/* tools_key.h's TOOLS_VOLUME_MAX */
/*
 * The owner's current tools volume of every profile of spaced.conf
 * ("" past the last): what a prune never takes (spaced.conf(5)).
 */
struct tools_keep {
	char		 tk_volume[AGENT_PROFILES_MAX][TOOLS_MSG_VOLUME_MAX];
};
/* -1 when a name is not NUL-terminated; whether name is one of tk. */
int	 tools_keep_valid(const struct tools_keep *);
int	 tools_keep_has(const struct tools_keep *, const char *name);

struct space_move_req {
	struct space_req mq_space;	/* owner and id */
	struct space_move mq_move;
	struct tools_keep mq_keep;	/* the prune after the move */
};

#define SPACE_LOGS_MAX		(64 << 20)	/* the log body: five 10 MB files, framed */
struct space_logs_req {
	struct space_req sl_space;	/* owner and id */
	uint32_t	 sl_stream;	/* place -> spaced-journal */
	/*
	 * Unix seconds: lines from then on are enough (a hint: a place may
	 * send more, the journal keeps a line once by its number); 0: all.
	 */
	uint32_t	 sl_since;
	uint32_t	 sl_what;	/* SPACE_LOGS_GATEKEEPER or _RELAY */
};
/* The gatekeeper's stdout (its records), or the space's stderr (Docker). */
#define SPACE_LOGS_GATEKEEPER	0
#define SPACE_LOGS_RELAY	1

/* --- the tools volume ------------------------------------------------ */

#define TOOLS_MSG_KEY_SIZE	17	/* 16 hex and the NUL */
#define TOOLS_MSG_DESC_MAX	256	/* the description label, with NUL */
#define TOOLS_MSG_FILES_MAX	(AGENT_PACKAGES_MAX + 2)
struct tools_ensure_req {
	char		 te_owner[SPACE_OWNER_SIZE];	/* install:uid */
	char		 te_key[TOOLS_MSG_KEY_SIZE];
	char		 te_volume[TOOLS_MSG_VOLUME_MAX];
	char		 te_image[SPACE_IMAGE_MAX];	/* the space image */
	char		 te_description[TOOLS_MSG_DESC_MAX];	/* label */
	uint32_t	 te_nfiles;	/* IMSG_TOOLS_FILE that follow */
	/* "space uid range": the filler runs as a uid of it, never root */
	uint32_t	 te_uid_first;
	uint32_t	 te_uid_count;
	/* The filler's gatekeeper: its image, its bridge from the pool */
	char		 te_gk_image[SPACE_IMAGE_MAX];
	uint32_t	 te_net_base;
	uint8_t		 te_net_pool_prefix;
	uint8_t		 te_net_prefix;
	uint8_t		 te_pad[2];	/* zero */
	/*
	 * 1: a space's create or start mounts the volume next; no prune
	 * takes it from the answer to that request's end.  0: tools fill.
	 */
	uint32_t	 te_hold;
	/*
	 * spaced's own uid: the runtime volume the filler runs the relay
	 * from is "<install>:<it>"'s, as sq_runtime_owner says for a create.
	 */
	uint32_t	 te_runtime_uid;
	struct tools_keep te_keep;	/* the prune after a fill */
	struct agent_profile te_profile;	/* checked, tarballs hashed */
};
/* One imsg: the profile takes most of it. */
_Static_assert(sizeof(struct tools_ensure_req) <= 16384, "tools_ensure_req");

enum tools_file_kind {
	TOOLS_FILE_FILLER = 1,	/* spaced-filler.js: node -e's program */
	TOOLS_FILE_PACKED,	/* the tarball of te_profile's package tf_index */
	TOOLS_FILE_CA,		/* the CA bundle of "tools ca bundle" */
};
struct tools_file_msg {
	uint32_t	 tf_kind;	/* enum tools_file_kind */
	uint32_t	 tf_index;	/* TOOLS_FILE_PACKED: the package */
	uint64_t	 tf_size;	/* what spaced hashed; fstat must agree */
};

struct tools_done {
	struct space_done td_done;
	char		 td_volume[TOOLS_MSG_VOLUME_MAX];
	char		 td_key[TOOLS_MSG_KEY_SIZE];
	int32_t		 td_filled;	/* 1: this call filled it */
	int32_t		 td_pruned;	/* old volumes it removed */
};

/* One of the owner's tools volumes, for spacectl tools. */
#define TOOLS_MOUNTS_MAX	16
enum tools_fill_state {
	TOOLS_STATE_FILLED = 1,	/* its marker holds its key */
	TOOLS_STATE_EMPTY,	/* no marker: a fill that did not finish */
	TOOLS_STATE_MISMATCH,	/* a marker with anything else */
	TOOLS_STATE_UNKNOWN,	/* not read: busy, or the check failed */
};
struct tools_volume_info {
	char		 tv_name[TOOLS_MSG_VOLUME_MAX];
	char		 tv_key[TOOLS_MSG_KEY_SIZE];
	char		 tv_description[TOOLS_MSG_DESC_MAX];
	char		 tv_created[SPACE_CREATED_LEN + 1];
	uint32_t	 tv_state;	/* enum tools_fill_state */
	uint32_t	 tv_nmounts;	/* spaces that mount it */
	int32_t		 tv_more;	/* more than TOOLS_MOUNTS_MAX do */
	char		 tv_mounts[TOOLS_MOUNTS_MAX][SPACE_ID_SIZE];
	char		 tv_place[8];	/* "docker", "native": spaced's word */
};

/* argv, NULL-terminated, into se, NUL-separated; -1 when it does not fit. */
int	space_exec_argv(struct space_exec_req *, const char *const *);

/* Each is one message. */
_Static_assert(sizeof(struct space_exec_req) <= 16384, "space_exec_req");
_Static_assert(SPACE_EXEC_ARGC_MAX <= UINT16_MAX, "se_argc");
_Static_assert(sizeof(struct space_req) <= 16384, "space_req");
_Static_assert(sizeof(struct space_create_req) <= 16384, "space_create_req");

#endif /* SPACED_PLACE_PROTO_H */
