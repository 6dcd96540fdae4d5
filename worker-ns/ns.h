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

#ifndef SPACED_NS_H
#define SPACED_NS_H

/*
 * spaced-ns, the native place: spaces as process trees in namespaces of
 * their own, their gatekeepers as confined processes beside them.  It
 * never talks to Docker or opens a repository.
 */

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>

#include <event.h>

#include "imsg.h"
#include "labels.h"
#include "log.h"
#include "place_proto.h"
#include "space_agent.h"

#define NS_SPACE_UID		10000	/* inside, as in the Docker place */
#define NS_UID_BASE		0x50000000U	/* host uids of spaces */
#define NS_GK_UID_BASE		0x51000000U	/* host uids of gatekeepers */
#define NS_PIDS_MAX		512
#define NS_GK_MEMORY		(256ULL << 20)
#define NS_GK_PIDS_MAX		64
#define NS_MEMORY_DEFAULT	(4ULL << 30)
#define NS_CPUS_DEFAULT		2000000000LL	/* NanoCpus */
#define NS_TMP_OPTS		"size=256m,mode=1777"
#define NS_GK_CTLDIR		"/tmp"	/* its control.sock, 0600, private */
#define NS_GK_LOG_MAX		(10LL << 20)	/* gk.log, as Docker's cap */
#define NS_GK_LOG_FILES		5	/* gk.log and gk.log.1 to .4 */
#define NS_GK_ERR_MAX		(1LL << 20)	/* gk.err: its own warnings */
#define NS_GK_ERR_FILES		2	/* gk.err and gk.err.1 */
#define NS_RELAY_ERR_MAX	(1LL << 20)	/* relay.err: its restarts */
#define NS_RELAY_ERR_FILES	2	/* relay.err and relay.err.1 */
#define NS_CGROOT		"/sys/fs/cgroup"
#define NS_CGNAME		"spaced-ns"

/* One space's record under the state directory, and what runs of it. */
struct ns_space {
	char		 ns_id[SPACE_ID_SIZE];
	char		 ns_owner[SPACE_OWNER_SIZE];
	char		 ns_name[SPACE_NAME_MAX + 1];
	char		 ns_project[SPACE_PROJECT_LEN + 1];
	char		 ns_created[SPACE_CREATED_LEN + 1];
	uint64_t	 ns_memory;
	int64_t		 ns_cpus;
	uint32_t	 ns_port;	/* CONTROL_PORT: checked, never listened on */
	uid_t		 ns_uid;	/* host uid of the space user */
	uid_t		 ns_gk_uid;	/* host uid of its gatekeeper */
};

/* ns_record.c */
const char	*ns_state(void);
int		 ns_path(char *, size_t, const char *id, const char *leaf);
int		 ns_record_read(const char *id, struct ns_space *);
int		 ns_record_write(const struct ns_space *);
int		 ns_record_remove(const char *id);
/* after the name in /proc/PID/stat: the keeper and the pid files */
char		*ns_proc_stat(pid_t, char *, size_t);
pid_t		 ns_pid_read(const char *id, const char *leaf);
int		 ns_pid_write(const char *id, const char *leaf, pid_t);
void		 ns_pid_forget(const char *id, const char *leaf);
int		 ns_rm_tree(const char *path);

/* ns_cgroup.c: a group's limits, and those (space_limits.h) it goes without */
struct ns_cglimits {
	uint64_t	 cl_memory;
	int64_t		 cl_cpus;	/* CPUs * 1e9 */
	uint32_t	 cl_pids;
	uint8_t		 cl_skip;
};
int		 ns_cgroup_make(const char *name, const struct ns_cglimits *,
		    char *missing, size_t len);
int		 ns_cgroup_join(const char *name, pid_t);
int		 ns_cgroup_enter(const char *name, const struct ns_cglimits *,
		    pid_t, char *err, size_t len);
int		 ns_cgroup_kill(const char *name);
void		 ns_cgroup_remove(const char *name);
void		 ns_cgroup_sweep(void);
int		 ns_cgroup_check(const char *name, const struct ns_cglimits *,
		    char *why, size_t len);
uint8_t		 ns_cgroup_absent(const char *name);
void		 ns_cgroup_events(const char *name, uint64_t *oom,
		    uint64_t *forks);
uint8_t		 ns_limits_absent(void);
const char	*ns_limit_first(uint8_t);
const char	*ns_limits_missing(void);

/* What a space's pid 1 is started with beside its record. */
struct ns_launch {
	const char		*nl_hosts;	/* bound at /etc/hosts */
	const char		*nl_tools;	/* host folder, or NULL */
	int			 nl_tools_rw;	/* the fill's one-shot only */
	const char		*nl_tmp;	/* /tmp's options */
	const struct space_agent *nl_agent;	/* NULL: the relay idles */
	uint8_t			 nl_accept;	/* missing limits accepted */
	uint8_t			 nl_restarts;	/* the relay's stderr kept */
};

/* ns_space.c: the space's pid 1, and a command inside it */
pid_t		 ns_space_launch(const struct ns_space *,
		    const struct ns_launch *, const struct ns_cglimits *,
		    char *err, size_t errlen);
pid_t		 ns_gk_launch(const struct ns_space *,
		    const struct ns_cglimits *, char *err, size_t errlen);
/* exec -t: the socket the command sends its pty's master on */
struct ns_tty {
	int		 sock;
	uint16_t	 rows;
	uint16_t	 cols;
};
pid_t		 ns_enter_exec(const struct ns_space *, int target,
		    pid_t target_pid, char *const argv[], int fds[3],
		    const struct ns_tty *);
int		 ns_enter_ns(int target, int pidfd, const char **what);
int		 ns_pidfd(pid_t);
__dead void	 ns_command(const struct ns_space *, int target,
		    char *const argv[], int life, const struct ns_tty *);
/* ns_keeper.c: a space's command's parent, which can end all of it */
__dead void	 ns_keeper(const struct ns_space *, char *const argv[],
		    int life, const struct ns_tty *, const sigset_t *mask);
void		 ns_close_others(int, int, int);
void		 ns_close_all_but(int *, size_t);
int		 ns_null_stdio(void);
const char	*ns_probe(char *err, size_t errlen);
/* Why the native place is absent here; then ns_probe says it. */
void		 ns_unavailable_set(const char *);
void		 ns_libexec_set(const char *);

/* ns_mount.c: in a child's new mount namespace */
int		 ns_mkdirs(const char *root, const char *path, mode_t);
int		 ns_bind(const char *root, const char *src, const char *dst,
		    int rw, int optional);
int		 ns_tmpfs(const char *root, const char *dst, const char *opts,
		    unsigned long flags);
int		 ns_write_file(const char *root, const char *path,
		    const char *text);
int		 ns_dev_fill(const char *root);
int		 ns_pivot(const char *root);
int		 ns_binds_system(const char *root);
int		 ns_binds_gatekeeper(const char *root);

/* ns_filter.c */
int		 ns_filter_space(void);
void		 ns_filter_worker(void);

/* ns_ops.c: a space's processes, for the tools' one-shot too */
int		 ns_space_run(const struct ns_space *, const struct ns_launch *,
		    char *err, size_t len);
int		 ns_end_all(const char *id);
int		 ns_make_dir(const char *id, const char *leaf, uid_t owner,
		    mode_t);
int		 ns_space_new(struct ns_space *, uint64_t memory);
/* ns_tools.c: the agent's tools, <state>/tools/<volume> */
#define NS_TOOLS_DIR		"tools"
#define NS_FILL_MEMORY		(2ULL << 30)	/* as the filler container */
#define NS_FILL_TMP		"size=1g,mode=1777"
#define NS_FILL_REGISTRY	"registry.npmjs.org"
void		 ns_tools_ensure(uint32_t peerid, struct imsg *);
void		 ns_tools_file(uint32_t peerid, struct imsg *);
void		 ns_tools_base(struct event_base *);
void		 ns_tools_list(uint32_t peerid, struct imsg *);
/* ns_own.c: a filled tools tree made root's, no link followed */
int		 ns_own_mode(const char *path);
int		 ns_own_tree(const char *dir);
/* ns_prune.c: the owner's folders no profile uses, none mounted */
struct tools_keep;
int		 ns_tools_prune(const char *volume, const char *key,
		    const struct tools_keep *);
/* ns_agent.c: the tools' folder of a volume name, the token */
int		 ns_tools_path(char *, size_t, const char *volume);
int		 ns_stdin_fds(int out, int fds[3], int *in);
int		 ns_run_stdin(const struct ns_space *, int target, pid_t,
		    char *const argv[], const char *in, size_t len);
int		 ns_token_write(const struct ns_space *, pid_t,
		    const char *token);

/* ns_ops.c and ns_exec.c */
void		 ns_reply(uint32_t type, uint32_t peerid, const void *,
		    size_t);
void		 ns_done(uint32_t peerid, const char *code, const char *msg,
		    int exit_code);
struct imsgev	*ns_channel(void);
void		 ns_channel_set(struct imsgev *);
void		 ns_op(uint32_t type, uint32_t peerid, struct imsg *);
void		 ns_exec_start(uint32_t peerid, struct imsg *);
int		 ns_exec_cancel(uint32_t peerid);
void		 ns_exec_base(struct event_base *);
/* ns_logs.c: the gatekeeper's journal lines, for spaced-journal */
void		 ns_logs_start(uint32_t peerid, struct imsg *);
void		 ns_sweep(void);
int		 ns_alive(const char *id, const char *leaf);
/* ns_disk.c: the disk sweep's records */
void		 ns_disk(uint32_t peerid, struct imsg *);
void		 ns_reap(void);
extern const char *const ns_space_env[];
/* ns_gklog.c: the gatekeeper's stdout into gk.log, turned over */
void		 ns_gklog_base(struct event_base *);
int		 ns_gklog_open(const char *id, uid_t);
int		 ns_gkerr_open(const char *id, uid_t);
int		 ns_relayerr_open(const char *id);
/* Pure: the time of a relay.err line, after more of the same read. */
struct timespec;
void		 ns_stamp_next(struct timespec *last, const struct timespec *now,
		    size_t after, struct timespec *);
off_t		 ns_gklog_since(const char *id, dev_t, ino_t, uint32_t since);
/* ns_helper.c: a space's commands, forked by a process kept inside */
void		 ns_helper_base(struct event_base *);
void		 ns_helper_prepare(const struct ns_space *);
void		 ns_helper_end(const char *id);
void		 ns_helper_spawn(const struct ns_space *, pid_t init);
int		 ns_helper_exec(const struct ns_space *, pid_t init,
		    char *const argv[], int fds[3], const struct ns_tty *,
		    void (*ended)(void *, int), void *arg, uint32_t *token,
		    char *err, size_t errlen);
void		 ns_helper_kill(uint32_t token);
void		 ns_helper_forget(uint32_t token);
ssize_t		 ns_helper_recv(int sock, void *buf, size_t len, int *fds,
		    int max, int *nfds);
/* ns_tty.c: exec -t */
char		**ns_tty_env(const char *const *);
int		 ns_tty_inner(const struct ns_tty *);
int		 ns_tty_master(int sock);
int		 ns_tty_resize(int ptm, uint16_t rows, uint16_t cols);
void		 ns_exec_resize(uint32_t peerid, uint16_t rows,
		    uint16_t cols);

#endif /* SPACED_NS_H */
