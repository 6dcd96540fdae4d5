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

#ifndef SPACED_SPACE_H
#define SPACED_SPACE_H

/*
 * The space operations' shared state and step table.  Each operation
 * file exports its rows; space_ops.c drives them (docs/notes/
 * spaced-docker-space.md).
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "place_proto.h"
#include "docker_engine.h"
#include "docker_harden.h"
#include "docker_req.h"
#include "docker_runtime.h"
#include "space_runtime.h"

#define SP_LIST_CAP		(8 * 1024 * 1024)	/* a listing's body */
#define SP_SMALL_CAP		(256 * 1024)
#define SP_CORRIDOR_POLL_MS	20

/*
 * What a step's functions return beside enum docker_next: send the call
 * of the step sp is at now, or of its row's next step.
 */
#define SP_SEND		((enum docker_next)0x100)
#define SP_ADVANCE	((enum docker_next)0x101)

enum sp_res_type { RES_CONTAINER, RES_VOLUME, RES_NETWORK };

struct sp_res {
	uint8_t		 r_type;		/* enum sp_res_type */
	int8_t		 r_role;		/* enum space_role, or -1 */
	uint8_t		 r_done;
	char		 r_id[SPACE_ID_SIZE];	/* the space's */
	char		 r_name[SPACE_RESOURCE_MAX];
	char		 r_ref[SPACE_RESOURCE_MAX];	/* Id, or volume name */
	char		 r_state[SPACE_STATE_MAX];
	struct space_meta r_meta;		/* role space only */
};

enum sp_step {
	S_VERSION,
	/* create */
	C_NAMES, C_NET, C_VOL, C_GK, C_SP, C_GK_START, C_SP_START, C_WAIT_GK,
	C_CORRIDOR, C_SP_RUNNING, C_SP_FOLDER, C_WAIT_TOKEN, C_SP_OWN,
	C_COUNT, C_NET_LIST, C_UIDS,
	/* create: the runtime volume, its own steps (space_runtime.h) */
	C_RT,
	/* start, after its verify */
	T_GK_START, T_CORRIDOR, T_SP_START,
	/* verify, and the verify inside create and start */
	V_SP, V_GK, V_NET, V_VOL, V_RT,
	/* stop */
	ST_SP, ST_SP_STOP, ST_SP_OOM, ST_GK, ST_GK_STOP,
	/* remove, and the rollback of create */
	R_LIST_C, R_DEL_C, R_LIST_V, R_DEL_V, R_LIST_N, R_DEL_N, R_PAUSE,
	R_NAME_DEL, R_OOM_OWN, R_OOM_STOP, R_OOM_LOOK,
	/* list and show; show as a lookup (sq_look) */
	L_C, L_N, L_V, L_LOOK,
	/* the move: start's repair, the move, its undo, its end, aside */
	P_ASIDE, P_PLAIN, P_DEL, P_BACK,
	M_RENAME, M_CREATE, M_VERIFY, M_START, M_RUNNING,
	U_NEW, U_DEL, U_OLD, U_BACK,
	D_OLD, D_DEL, D_PRUNE, D_PRUNE_DEL,
	A_ASIDE,
	SP_NSTEPS
};

struct branch_result;

struct sp {
	uint32_t		 op;		/* IMSG_SPACE_*_REQ */
	struct space_req	 sq;
	char			 api[ENGINE_API_MAX];
	enum sp_step		 step;
	size_t			 i;
	struct space_meta	 meta;
	/* the op row of create's gatekeeper branch (space_ops.c's) */
	const struct docker_op	*branch_op;
	char			 rt_key[RUNTIME_KEY_LEN + 1];
	struct rt		 rt;		/* create: its fill */
	uint32_t		 tools_peer;	/* its tools kept: unkeep */
	int			 rt_ca;		/* runtime with a CA bundle */
	/* the move's prune: old tools volumes */
	char			 rt_stale[RT_STALE_MAX][SPACE_RESOURCE_MAX];
	size_t			 rt_nstale, rt_istale;
	struct harden_params	 hp;
	/* the agent's command and variables, as hp points to them */
	const char		*agent_argv[4];
	const char		*agent_env[SPACE_AGENT_ENVS_MAX + 1];
	struct harden_report	 report;
	char			 sp_state[SPACE_STATE_MAX];
	char			 gk_state[SPACE_STATE_MAX];
	int			 gk_present;
	int			 folder_polls;
	/* the outer network's slot of the pool, and those found taken */
	char			 net_subnet[NETPOOL_CIDR_MAX];
	uint8_t			 net_used[NETPOOL_BITMAP];
	int			 net_tries;
	/* create's place among the owner's creates (space_inflight.c) */
	int			 counting;	/* its listing under way */
	int			 held;		/* past its count */
	int			 uid_held;	/* its uid, for other creates */
	int			 made;		/* answered done */
	/* a failed create: what it answers once the rollback is done */
	int			 names_free;	/* a failure rolls back */
	int			 rolling_back;
	int			 sweeps;
	char			 code[CTL_CODE_MAX];
	char			 message[SPACE_DONE_MESSAGE_MAX];
	int			 uncertain;
	int			 oom;		/* sq_oom (remove, stop): it did */
	struct sp_res		*res;
	size_t			 nres;
	/*
	 * create runs in two branches: this request makes the volumes and
	 * the space, a child (branch 1, its own connection) the outer
	 * network and the gatekeeper, each verified before it starts.
	 */
	int			 branch;
	int			 child_running;
	int			 child_done;
	int			 rollback_pending;
	struct branch_result	*child;
	/* a create's token, written by an exec child once the space runs */
	int			 writes_token;
	char			 token[SPACE_TOKEN_LEN + 1];	/* till then */
	int			 token_child;	/* the child is that exec */
	int			 token_done;
	struct space_done	 token_sd;	/* its answer */
	/* a move (start) and its undo; the ids are the engine's */
	struct space_move	 mv;
	struct tools_keep	 mq_keep;	/* the move's prune keeps */
	char			 aside_cid[SPACE_CID_SIZE];	/* repair */
	char			 tools_cur[SPACE_RESOURCE_MAX];
	uint64_t		 move_memory;	/* the old one's, inspected */
	int			 move;		/* start: move it */
	int			 moving;	/* the old may be aside: undo */
	int			 undoing;
	int			 repairs;	/* looks again, bounded */
	int			 new_failed;	/* the new one stays */
	int			 old_back;	/* the old one has its name */
	int			 old_gone;
};

/* What the gatekeeper's branch answers its parent. */
struct branch_result {
	char			 br_code[CTL_CODE_MAX];	/* "" when it runs */
	char			 br_message[SPACE_DONE_MESSAGE_MAX];
	int			 br_interrupted;
	struct harden_report	 br_report;
};

/* One step: its call, what its answer does, the step after it. */
struct sp_step_row {
	enum sp_step	 st_step;
	enum docker_next (*st_send)(struct docker_req *, struct sp *,
			    struct docker_call *);
	enum docker_next (*st_take)(struct docker_req *, struct sp *,
			    const struct docker_parser *, struct docker_call *);
	enum sp_step	 st_next;
};

#define SP_STEPS(name)	extern const struct sp_step_row name[];	\
			extern const size_t name##_n
SP_STEPS(space_create_steps);
SP_STEPS(space_start_steps);
SP_STEPS(space_verify_steps);
SP_STEPS(space_stop_steps);
SP_STEPS(space_remove_steps);
SP_STEPS(space_list_steps);
SP_STEPS(space_move_steps);

#define sp_call(sp, cl, method, cap, ...) \
	docker_call_fmt((cl), (sp)->api, (method), (cap), __VA_ARGS__)

/* space_util.c: what several operations share. */
extern const enum space_role	space_name_roles[];	/* create's order */
#define NNAME_ROLES		6
extern const enum space_role	space_volume_roles[];
#define NVOLUME_ROLES		3
void	 role_name(struct sp *, enum space_role, char *, size_t);
void	 label_filter(struct sp *, const char *id, char *, size_t);
void	 done(struct docker_req *, const char *code, const char *message,
	    int uncertain);
void	 done_exit(struct docker_req *, int);
void	 send_info(struct docker_req *, const struct space_meta *,
	    const char *state, const char *gk_state,
	    const char *const *missing, size_t nmissing, uint32_t norphans);
void	 send_resource(struct docker_req *, const struct sp_res *,
	    enum space_resource_state);
void	 send_violations(struct docker_req *, const struct harden_report *);
void	 sp_params(struct sp *);
const char *created_code(const struct docker_parser *, char *, size_t);
void	 container_state(const json_t *, char *, size_t);
void	 corridor_call(struct sp *, struct docker_call *);
void	 start_call(struct sp *, enum space_role, struct docker_call *);

/*
 * listing_parse.c: a listing's resources that are ours (of space id,
 * when not NULL) into sp->res; 0, or -1 when it is no listing.
 */
#define SP_RES_MAX	4096	/* resources one listing takes */
struct sp_res *res_add(struct sp *);
int	 take_listing(struct sp *, const struct docker_parser *,
	    enum sp_res_type, const char *id);

/*
 * create_parse.c: the engine's answers as create reads them in its
 * steps (pure).  GET /containers/json of the installation's spaces:
 * the uids they run as (*uids allocated, the caller frees), or of the
 * owner's: the ids of its spaces, sorted and each once (*ids the
 * same); both the count, or -1 when the answer is no listing.
 */
ssize_t	 create_uids_take(const struct docker_parser *, const char *owner,
	    uint32_t first, uint32_t count, uint32_t **uids);
ssize_t	 create_ids_take(const struct docker_parser *, const char *owner,
	    char (**ids)[SPACE_ID_SIZE]);
int	 create_id_listed(char (*ids)[SPACE_ID_SIZE], size_t n,
	    const char *id);
/*
 * GET /containers/json or /volumes of the runtime's: the refs whose
 * labels make them owner's runtime of key (same_key) or of another
 * key, at most max; none when the answer does not parse.
 */
size_t	 create_runtime_take(const struct docker_parser *, int volumes,
	    const char *owner, const char *key, int same_key,
	    char (*)[SPACE_RESOURCE_MAX], size_t max);
/* The runtime volume's inspect: NULL when its labels say key, else why. */
const char *create_runtime_labels(const struct docker_parser *,
	    const char *key);
/* A container's inspect: 1 when it says it runs. */
int	 create_running(const struct docker_parser *);

/* space_fail.c: a failure, and create's rollback or a move's undo. */
enum docker_next sp_fail(struct docker_req *, struct sp *, const char *code,
	    const char *message, int interrupted, struct docker_call *);
enum docker_next branch_answer(struct docker_req *, struct sp *,
	    const char *, const char *, int);

/* space_inflight.c: an owner's creates past their count. */
void		 inflight_count_begin(struct sp *);
void		 inflight_count_end(struct sp *);
const char	*inflight_next(const char *owner, const void **cursor);
void		 inflight_hold(struct sp *);
void		 inflight_release(struct sp *);
/* The uids of creates in flight, whatever their owner. */
int		 inflight_uid_taken(const struct sp *, uint32_t);
void		 inflight_uid_hold(struct sp *);

/* space_create.c: the branches and the token, for the children. */
enum docker_next gk_joined(struct docker_req *, struct sp *,
	    struct docker_call *);
enum docker_next token_joined(struct docker_req *, struct sp *,
	    struct docker_call *);
int	 gk_branch_start(struct docker_req *, const void *, size_t,
	    struct docker_call *);
enum docker_next create_begin(struct docker_req *, struct sp *);


/* space_remove.c */
enum docker_next sp_rollback(struct sp *);
int	 removal_in_progress(const struct docker_parser *);

/* space_move.c */
void	 move_decide(struct sp *, const json_t *);
enum docker_next move_undo(struct docker_req *, struct sp *, const char *,
	    const char *, int);
int	 move_wanted(const struct sp *);

#endif /* SPACED_SPACE_H */
