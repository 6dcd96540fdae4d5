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

/*
 * spaced-relay: the command of a space.  It listens on the loopback
 * ports of the corridor and the window, starts the space's command,
 * confines itself and carries each connection to the gatekeeper's
 * sockets; it exits with the child's status.  It holds nothing the
 * agent lacks, so an agent that kills it only cuts itself off.
 */

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "relay.h"
#include "relay_exec.h"

static __dead void
usage(void)
{
	fprintf(stderr, "usage: spaced-relay [-d sockdir] [-w workdir] -- "
	    "command [arg ...]\n");
	exit(2);
}

/* -1 with errno when the address is not there (no IPv6); fatal otherwise. */
static int
relay_listen(int family, int port)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t		 len;
	int			 s, one = 1, saved;

	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		sin6->sin6_addr = in6addr_loopback;
		len = sizeof(*sin6);
	}
	if ((s = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == -1)
		fatal("SO_REUSEADDR");
	if (family == AF_INET6 && setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY,
	    &one, sizeof(one)) == -1)
		fatal("IPV6_V6ONLY");
	if (bind(s, (struct sockaddr *)&ss, len) == -1 ||
	    listen(s, SOMAXCONN) == -1) {
		saved = errno;
		close(s);
		errno = saved;
		return -1;
	}
	return s;
}

static void
relay_listen_all(struct relay_config *cf)
{
	static const struct {
		int		 port;
		enum relay_target target;
	} ports[] = {
		{ RELAY_CORRIDOR_PORT, RELAY_CORRIDOR },
		{ RELAY_WINDOW_PORT, RELAY_WINDOW },
	};
	size_t	 i;
	int	 fd, v6 = 1;

	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		if ((fd = relay_listen(AF_INET, ports[i].port)) == -1)
			fatal("127.0.0.1:%d", ports[i].port);
		cf->rc_listen[cf->rc_nlisten].rl_kind = RELAY_EV_LISTENER;
		cf->rc_listen[cf->rc_nlisten].rl_fd = fd;
		cf->rc_listen[cf->rc_nlisten++].rl_target = ports[i].target;
		if (!v6)
			continue;
		if ((fd = relay_listen(AF_INET6, ports[i].port)) == -1) {
			/* IPv6 off in the container: IPv4 is enough. */
			if (errno != EAFNOSUPPORT && errno != EADDRNOTAVAIL)
				fatal("[::1]:%d", ports[i].port);
			log_warn("[::1]:%d, IPv4 only", ports[i].port);
			v6 = 0;
			continue;
		}
		cf->rc_listen[cf->rc_nlisten].rl_kind = RELAY_EV_LISTENER;
		cf->rc_listen[cf->rc_nlisten].rl_fd = fd;
		cf->rc_listen[cf->rc_nlisten++].rl_target = ports[i].target;
	}
}

/* Room for the cap's fds, within the hard limit; the cap shrinks to fit. */
static void
relay_fd_budget(struct relay_config *cf, struct relay_inherit *ri)
{
	struct rlimit	 rl;
	rlim_t		 need = (rlim_t)RELAY_CONN_CAP * RELAY_FDS_PER_CONN +
			    RELAY_FDS_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &ri->ri_nofile) == -1)
		fatal("getrlimit");
	rl = ri->ri_nofile;
	if (rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			fatal("setrlimit");
	}
	cf->rc_cap = relay_conn_cap(rl.rlim_cur, RELAY_CONN_CAP);
	if (cf->rc_cap < RELAY_CONN_CAP)
		log_warnx("open files limit %llu: %d connections at most",
		    (unsigned long long)rl.rlim_cur, cf->rc_cap);
}

/*
 * Handlers for SIGCHLD and the signals passed on, all blocked but while
 * the loop waits (waitmask); SIGPIPE ignored, since a splice into a
 * closed socket raises it.  The old state is kept for the child.
 */
static void
relay_signals_init(struct relay_inherit *ri, sigset_t *waitmask)
{
	struct sigaction	 sa;
	sigset_t		 block;
	int			 i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = relay_on_signal;
	sigfillset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	for (i = 0; relay_fwd_sigs[i] != 0; i++)
		sigaddset(&block, relay_fwd_sigs[i]);
	if (sigprocmask(SIG_BLOCK, &block, &ri->ri_mask) == -1)
		fatal("sigprocmask");
	*waitmask = ri->ri_mask;
	sigdelset(waitmask, SIGCHLD);
	for (i = 0; relay_fwd_sigs[i] != 0; i++) {
		sigdelset(waitmask, relay_fwd_sigs[i]);
		if (sigaction(relay_fwd_sigs[i], &sa, &ri->ri_fwd[i]) == -1)
			fatal("sigaction");
	}
	if (sigaction(SIGCHLD, &sa, &ri->ri_chld) == -1)
		fatal("sigaction");
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGPIPE, &sa, &ri->ri_pipe) == -1)
		fatal("sigaction");
}

int
main(int argc, char *argv[])
{
	struct relay_config	 cf;
	struct relay_inherit	 ri;
	sigset_t		 waitmask;
	const char		*sockdir = RELAY_SOCKDIR, *workdir = NULL;
	int			 ch, gate[2];

	log_init(1, LOG_DAEMON);
	log_procinit("spaced-relay");
	/* A space's exec: its command under a subreaper (relay_exec.h). */
	if (relay_is_exec(argc, argv))
		relay_exec(argv + RELAY_EXEC_ARGS);
	/* Run as the server's $SHELL: a command of the agent's. */
	if (relay_is_shell(argc, argv))
		relay_shell(argv);

	/* '+': the command's own options are not ours. */
	while ((ch = getopt(argc, argv, "+d:w:")) != -1) {
		switch (ch) {
		case 'd':
			sockdir = optarg;
			break;
		case 'w':
			workdir = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || strcmp(argv[-1], "--") != 0)
		usage();

	memset(&cf, 0, sizeof(cf));
	if (relay_target_path(&cf.rc_target[RELAY_CORRIDOR], sockdir,
	    "corridor.sock") == -1 ||
	    relay_target_path(&cf.rc_target[RELAY_WINDOW], sockdir,
	    "window.sock") == -1)
		fatal("socket folder %s", sockdir);

	/*
	 * The space's folder in its work volume, as the space user: made
	 * here, before anything listens, rather than by a copy into the
	 * container from the host, which costs the engine a process.
	 */
	if (workdir != NULL && mkdir(workdir, 0755) == -1 && errno != EEXIST)
		fatal("%s", workdir);

	relay_fd_budget(&cf, &ri);
	relay_signals_init(&ri, &waitmask);
	/* Every listener is up before the command runs: no race. */
	relay_listen_all(&cf);

	/*
	 * Not dumpable, nor the keeper forked below: the agent (the same
	 * uid) cannot open their fds through /proc, so the container's
	 * stderr, where the keeper says each restart, is not the agent's
	 * to write by that way (docs/privsep.md).  The server's exec makes
	 * it dumpable again, as any program.
	 */
	if (prctl(PR_SET_DUMPABLE, 0) == -1)
		fatal("PR_SET_DUMPABLE");
	if (pipe2(gate, O_CLOEXEC) == -1)
		fatal("pipe2");
	switch (cf.rc_child = fork()) {
	case -1:
		fatal("fork");
	case 0:
		close(gate[1]);
		keeper_run(argv, &ri, gate[0]);
	}
	close(gate[0]);

	sandbox_enter(&relay_sandbox_spec);
	if (write(gate[1], "c", 1) != 1)
		fatal("child gate");
	close(gate[1]);

	return relay_serve(&cf, &waitmask);
}
