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

#ifndef SPACED_RELAY_H
#define SPACED_RELAY_H

#include <sys/types.h>
#include <sys/un.h>

#include <sys/resource.h>

#include <signal.h>

#include "sandbox.h"

#define RELAY_SOCKDIR		"/run/spaced"
#define RELAY_CORRIDOR_PORT	3128
#define RELAY_WINDOW_PORT	8080

/*
 * Connections carried at once, both listeners together.  Above the
 * gatekeeper's own caps (corridor 128 + window 64, each with its
 * journal record when it refuses), so the gatekeeper, not the relay,
 * is where a space meets its limit; the cap here only bounds what a
 * flood costs the relay: 6 fds (two sockets, two pipes) and at most
 * two pipe buffers (64 KiB each) per connection.
 */
#define RELAY_CONN_CAP		256
#define RELAY_FDS_PER_CONN	6
#define RELAY_FDS_SPARE		16	/* std fds, listeners, epoll */
/* A side that outlived its peer's reset flushes for this long at most. */
#define RELAY_LINGER_SEC	10

enum relay_target {
	RELAY_CORRIDOR = 0,
	RELAY_WINDOW,
	RELAY_TARGET_MAX
};

/* The first member of what an epoll event points at. */
#define RELAY_EV_LISTENER	1
#define RELAY_EV_SIDE		2

struct relay_listener {
	int			 rl_kind;	/* RELAY_EV_LISTENER */
	int			 rl_fd;
	enum relay_target	 rl_target;
};

#define RELAY_LISTENERS_MAX	4	/* two ports on 127.0.0.1 and ::1 */

struct relay_config {
	struct sockaddr_un	 rc_target[RELAY_TARGET_MAX];
	struct relay_listener	 rc_listen[RELAY_LISTENERS_MAX];
	int			 rc_nlisten;
	int			 rc_cap;
	pid_t			 rc_child;
};

/* What the oom killer sees of the agent's commands: the first victims. */
#define RELAY_OOM_COMMAND	"1000"
/* The server's share of the space's pids (1/8), kept from its commands. */
#define RELAY_PIDS_RESERVE	8
#define RELAY_PIDS_MIN		32	/* below this, no cap: nothing to share */
/* A server that lived this long starts again at once; else the backoff doubles. */
#define RELAY_BACKOFF_RESET	60
#define RELAY_BACKOFF_MAX	30	/* seconds */
#define RELAY_FWD_SIGS_MAX	8	/* relay_fwd_sigs, its 0 included */

/* Passed on to the child, 0 ended (keeper.c). */
extern const int relay_fwd_sigs[RELAY_FWD_SIGS_MAX];

/* What the child gets back before exec: the relay's inheritance. */
struct relay_inherit {
	sigset_t		 ri_mask;
	struct sigaction	 ri_fwd[RELAY_FWD_SIGS_MAX];
	struct sigaction	 ri_chld;
	struct sigaction	 ri_pipe;
	struct rlimit		 ri_nofile;
};

/* relay_parse.c: pure. */
int	 relay_target_path(struct sockaddr_un *, const char *sockdir,
	    const char *name);
int	 relay_conn_cap(unsigned long long nofile_max, int want);
int	 relay_exit_code(int status);
int	 relay_should_restart(int status);
unsigned int relay_backoff(unsigned int prev, long lived);
int	 relay_stop_signal(int sig);
int	 relay_is_shell(int argc, char *const *argv);
int	 relay_is_exec(int argc, char *const *argv);
long long relay_command_nproc(const char *pids_max);
void	 relay_server_name(char *const *argv, char *, size_t);
int	 relay_restart_line(char *, size_t, unsigned int n, const char *what,
	    int status, int fork_errno, unsigned int backoff);

/* keeper.c: the server's keeper and the agent's shell. */
void	 keeper_run(char **argv, const struct relay_inherit *, int gate)
	    __attribute__((__noreturn__));
void	 relay_shell(char **argv) __attribute__((__noreturn__));
/* subreaper.c: a space's exec, the command's argv after "--". */
void	 relay_exec(char **argv) __attribute__((__noreturn__));

int	 relay_serve(struct relay_config *, const sigset_t *waitmask);
/* The handler of SIGCHLD and of every signal passed on to the child. */
void	 relay_on_signal(int);

/* sandbox.c */
extern const struct sandbox_spec relay_sandbox_spec;

#endif /* SPACED_RELAY_H */
