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

#ifndef SPACED_H
#define SPACED_H

#include <sys/types.h>
#include <sys/queue.h>

#include <limits.h>

#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "ctl_proto.h"
#include "git_proto.h"
#include "place_proto.h"
#include "imsg.h"
#include "proc.h"
#include "stream.h"

#define SPACED_CONF_ROOT	"/etc/spaced.conf"
#define SPACED_SOCK_ROOT	"/run/spaced/spaced.sock"
#define SPACED_DOCKER_SOCK	"/var/run/docker.sock"
#define SPACED_STORE_ROOT	"/var/lib/spaced/journal"
#define SPACED_EMPTY_ROOT	"/var/lib/spaced/empty"
#define SPACED_STATE_ROOT	"/var/lib/spaced"
#define SPACED_DOCKER_GROUP	"docker"
#define SPACED_SPACE_IMAGE	"spaced-space:latest"
#define SPACED_GK_IMAGE		"spaced-gatekeeper:latest"
#define SPACED_INSTALL_ID_FILE	"install-id"	/* in the state directory */
#define SPACED_RELAY_BINARY	"spaced-relay"	/* in libexec */
#define SPACED_HOSTS_FILE	"space-hosts"	/* in libexec */
/* The host's system CA bundle (Debian's update-ca-certificates). */
#define SPACED_HOST_CA		"/etc/ssl/certs/ca-certificates.crt"
#define SPACED_INSTALL_ID_LEN	32		/* what spaced makes */
#define SPACED_GROUP_MAX	33
/*
 * The host uids a space runs as, one a space (docs/privsep.md): far
 * above accounts, subordinate ranges and the images' own users.
 */
#define SPACED_SPACE_UIDS	"2000000000-2000999999"
/*
 * The outer networks' pool and each one's prefix: 8192 slots of /29
 * outside the engine's default pools (172.17-31/16, 192.168/16).
 */
#define SPACED_NET_POOL		"10.213.0.0/16"
#define SPACED_NET_SIZE		"29"
#define SPACED_SPACES_PER_OWNER	"16"
#define SPACED_JOURNAL_INTERVAL	"2"
#define SPACED_DISK_LIMIT	"20G"
#define SPACED_DISK_SWEEP	"60"

struct spaced_conf {
	char	 sc_socket[PATH_MAX];		/* control socket */
	char	 sc_docker_socket[PATH_MAX];	/* the Engine's unix socket */
	char	 sc_docker_group[SPACED_GROUP_MAX]; /* may manage spaces */
	char	 sc_state[PATH_MAX];		/* the install-id file */
	char	 sc_store[PATH_MAX];		/* journal store */
	char	 sc_empty[PATH_MAX];		/* chroot of the workers */
	/* "" until set: then read from, or made in, the state directory */
	char	 sc_install_id[INSTALL_ID_MAX + 1];
	char	 sc_space_image[SPACE_IMAGE_MAX];
	char	 sc_gk_image[SPACE_IMAGE_MAX];
	/* agent profiles: the built-in one unless the file names it */
	struct agent_profile sc_agents[AGENT_PROFILES_MAX];
	uint32_t sc_nagents;
	char	 sc_agent[AGENT_NAME_MAX + 1];	/* the default profile */
	/* a CA bundle for the filler, on networks that inspect TLS */
	char	 sc_tools_ca[PATH_MAX];
	/* a CA bundle every new space trusts, from its runtime volume */
	char	 sc_space_ca[PATH_MAX];
	/* code in's host timeout in seconds, "" for the default */
	char	 sc_codein_timeout[8];
	/* FIRST-LAST: the host uids reserved for spaces */
	char	 sc_space_uids[24];
	/* the outer networks' pool, each one's prefix; spaces an owner may have */
	char	 sc_net_pool[20];
	char	 sc_net_size[4];
	char	 sc_spaces_max[8];
	/* "auto", "docker" or "native": where create puts a space */
	char	 sc_default_place[8];
	/* whose CAs the filler and the spaces trust: "host" ("") or "images" */
	char	 sc_trust[8];
	/* the limits the native place may go without: "none", "all", a list */
	char	 sc_native_accept[32];
	/* seconds between two collections of a followed gatekeeper's log */
	char	 sc_journal_interval[8];
	/* a space's bytes on the engine's disk ("0": unmeasured), how often */
	char	 sc_disk_limit[24];
	char	 sc_disk_sweep[8];
};

/* config.c: pure; "keyword value" lines, see spaced.conf(5) */
void	 config_defaults(struct spaced_conf *, uid_t, const char *runtime_dir,
	    const char *state_dir);
int	 config_parse(const char *buf, size_t len, struct spaced_conf *,
	    char *err, size_t errlen);
/* "trust host": the CA bundles not set are host_ca, when it is usable */
void	 config_trust(struct spaced_conf *, const char *host_ca, int usable);
void	 config_print(const struct spaced_conf *, int fd);
/* SIGHUP: next's live settings into cur; the restart-only ones changed. */
int	 config_reload(struct spaced_conf *cur, const struct spaced_conf *next,
	    char *why, size_t whylen);
/* The space uid range of a checked configuration. */
void	 config_space_uids(const struct spaced_conf *, uint32_t *first,
	    uint32_t *count);
/* Its network pool (host order) and spaces per owner; -1: a bad pool. */
int	 config_space_net(const struct spaced_conf *, uint32_t *base,
	    uint8_t *pool_prefix, uint8_t *prefix);
uint16_t config_spaces_max(const struct spaced_conf *);
/* Its "native accept missing limits" as space_limits.h's set. */
uint8_t	 config_native_accept(const struct spaced_conf *);
int	 config_journal_interval(const struct spaced_conf *);
/*
 * reload.c: the file at start (err: why not) and again on SIGHUP, as
 * spaced-launch opens it (IMSG_LAUNCH_CONF_REP)
 */
int	 config_load(const char *file, int explicit, struct spaced_conf *,
	    char *err, size_t errlen);
const char *config_file(void);
void	 config_reload_signal(void);
void	 config_reload_file(struct imsg *);
/* "config: ..." for spacectl status: as started, reloaded, or why not */
const char *config_reload_state(void);
/* The disk limit in bytes (0: off) and the sweep's seconds. */
uint64_t config_disk_limit(const struct spaced_conf *);
int	 config_disk_sweep(const struct spaced_conf *);
/* config_agent.c: the "agent" lines; named: profiles this file began */
int	 config_agent_line(const char *p, const char *eol,
	    struct spaced_conf *, uint32_t *named, const char **errstr);
int	 config_agent_finish(const struct spaced_conf *, char *err,
	    size_t errlen);
const struct agent_profile *config_agent(const struct spaced_conf *,
	    const char *name);
void	 config_agent_print(const struct spaced_conf *, int fd);

/* workers.c: the children of spaced */
struct child {
	enum procid	 c_id;
	pid_t		 c_pid;
	int		 c_ready;
	char		 c_landlock[LANDLOCK_DESC_MAX];
	struct imsgev	 c_iev;
	/* Its stdout and stderr: a pipe we log from, escaped (workers.c). */
	struct event	 c_logev;
	char		 c_logbuf[512];
	size_t		 c_loglen;
};
extern struct child	 children[PROC_MAX];

void	 workers_start(const struct spaced_conf *, const char *conffile,
	    struct event_base *, const char *libexec, int debug, int verbose,
	    void (*route)(enum procid, struct imsg *));
int	 workers_all_ready(void);
int	 workers_reaped(pid_t, int status);	/* 1: one of them died */
void	 workers_stop(void);
int	 worker_compose(enum procid, uint32_t type, uint32_t peerid, int fd,
	    const void *, size_t);

/* control.c: the control socket, one struct ctl_conn a client */
struct request;
TAILQ_HEAD(request_list, request);
struct ctl_conn {
	TAILQ_ENTRY(ctl_conn)	 cc_entry;
	uint32_t		 cc_id;		/* for logs only */
	uid_t			 cc_uid;
	pid_t			 cc_pid;
	int			 cc_docker;	/* in the docker group */
	int			 cc_closing;	/* close once flushed */
	size_t			 cc_pending;	/* requests in flight */
	size_t			 cc_streams;	/* streams it is an end of */
	struct request_list	 cc_requests;
	struct imsgev		 cc_iev;
	struct event		 cc_idle;
};
/* Root, and the user spaced runs as (a laptop's own spaced). */
#define CTL_ADMIN(cc)	((cc)->cc_uid == 0 || (cc)->cc_uid == geteuid())

/* Who may run an operation: control_may() alone decides. */
enum ctl_who {
	WHO_ANYONE = 0,	/* scoped by the caller's uid */
	WHO_ADMIN,	/* CTL_ADMIN */
	WHO_DOCKER,	/* CTL_ADMIN, or a member of the docker group */
};
/* The docker group's gid, read once at start (before the filter). */
void	 control_docker_group(const char *name);
struct ctl_op;
/* Serve the operations of the table (spaced.c hands ops.c's). */
void	 control_listen(const char *path, struct event_base *,
	    const struct ctl_op *, size_t);
void	 control_close(void);
/* Queue one message to a client; it is closed when it takes too little. */
void	 control_send(struct ctl_conn *, uint32_t type, uint32_t peerid,
	    const void *, size_t);
void	 control_send_fail(struct ctl_conn *, uint32_t peerid,
	    const char *code);
void	 control_fail_close(struct ctl_conn *, uint32_t peerid,
	    const char *code);
/* After output was queued by other means (a forwarded stream message). */
void	 control_output_check(struct ctl_conn *);
/* A request or stream of the client began or ended: idle timer, counts. */
void	 control_busy_changed(struct ctl_conn *);
size_t	 control_clients(void);

/* request.c: the request table; r_id is the peerid of all it sends. */
struct stream_route;
struct request {
	TAILQ_ENTRY(request)	 r_entry;	/* all requests */
	TAILQ_ENTRY(request)	 r_client_entry;
	uint32_t		 r_id;
	struct ctl_conn		*r_cc;
	uid_t			 r_uid;		/* the client's, kept after it left */
	int			 r_own;		/* spaced's own: never a client's */
	uint32_t		 r_peerid;	/* the client's, echoed */
	const struct ctl_op	*r_op;
	uint32_t		 r_waiting;	/* procid bits */
	uint32_t		 r_finishing;	/* giving its final answer now */
	uint32_t		 r_resent;	/* ...and was sent its next step */
	int			 r_answered;	/* END or FAIL sent */
	int			 r_cancelled;	/* workers were told */
	struct event		 r_timer;	/* deadline and progress */
	struct timespec		 r_start;
	/* a pause between two steps (request_pause) */
	struct event		 r_pause;
	void			(*r_pause_fn)(struct request *);
	int			 r_ticks;	/* progress ticks so far */
	int			 r_conns;	/* IMSG_SPACE_CONN sent */
	int			 r_engine;	/* admitted to the engine (place.c) */
	/* create: the place asked for (PROC_DOCKER or PROC_NS), else 0 */
	enum procid		 r_place;
	int			 r_place_default; /* ...by spaced.conf's */
	int			 r_list_pending;	/* places a list waits for */
	int			 r_conns_more;	/* exec -t's resizes */
	/* its spaced-git, and what to send it once READY (gitinst.c) */
	struct git_inst		*r_git;
	uint32_t		 r_git_type;
	struct git_req		 r_git_req;
	int			 r_git_sent;
	/* code out: its space's quarantine, and the step once it is started */
	struct git_inst		*r_qgit;
	void			(*r_qgit_ready)(struct request *);
	/* the streams it owns: [0] the main one, [1] an exec's stdin */
#define REQUEST_STREAMS	4	/* apply: the tip step, base, the space's, the owner's */
	struct stream_route	*r_streams[REQUEST_STREAMS];
	void			*r_state;	/* its operation's own */
	void			*r_heap;	/* an op's own; freed with r */
};

struct request	*request_new(struct ctl_conn *, uint32_t peerid,
		    const struct ctl_op *);
struct request	*request_new_internal(uid_t, const struct ctl_op *);
struct request	*request_find(uint32_t id);
size_t		 request_count(void);
/* Requests admitted to the engine and waiting on it: uid's, or plain ones'. */
size_t		 request_engine_count(uid_t uid, size_t *plain);
void		 request_each(uint32_t, void (*)(struct request *, void *),
		    void *);
struct git_inst;
size_t		 request_ids_of_git(const struct git_inst *, uint32_t *,
		    size_t max);
/* Send to a worker for this request; its final answer becomes due. */
int		 request_send(struct request *, enum procid, uint32_t type,
		    int fd, const void *, size_t);
void		 request_data(struct request *, const void *, size_t);
void		 request_end(struct request *);
void		 request_fail(struct request *, const char *code);
/* A failure spaced itself answers, the way a place's DONE would be. */
void		 request_refuse(struct request *, const char *code,
		    const char *message);
/* fn(r) after ms, unless the request is freed first. */
void		 request_pause(struct request *, int ms,
		    void (*fn)(struct request *));
/* A worker gave its final answer (or acknowledged a cancel). */
void		 request_worker_done(struct request *, enum procid);
/* The client left or the deadline passed: tell the workers. */
void		 request_cancel(struct request *);
void		 request_client_gone(struct ctl_conn *);
/* workers.c hands it every message past READY (spaced.c says so). */
void		 request_route(enum procid, struct imsg *);
/* Every worker's answer: -1 for one the operation does not take. */
int		 request_dispatch(enum procid, struct imsg *);

/* The operations table (ops.c): one row per control request. */
struct answer_row {
	uint32_t	 ar_type;
	uint32_t	 ar_senders;	/* bits of enum procid */
	size_t		 ar_len;	/* exact payload length */
	int		 ar_final;	/* AR_FINAL: the sender's last word */
	void		(*ar_handler)(struct request *, enum procid,
			    struct imsg *);
};
/* Not final, and handled after the client left too: a worker needs it. */
#define AR_FINAL	1
#define AR_ALWAYS	2
struct ctl_op {
	uint32_t		 op_type;
	const char		*op_name;
	size_t			 op_len;	/* exact request payload */
	enum ctl_who		 op_who;
	int			 op_deadline;	/* seconds; 0: none */
	/* NULL when started, else the error code for the client */
	const char		*(*op_start)(struct request *, struct imsg *);
	const struct answer_row	*op_answers;	/* ends with ar_type 0 */
	/* a stream of the request ended at its source */
	void			(*op_stream_end)(struct request *);
	/* The client left: 1 to carry on alone and undo, 0 to cancel. */
	int			(*op_abandon)(struct request *);
	/* r_state's size, from the operation's own file; NULL: none */
	const size_t		*op_state_size;
};
#define PROC_BIT(id)	(1U << (id))
extern const struct ctl_op	 ops_table[];
extern const size_t		 ops_count;

/* streams.c: the stream table, each stream held to its credit window */
struct stream_end_point {
	enum procid		 ep_proc;	/* PROC_MAX: a client */
	struct ctl_conn		*ep_cc;
	/* PROC_GIT: a repository's spaced-git, or NULL: spaced's own */
	struct git_inst		*ep_git;
	int			 ep_gone;	/* that spaced-git ended */
};
/* The three kinds of end. */
#define EP_WORKER(id)	((struct stream_end_point){ .ep_proc = (id) })
#define EP_CLIENT(cc)	((struct stream_end_point){ .ep_proc = PROC_MAX, \
			    .ep_cc = (cc) })
#define EP_GIT(gi)	((struct stream_end_point){ .ep_proc = PROC_GIT, \
			    .ep_git = (gi) })
struct stream_route {
	TAILQ_ENTRY(stream_route) s_entry;
	uint32_t		 s_id;
	struct request		*s_req;
	struct stream_end_point	 s_src, s_dst;
	struct stream_gauge	 s_gauge;
	int			 s_aborted;	/* drop what still comes */
};
struct stream_route *stream_open(struct request *, struct stream_end_point,
		    struct stream_end_point);
void		 stream_close(struct stream_route *);
struct stream_route *stream_find(uint32_t id);
void	 streams_exec_resize(struct ctl_conn *, struct imsg *);
void		 stream_abort(struct stream_route *);
size_t		 stream_count(void);
void		 streams_dispatch(struct stream_end_point, struct imsg *);
/* The spaced-git is gone: its streams end nowhere. */
void		 streams_git_gone(const struct git_inst *);
/* Its channel, or NULL once it is not READY. */
struct imsgev	*gitinst_iev(struct git_inst *);
/* A new id for a request or a stream: never 0, never one in use. */
uint32_t	 spaced_new_id(void);

/* gitinst.c: the spaced-git of each (caller, repository) */
struct git_inst;
/*
 * The request's spaced-git, found or launched, and the first message it
 * gets once READY; NULL, or an error code.
 */
const char	*gitinst_attach(struct request *, const char *dir,
		    uint32_t type, const struct git_req *);
int		 gitinst_compose(struct git_inst *, uint32_t type,
		    uint32_t peerid, const void *, size_t);
/* An answer it gave was a lie: end it once the answer is handled. */
void		 gitinst_distrust(struct git_inst *);
/* It refused a request: start afresh next time, the repository changed. */
void		 gitinst_retire(struct git_inst *);
/*
 * After a refusal: once (*relaunched), for a stale one, a new spaced-git
 * of dir gets the request again (1); else 0.  gitstale.c, above the
 * instances.
 */
int		 gitinst_relaunch(struct request *, const char *code,
		    const char *dir, int *relaunched);
void		 gitinst_launch_dispatch(struct imsg *);
const char	*gitinst_quarantine(struct request *, const char *space,
		    void (*)(struct request *));
/* admin.c's status: the instances, live and waiting (root's eyes). */
void		 gitinst_status(char *, size_t);
/* gitlaunch.c: spaced's word to spaced-launch (gitinst.c decides) */
int		 gitlaunch_start(uint32_t id, uid_t caller, const char *dir,
		    const char *space, int *fd);
void		 gitlaunch_kill(uint32_t id, pid_t);
void		 gitlaunch_qr_remove(const char *space);
/*
 * How it died (gitdeath.c) into how, for its requests' refusal; said
 * in the log, and into detail for the event.  ready: it had said so.
 */
struct launch_exit;
void		 gitlaunch_died(const struct launch_exit *, int ready,
		    uid_t owner, const char *dir, char *how, size_t,
		    char *detail, size_t);
/*
 * Its last words (IMSG_WORKER_FATAL), escaped, into how: kept until its
 * death is known (gitlaunch_died puts them after it), or put after it.
 * 0, or -1 when the message is not one.
 */
int		 gitlaunch_said(struct imsg *, pid_t, int reaped,
		    char how[SPACE_DONE_MESSAGE_MAX]);
/*
 * An instance that died without spaced asking (killed, crashed) is an
 * event, told through this sink (events_emit): gitinst.c is part of the
 * router that events.c calls, so it names no function of events.c.
 */
typedef void	(*gitinst_event_sink)(const char *kind, uid_t owner,
		    const char *space, const char *detail);
void		 gitinst_init(struct event_base *, gitinst_event_sink);
/* disk.c: the sweep of the spaces' disk use */
void		 disk_init(struct event_base *);
/* disk_seen.c: the last sweep's word on each space */
struct disk_seen {
	char		 ds_id[SPACE_ID_SIZE];
	char		 ds_owner[SPACE_OWNER_SIZE];
	uint64_t	 ds_used;
	int		 ds_warned;	/* over 80%, said once */
	int		 ds_over;	/* at its limit */
};
const struct disk_seen *disk_seen_find(const char *id);
void		 disk_seen_set(struct disk_seen *, size_t);
int		 disk_of(const char *id, uint64_t *used, uint64_t *limit,
		    int *over);

/* env.c: spaced's environment, below every other file */
struct spaced_env {
	struct spaced_conf	 env_conf;
	struct event_base	*env_base;
};
struct spaced_env *spaced_env(void);
/* The configuration, with the install id filled in. */
const struct spaced_conf *spaced_config(void);
int	 docker_connect(void);
/* The errno of docker_connect's last failed connect, 0 if none. */
int	 docker_connect_errno(void);
uint64_t peak_rss(void);

/*
 * place.c: what the operations share, below them; it calls the router
 * only.  place_send connects to the engine and sends to the place: NULL,
 * or the error code (nothing was sent), which place_why explains.
 */
struct space_req;
struct space_info;
struct space_done;
const char *place_send(struct request *, uint32_t type, const void *,
	    size_t);
const char *place_why(const char *code);
/* 1 for the codes place_send returns, which place_why explains. */
int	 place_code(const char *code);
/* place_send, and on failure request_refuse with place_why: 0 or -1. */
int	 place_send_or_refuse(struct request *, uint32_t type, const void *,
	    size_t);
void	 space_req_fill(struct request *, struct space_req *, const char *id);
/*
 * The caller's lookup of its space (IMSG_SPACE_SHOW_REQ of sq; with
 * sq_look, the lighter one) before an operation touches it; each of its
 * records goes to place_lookup_record (fatal unless looking), or to
 * place_lookup_info, which gives the space's info (1) to an operation
 * that reads it; its DONE to place_lookup_done (-1: refused).
 */
const char *place_lookup_caller(struct request *, const struct space_req *);
void	 place_lookup_record(struct request *, enum procid, struct imsg *,
	    int looking);
int	 place_lookup_info(struct request *, enum procid, struct imsg *,
	    int looking, struct space_info *);
int	 place_lookup_done(struct request *, enum procid, struct imsg *);
/* The place a space id lives on (a native record, or Docker). */
enum procid place_of(const char *id);
/* create's place when the client named none: spaced.conf's choice. */
enum procid place_default(void);
/*
 * A plain user's spaced has no native place: check's record of it
 * (why, into buf), and the log's warning at start and reload when
 * spaced.conf makes it the default.
 */
void	 place_native_plain(char *buf, size_t len);
/* A refusal's words: what the place said (NULL: place_why's), hinted. */
const char *place_refusal(const struct request *, const char *code,
	    const char *said);
void	 place_default_warn(void);
#define PLACE_BITS	(PROC_BIT(PROC_DOCKER) | PROC_BIT(PROC_NS))
/* The answer row of IMSG_SPACE_CONN_REQ: another engine connection. */
void	 space_conn(struct request *, enum procid, struct imsg *);
/* The place's records, checked (a lie is fatal) and passed on. */
void	 space_info_take(enum procid, struct imsg *, struct space_info *,
	    uid_t);
void	 space_info(struct request *, enum procid, struct imsg *);
void	 space_violation(struct request *, enum procid, struct imsg *);
void	 space_resource(struct request *, enum procid, struct imsg *);
/* A place's DONE, every string terminated and its code valid. */
void	 space_done_take(enum procid, struct imsg *, struct space_done *);
/* Where a space's code came from, kept by the store for its remove. */
int	 space_origin_send(struct request *, uint32_t type, const char *id,
	    uid_t, const char *dir);
/* The default agent's profile; NULL for "none". */
int	 agent_none(void);
const struct agent_profile *agent_profile(void);

/*
 * tools.c: the tools volume.  tools_ensure(r, agent, hold) sends the
 * ensure of the profile's volume ("" the default; hold: r's create or
 * start mounts it next, no prune takes it meanwhile): NULL, or the code
 * (nothing was sent); r then waits for IMSG_TOOLS_DONE, which
 * tools_done_read() checks (-1: a lie).
 */
void		 tools_open(const char *libexec);
const char	*tools_ensure(struct request *, const char *agent, int hold);
struct tools_done;
int		 tools_done_read(struct request *, enum procid, struct imsg *,
		    struct tools_done *);
/* Whether spaced.conf names that agent ("" the default; none is none). */
int		 tools_agent_known(const char *agent);
/* The current key, volume and descriptions for a caller; -1 none. */
int		 tools_current(const char *agent, uid_t,
		    struct ctl_tools_info *);
/* The owner's current volume of every profile: what prunes keep. */
struct tools_keep;
void		 tools_keep_current(uid_t, struct tools_keep *);
/* The default agent's part of a space request for uid; -1 none. */
struct space_agent;
int		 agent_fill(uid_t, struct space_agent *);

/* The operations (a family shares a file): only ops.c names them. */
/* admin.c */
const char	*status_start(struct request *, struct imsg *);
const char	*privileges_start(struct request *, struct imsg *);
const char	*check_start(struct request *, struct imsg *);
const char	*verbose_start(struct request *, struct imsg *);
const char	*probe_start(struct request *, struct imsg *);
const char	*ping_start(struct request *, struct imsg *);
const char	*stream_test_start(struct request *, struct imsg *);
void		 stream_test_ended(struct request *);
extern const struct answer_row status_answers[], check_answers[],
		    probe_answers[], ping_answers[], stream_test_answers[];
extern const size_t status_state_size, stream_test_state_size;
/* space.c: create, list, show, verify, stop, start */
const char	*space_start(struct request *, struct imsg *);
extern const struct answer_row create_answers[], start_answers[],
		    list_answers[], space_answers[];
/* server.c: the chain of the server inside, for space.c and token.c */
int		 agent_abandon(struct request *);
extern const size_t server_state_size;
/* token.c: server and token */
const char	*server_start(struct request *, struct imsg *);
const char	*token_start(struct request *, struct imsg *);
extern const struct answer_row server_answers[], token_answers[];
/* remove.c */
const char	*remove_start(struct request *, struct imsg *);
extern const struct answer_row remove_answers[];
extern const size_t remove_state_size;
/* codeout.c: review and apply; codeout_script.c: the script inside */
extern const char codeout_script[];
const char	*review_start(struct request *, struct imsg *);
const char	*apply_start(struct request *, struct imsg *);
extern const struct answer_row review_answers[];
extern const size_t review_state_size;
/* codeout_kept.c: the last review of each space; who holds its folder */
struct codeout_kept {
	uid_t		 ck_uid;
	char		 ck_id[SPACE_ID_SIZE];
	char		 ck_dir[GIT_DIR_MAX];	/* the top: codeout_kept_top() */
	char		 ck_base[GIT_HEX_SIZE];
	char		 ck_start[GIT_HEX_SIZE];
	char		 ck_tip[GIT_HEX_SIZE];
	uint32_t	 ck_commits, ck_paths;
	char		 ck_flagged[128];
	uint64_t	 ck_order;	/* when kept: a count, not a clock */
};
void	 codeout_kept_set(const struct codeout_kept *);
int	 codeout_kept_find(uid_t, const char *, const char *, const char *,
	    const char *, struct codeout_kept *);
void	 codeout_kept_forget(uid_t, const char *);
void	 codeout_kept_top(const char *, const char *, char *, size_t);
int	 codeout_hold(const char *, uint32_t);
/* exec.c */
const char	*exec_start(struct request *, struct imsg *);
const char	*attach_start(struct request *, struct imsg *);
extern const struct answer_row exec_answers[];
extern const size_t exec_state_size;
/*
 * A remove of uid's space id began (1: its execs end with a word of it)
 * or failed (0: they do not).
 */
void		 exec_space_removed(uid_t, const char *, int);
/* gkctl.c: network and grant */
const char	*network_start(struct request *, struct imsg *);
const char	*grant_start(struct request *, struct imsg *);
extern const struct answer_row gk_answers[];
/* journal.c */
const char	*journal_start(struct request *, struct imsg *);
extern const struct answer_row journal_answers[];
extern const size_t journal_state_size;
/* ops_git.c: files and limits */
const char	*git_files_start(struct request *, struct imsg *);
extern const struct answer_row git_answers[];
extern const size_t git_state_size;
/* codein.c: code-in and history */
const char	*codein_start(struct request *, struct imsg *);
int		 codein_abandon(struct request *);
extern const struct answer_row codein_answers[];
extern const size_t codein_state_size;
/* toolsctl.c: tools and tools-fill */
const char	*tools_list_start(struct request *, struct imsg *);
const char	*tools_fill_start(struct request *, struct imsg *);
extern const struct answer_row tools_list_answers[], tools_fill_answers[];

/*
 * collect.c: spaced-journal follows each space spaced knows of (a
 * create, start, list, show or journal names it): its gatekeeper's log,
 * and its relay's restarts from the space's own stderr into its chain
 * (docs/privsep.md), an event each; collect_then collects a space
 * before a stop or remove goes on with then(r).
 */
void	 collect_init(struct event_base *);
void	 collect_stop(void);
void	 collect_follow(uid_t, const char *id);
void	 collect_forget(uid_t, const char *id);
void	 journal_counts_take(enum procid, struct imsg *,
	    struct journal_counts *);
void	 collect_then(struct request *, const char *id,
	    void (*then)(struct request *));
/* A create waits for its server: its restarts now, not at its turn. */
void	 collect_restarts_now(uid_t, const char *id);

/*
 * events.c: spacectl events.  events_emit(kind, owner, space, detail)
 * records one event for the space's owner (uid_t -1: spaced's own, seen
 * by root alone) and sends it to each follower who may see it; space
 * and detail may be NULL.  Kinds in use: create, start, stop, remove,
 * verify-failed, reload, reload-failed, restart (the relay started the
 * agent's server again: collect.c); code out adds review and apply;
 * gitinst.c worker-died (through its sink).  It never blocks and never
 * fails.
 */
void	 events_emit(const char *kind, uid_t owner, const char *space,
	    const char *detail);

/*
 * restarts_seen.c: the journal's last count a space, for show (0 when
 * not collected yet); collect.c sets it.
 */
void	 restarts_seen_set(uid_t, const char *id, uint64_t);
void	 restarts_seen_forget(uid_t, const char *id);
int	 restarts_of(uid_t, const char *id, uint64_t *n);
const char *events_start(struct request *, struct imsg *);
extern const struct answer_row events_answers[];

/* audit.c: the privileges table, read from /proc */
int	 audit_process(const char *name, pid_t, const char *landlock,
	    struct ctl_privileges *);
/* the root directory of a worker, read now, while spaced still may */
void	 audit_note_root(pid_t);
/* audit_parse.c: pure parse of /proc/<pid>/status text */
int	 audit_parse_status(const char *buf, size_t len,
	    struct ctl_privileges *);

/* kmsg.c: why a child died of SIGSYS, from the kernel's audit line */
void	 kmsg_open(void);
/* service.c: systemd's readiness protocol, when it runs spaced */
int	 service_managed(void);
void	 service_notify(const char *state);
void	 kmsg_seccomp_syscall(pid_t, char *buf, size_t len);
int	 kmsg_parse_seccomp(const char *line, size_t len, pid_t pid,
	    long *syscall);

/* runtime.c: spaced-relay and the space CA bundle, for spaced-docker */
void	 runtime_open(const char *libexec);
void	 runtime_send(void);
/* 16 lowercase hex, or "" when the relay could not be read. */
const char *runtime_key(void);
/* The hosts file's real path, or "" when it is missing or not ours. */
const char *runtime_hosts(void);
const char *runtime_file_why(int, const char *);
/* Pure: the key of the relay on fd and the bundle on ca_fd (or -1). */
int	 runtime_hash(int fd, int ca_fd, char key[RUNTIME_KEY_LEN + 1],
	    uint64_t *size, uint64_t *ca_size);

/* sandbox.c: spaced's filter, the fixed part and what start adds */
extern const struct sandbox_spec spaced_sandbox;
#define SPACED_SB_PROCS	(PROC_MAX + 1)	/* its workers and itself */
struct spaced_sandbox {
	struct sandbox_spec	 ss_spec;
	struct sandbox_arg_rule	 ss_args[2];
	/* its /proc ones, the socket's folder, the configuration, the end */
	struct sandbox_path	 ss_paths[SPACED_SB_PROCS + 3];
	char			 ss_proc[SPACED_SB_PROCS][24];
	char			 ss_sockdir[PATH_MAX];
};
/*
 * Pure: spaced_sandbox plus kill of pids, reads of their /proc and of
 * self's, file removal beside the control socket.
 */
void	 spaced_sandbox_build(struct spaced_sandbox *, const pid_t *pids,
	    size_t npids, pid_t self, const char *socket_path);
/* The capabilities root spaced keeps once it serves. */
uint64_t spaced_caps_keep(void);

/* privdrop.c: drop capabilities, then enter the filter; once, at start */
void	 spaced_privdrop(const struct spaced_conf *);
/* What Landlock does to spaced, for the audit table. */
const char *spaced_landlock(void);

#endif /* SPACED_H */
