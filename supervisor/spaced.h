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

#include "imsg.h"
#include "proc.h"

#define SPACED_CONF_ROOT	"/etc/spaced.conf"
#define SPACED_SOCK_ROOT	"/run/spaced/spaced.sock"
#define SPACED_DOCKER_SOCK	"/var/run/docker.sock"
#define SPACED_STORE_ROOT	"/var/lib/spaced/journal"
#define SPACED_EMPTY_ROOT	"/var/lib/spaced/empty"

struct spaced_conf {
	char	 sc_socket[PATH_MAX];		/* control socket */
	char	 sc_docker_socket[PATH_MAX];	/* the Engine's unix socket */
	char	 sc_store[PATH_MAX];		/* journal store */
	char	 sc_empty[PATH_MAX];		/* chroot of the workers */
};

/* config.c: pure; "keyword value" lines, see spaced.conf(5) */
void	 config_defaults(struct spaced_conf *, uid_t, const char *runtime_dir,
	    const char *state_dir);
int	 config_parse(const char *buf, size_t len, struct spaced_conf *,
	    char *err, size_t errlen);
void	 config_print(const struct spaced_conf *, int fd);

/* workers.c: the children of spaced */
struct child {
	enum procid	 c_id;
	pid_t		 c_pid;
	int		 c_ready;
	char		 c_landlock[LANDLOCK_DESC_MAX];
	struct imsgev	 c_iev;
};
extern struct child	 children[PROC_MAX];

void	 workers_start(const struct spaced_conf *, struct event_base *,
	    const char *libexec, int debug, int verbose);
int	 workers_all_ready(void);
void	 workers_reaped(pid_t, int status);	/* from SIGCHLD */
void	 workers_stop(void);
int	 worker_compose(enum procid, uint32_t type, uint32_t peerid, int fd,
	    const void *, size_t);
/* spaced.c: a message from a worker that is not the worker layer's */
void	 spaced_dispatch_worker(enum procid, struct imsg *);

/* control.c: the control socket */
void	 control_listen(const char *path, struct event_base *);
void	 control_close(void);
/* answer to the control client whose connection id is peerid */
void	 control_answer(uint32_t peerid, uint32_t type, const void *, size_t);
void	 control_end(uint32_t peerid);
void	 control_fail(uint32_t peerid, const char *code);

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
void	 kmsg_seccomp_syscall(pid_t, char *buf, size_t len);
int	 kmsg_parse_seccomp(const char *line, size_t len, pid_t pid,
	    long *syscall);

/* spaced.c */
int	 docker_connect(void);

/* relay.c: streams between workers */
const char *relay_stream_test(uint32_t ctl_id, const struct stream_test_msg *);
void	 relay_dispatch(enum procid, struct imsg *);

/* sandbox.c: spaced's filter, the fixed part and what start adds */
extern const struct sandbox_spec spaced_sandbox;
#define SPACED_SB_PROCS	(PROC_MAX + 1)	/* its workers and itself */
struct spaced_sandbox {
	struct sandbox_spec	 ss_spec;
	struct sandbox_arg_rule	 ss_args[2];
	struct sandbox_path	 ss_paths[SPACED_SB_PROCS + 2];
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
