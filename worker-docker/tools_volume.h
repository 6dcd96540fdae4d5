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

#ifndef SPACED_TOOLS_VOLUME_H
#define SPACED_TOOLS_VOLUME_H

/*
 * The tools volume's operations (ensure, list) and their shared state
 * and step table; tools_ops.c drives the steps (docs/notes/
 * spaced-docker-tools.md).
 */

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include "place_proto.h"
#include "tools_key.h"
#include "docker_engine.h"
#include "docker_execcall.h"
#include "docker_harden_tools.h"
#include "docker_netpool.h"
#include "docker_req.h"
#include "space_runtime.h"
#include "tools_prune.h"

#define TV_CAP			(256 * 1024)
#define TV_LIST_CAP		(8 * 1024 * 1024)
#define TV_STEP_MS		60000		/* one call */
#define TV_FILL_MS		(30 * 60 * 1000)	/* the spec's */
#define TV_CHECK_MS		30000
#define TV_STALE_MAX		16
#define TV_ERR_TAIL		200

/* Like SP_SEND and SP_ADVANCE (space.h). */
#define TV_SEND		((enum docker_next)0x100)
#define TV_ADVANCE	((enum docker_next)0x101)

/* What the stream child gives back. */
struct tx_result {
	char		 xr_code[CTL_CODE_MAX];	/* "" when the stream ended well */
	int		 xr_interrupted;
	uint8_t		 xr_out[TOOLS_MARKER_OUT_MAX];
	size_t		 xr_out_len;
	int		 xr_truncated;
	char		 xr_err[TV_ERR_TAIL + 1];	/* stderr's last line(s) */
	uint64_t	 xr_total;
};

/* The stream child's input: it takes the buffer and the fds. */
struct tx_in {
	char		 xi_api[ENGINE_API_MAX];
	char		 xi_exec[EXEC_ID_MAX];
	int		 xi_timeout_ms;
	uint8_t		*xi_prefix;
	size_t		 xi_prefix_len;
	int		 xi_fds[TOOLS_MSG_FILES_MAX];
	uint64_t	 xi_sizes[TOOLS_MSG_FILES_MAX];
	size_t		 xi_nfds;
};

enum tv_phase { PH_CHECK, PH_FILL, PH_RECHECK, PH_LIST };

enum tv_step {
	S_VERSION,
	/* ensure */
	S_WAIT, S_VOL_GET, S_SWEEP, S_SWEEP_DEL, S_CHECKED, S_VOL_DEL,
	S_VOL_CREATE, S_FILLED, S_RECHECKED, S_PRUNE, S_PRUNE_DEL,
	/* the one-shot of a check or a fill */
	O_CREATE, O_INSPECT, O_OWN, O_START, O_EXEC, O_STREAM, O_EXIT, O_DEL,
	/* the rollback of a fill */
	R_DEL, R_PAUSE,
	/* the filler's relay (space_runtime.c), its way out, then down */
	G_RUNTIME, G_CLEAR, G_NETS, G_NET, G_SOCK, G_GK, G_GK_INSPECT,
	G_GK_START, G_DOWN,
	/* list */
	L_VOLS, L_CTRS, L_READ,
};

struct tv_file {
	int		 f_fd;
	uint32_t	 f_kind;
	uint32_t	 f_index;
	uint64_t	 f_size;
};

struct tv {
	TAILQ_ENTRY(tv)		 entry;
	uint32_t		 op;
	uint32_t		 peerid;
	struct tools_ensure_req	 req;
	char			 api[ENGINE_API_MAX];
	enum tv_step		 step;
	enum tv_phase		 phase;
	char			 created[SPACE_CREATED_LEN + 1];
	char			 volume[TOOLS_MSG_VOLUME_MAX];	/* this phase's */
	char			 key[TOOLS_MSG_KEY_SIZE];
	char			 desc[TOOLS_MSG_DESC_MAX];
	struct harden_tools_params tp;
	int			 holder;
	int			 filling;	/* decided to fill: rollback */
	int			 filled;
	int			 pruned;
	/* the one-shot of this phase */
	char			 cid[SPACE_RESOURCE_MAX];
	char			 exec_id[EXEC_ID_MAX];
	int			 polls;
	int			 exited, exit_code;
	struct tx_result	 xr;
	int			 have_xr;
	char			 os_code[CTL_CODE_MAX];	/* a failure to answer */
	char			 os_msg[SPACE_DONE_MESSAGE_MAX];
	int			 os_interrupted;
	enum tools_verdict	 verdict;
	/* the files spaced sent */
	struct tv_file		 files[TOOLS_MSG_FILES_MAX];
	size_t			 nfiles;
	/* sweeps and prunes: names or ids to remove */
	char			 stale[TV_STALE_MAX][SPACE_RESOURCE_MAX];
	size_t			 nstale, istale;
	/* the failure being answered, and its rollback */
	int			 rolling_back;
	int			 sweeps;
	int			 uncertain;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
	char			 rb_fail[SPACE_DONE_MESSAGE_MAX];
	char			 rb[8][SPACE_RESOURCE_MAX + 32];	/* paths */
	size_t			 rb_n, rb_i;
	/* the runtime volume the filler runs the relay from, its owner */
	struct rt		 rt;
	char			 rt_owner[SPACE_OWNER_SIZE];
	/* the filler's gatekeeper and its bridge's slot of the pool */
	char			 gk_cid[SPACE_RESOURCE_MAX];
	char			 net_subnet[NETPOOL_CIDR_MAX];
	uint8_t			 net_used[NETPOOL_BITMAP];
	int			 net_tries;
	size_t			 gi;		/* G_CLEAR's, G_DOWN's */
	/* list */
	struct tools_volume_info *vols;
	size_t			 nvols, ivol;
};

/* One step: its call, what its answer does, the step after it. */
struct tv_step_row {
	enum tv_step	 st_step;
	enum docker_next (*st_send)(struct docker_req *, struct tv *,
			    struct docker_call *);
	enum docker_next (*st_take)(struct docker_req *, struct tv *,
			    const struct docker_parser *, struct docker_call *);
	enum tv_step	 st_next;
};

#define TV_STEPS(name)	extern const struct tv_step_row name[];	\
			extern const size_t name##_n
TV_STEPS(tools_ensure_steps);
TV_STEPS(tools_fill_steps);
TV_STEPS(tools_rollback_steps);
TV_STEPS(tools_list_steps);
TV_STEPS(tools_corridor_steps);

#define tv_call(tv, cl, method, cap, ...) \
	docker_call_fmt((cl), (tv)->api, (method), (cap), __VA_ARGS__)

/* A one-shot of this phase, from its first step. */
static inline enum docker_next
tv_oneshot(struct tv *tv, enum tv_phase phase)
{
	tv->phase = phase;
	tv->step = O_CREATE;
	return TV_SEND;
}

/* tools_volume.c: the requests, the turns, the answer, the files. */
void	 tools_track(struct tv *);
void	 tools_untrack(struct tv *);
int	 turn_take(const char *volume, uint32_t peerid);
void	 turn_release(const char *volume, uint32_t peerid);
void	 tools_reply(struct docker_req *, struct tv *, const char *code,
	    const char *message, int uncertain, int exit_code);
void	 tools_params(struct tv *, enum tools_role);
int	 tools_owner_volume(const char *owner, const char *key, char *,
	    size_t);
/* "<install of owner>:<uid>", the runtime volume's owner; -1 none. */
int	 tools_runtime_owner(const char *owner, uint32_t uid, char *, size_t);
struct tv_file *tools_file_find(struct tv *, uint32_t kind, uint32_t index);
uint8_t	*tools_file_read(const struct tv_file *);
/* An IMSG_TOOLS_FILE: the fd goes to its ensure, or is closed. */
void	 tools_file(uint32_t peerid, const struct tools_file_msg *, int fd);
/* tools_rollback.c: a failure, and the rollback of a fill. */
enum docker_next tv_fail(struct docker_req *, struct tv *, const char *,
	    const char *, int, struct docker_call *);

/*
 * tools_listing.c: list's volumes of this owner (sorted, at most
 * TV_VOLUMES_MAX) and the spaces that mount each.
 */
#define TV_VOLUMES_MAX		64
void	 tools_take_volumes(struct tv *, const struct docker_parser *);
void	 tools_take_mounts(struct tv *, const struct docker_parser *);

/* tools_corridor.c: the filler's gatekeeper, before and after it. */
enum docker_next tv_corridor(struct docker_req *, struct tv *,
	    struct docker_call *);
enum docker_next tv_corridor_down(struct tv *);

/* tools_fill.c: the stream child's answer. */
enum docker_next oneshot_streamed(struct docker_req *, struct tv *,
	    const void *, size_t, struct docker_call *);

/* tools_stream.c */
extern const struct docker_op	tools_stream_op;

#endif /* SPACED_TOOLS_VOLUME_H */
