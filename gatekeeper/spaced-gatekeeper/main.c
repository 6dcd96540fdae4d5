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

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/dns.h>
#include <event2/listener.h>

#include "log.h"
#include "sandbox.h"
#include "gatekeeper.h"

/*
 * spaced-gatekeeper [-u SOCKDIR] [-k CTLDIR] BIND CORRIDOR_PORT
 *     WINDOW_PORT CONTROL_PORT [WINDOW_DEADLINE_MS [CORRIDOR_CAP WINDOW_CAP
 *     CONTROL_CAP]]
 * spaced-gatekeeper -C METHOD PATH [-p CONTROL_PORT | -k CTLDIR]
 *     [-t SECONDS]
 *
 * Every argument is a length or a place; none weakens a rule.  Bad
 * arguments end the program with 2, a listener that cannot bind with 1.
 * With -u the corridor and the window listen on SOCKDIR/corridor.sock
 * and SOCKDIR/window.sock and on no TCP port: BIND and their ports are
 * still checked, and still what the window refuses as its own.
 * Control is 127.0.0.1:CONTROL_PORT, or with -k CTLDIR/control.sock,
 * mode 0600, and no port: the native place's gatekeeper shares the
 * host's network, where any local user could reach a loopback port.
 * -C is the control channel's client (client.c).
 */

static __dead void
usage(const char *why)
{
	log_warnx("%s", why);
	log_warnx("usage: spaced-gatekeeper [-a NAME ...] [-u SOCKDIR] "
	    "[-k CTLDIR] BIND "
	    "CORRIDOR_PORT WINDOW_PORT CONTROL_PORT [WINDOW_DEADLINE_MS "
	    "[CORRIDOR_CAP WINDOW_CAP CONTROL_CAP]]");
	log_warnx("usage: spaced-gatekeeper -C METHOD PATH [-p CONTROL_PORT | "
	    "-k CTLDIR] [-t SECONDS]");
	exit(2);
}

/*
 * -a NAME: a name on the allowlist from the start, before any control
 * request.  The tools filler's gatekeeper is started with the registry
 * alone (docs/privsep.md): no control call is needed, and none races.
 */
#define GK_START_NAMES_MAX	8
static void
allow_at_start(const char *in)
{
	struct gk_allowlist	*al = &gk->gk_allow;
	char			 name[GK_NAME_MAX + 1];
	char			**v;

	if (al->al_count >= GK_START_NAMES_MAX)
		usage("too many -a");
	if (gk_name_normalize(in, strlen(in), name, sizeof(name)) == -1)
		usage("-a NAME is not a name");
	if ((v = reallocarray(al->al_names, al->al_count + 1,
	    sizeof(*v))) == NULL || (v[al->al_count] = strdup(name)) == NULL)
		fatal("%s", __func__);
	al->al_names = v;
	al->al_count++;
	gk_allowlist_sort(al);
}

static long long
number(const char *s, long long min, long long max, const char *what)
{
	const char	*errstr;
	long long	 v;
	char		 msg[128];

	v = strtonum(s, min, max, &errstr);
	if (errstr != NULL) {
		snprintf(msg, sizeof(msg), "%s is %s", what, errstr);
		usage(msg);
	}
	return v;
}

/* BIND: one address of one interface, or a file holding it. */
static void
parse_bind(const char *arg, struct sockaddr_storage *ss, socklen_t *len)
{
	char			 buf[INET6_ADDRSTRLEN + 8], *p, *e;
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;
	ssize_t			 n;
	int			 fd;

	if (arg[0] == '/') {
		if ((fd = open(arg, O_RDONLY | O_CLOEXEC)) == -1)
			usage("BIND file cannot be read");
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			usage("BIND file is empty");
		buf[n] = '\0';
	} else if (strlcpy(buf, arg, sizeof(buf)) >= sizeof(buf))
		usage("BIND is not an address");
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	for (e = p + strlen(p); e > p && (e[-1] == ' ' || e[-1] == '\t' ||
	    e[-1] == '\n' || e[-1] == '\r'); e--)
		;
	*e = '\0';
	if (*p == '\0')
		usage("BIND is empty");
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, p, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		*len = sizeof(*sin);
		/* Every interface would include the user's own machine. */
		if (sin->sin_addr.s_addr == htonl(INADDR_ANY))
			usage("BIND must be one interface's address, not 0.0.0.0");
	} else if (inet_pton(AF_INET6, p, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		*len = sizeof(*sin6);
		if (IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr))
			usage("BIND must be one interface's address, not ::");
	} else
		usage("BIND is not an address");
}

static void
set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static void
listener_resume(evutil_socket_t fd, short ev, void *arg)
{
	evconnlistener_enable(arg);
}

static void
listener_error(struct evconnlistener *l, void *arg)
{
	struct timeval	 tv = { 1, 0 };
	int		 err = EVUTIL_SOCKET_ERROR();

	if (err == EMFILE || err == ENFILE || err == ENOBUFS ||
	    err == ENOMEM) {
		/* Out of descriptors: back off a second instead of spinning. */
		log_warnx("listener: out of resources, pausing");
		evconnlistener_disable(l);
		event_base_once(gk->gk_base, -1, EV_TIMEOUT, listener_resume, l,
		    &tv);
	}
}

static struct evconnlistener *
listen_on(struct sockaddr_storage *ss, socklen_t len, evconnlistener_cb cb,
    const char *what)
{
	struct evconnlistener	*l;

	l = evconnlistener_new_bind(gk->gk_base, cb, NULL,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
	    128, (struct sockaddr *)ss, (int)len);
	if (l == NULL)
		fatal("%s: cannot listen", what);
	evconnlistener_set_error_cb(l, listener_error);
	return l;
}

/*
 * What may stand at a socket's name before we make it: nothing, or a
 * socket (an earlier run of this gatekeeper left it; the volume
 * outlives the container).  Anything else is not ours to remove.
 */
static int
unix_stale(const char *path)
{
	struct stat	 st;

	if (lstat(path, &st) == -1) {
		if (errno == ENOENT)
			return 0;
		fatal("%s", path);
	}
	if (!S_ISSOCK(st.st_mode))
		fatalx("%s exists and is not a socket", path);
	return 1;
}

/*
 * SOCKDIR/NAME.sock, made whole under .NAME.sock.tmp (bound, mode 0666
 * so that the space's user may connect, listening) and then renamed
 * over the final name: a relay either finds no socket, the stale one
 * (refused) or one that accepts, never a socket still being made.
 */
static struct evconnlistener *
listen_unix(const char *dir, const char *name, mode_t mode,
    evconnlistener_cb cb)
{
	struct sockaddr_un	 sun;
	struct evconnlistener	*l;
	char			 path[sizeof(sun.sun_path)];
	char			 tmp[sizeof(sun.sun_path)];
	int			 fd, n, m;

	n = snprintf(path, sizeof(path), "%s/%s.sock", dir, name);
	m = snprintf(tmp, sizeof(tmp), "%s/.%s.sock.tmp", dir, name);
	if (n < 0 || (size_t)n >= sizeof(path) || m < 0 ||
	    (size_t)m >= sizeof(tmp))
		usage("SOCKDIR is too long for a socket name");
	(void)unix_stale(path);		/* the rename replaces a socket */
	if (unix_stale(tmp) && unlink(tmp) == -1)
		fatal("unlink %s", tmp);

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, tmp, (size_t)m + 1);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) == -1)
		fatal("%s: socket", name);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		fatal("%s: bind %s", name, tmp);
	/* connect(2) needs write permission on the socket's inode. */
	if (chmod(tmp, mode) == -1)
		fatal("%s: chmod %s", name, tmp);
	if (listen(fd, 128) == -1)
		fatal("%s: listen", name);
	if (rename(tmp, path) == -1)
		fatal("%s: rename to %s", name, path);
	l = evconnlistener_new(gk->gk_base, cb, NULL,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, -1, fd);
	if (l == NULL)
		fatalx("%s: cannot listen", name);
	evconnlistener_set_error_cb(l, listener_error);
	return l;
}

/* Our own addresses: a grant must never point the window at us. */
static void
own_addresses(void)
{
	struct ifaddrs	*ifa, *i;

	if (getifaddrs(&ifa) == -1)
		fatal("getifaddrs");
	for (i = ifa; i != NULL && gk->gk_nown < GK_OWN_ADDRS_MAX;
	    i = i->ifa_next) {
		if (i->ifa_addr == NULL)
			continue;
		if (i->ifa_addr->sa_family == AF_INET)
			memcpy(&gk->gk_own[gk->gk_nown++], i->ifa_addr,
			    sizeof(struct sockaddr_in));
		else if (i->ifa_addr->sa_family == AF_INET6)
			memcpy(&gk->gk_own[gk->gk_nown++], i->ifa_addr,
			    sizeof(struct sockaddr_in6));
	}
	freeifaddrs(ifa);
	if (gk->gk_nown < GK_OWN_ADDRS_MAX)
		gk->gk_own[gk->gk_nown++] = gk->gk_bind;
}

static const int gk_sb_extra[] = { SYS_splice, -1 };

/*
 * Every place the caps allow, at once, must find an fd: a client and
 * an upstream per tunnel plus its two pipes (four fds), six for each
 * tunnel its client closed (it holds no corridor slot), the window's
 * both sides, control, clients drained after a refusal, and a few for
 * listeners, the loop and the resolver.  Raise the soft limit to what
 * that needs, as far as the hard limit lets us.
 */
static void
fd_budget(void)
{
	struct rlimit	 rl;
	rlim_t		 need;

	need = (rlim_t)gk->gk_caps[GK_CORRIDOR] + 5 * GK_TUNNEL_CAP +
	    6 * GK_CLOSING_MAX +
	    gk->gk_caps[GK_WINDOW] + GK_WINDOW_OUT_CAP +
	    gk->gk_caps[GK_CONTROL] + GK_DRAIN_MAX + 32;
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		fatal("getrlimit");
	if (rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
		fatal("setrlimit");
	if (rl.rlim_cur < need)
		log_warnx("open files limited to %llu, the caps may need %llu",
		    (unsigned long long)rl.rlim_cur, (unsigned long long)need);
}

int
main(int argc, char *argv[])
{
	struct sockaddr_storage	 ss;
	struct sandbox_spec	 sb;
	const char		*sockdir = NULL, *ctldir = NULL;
	int			 ch, i;

	log_init(1, LOG_DAEMON);
	log_procinit("gatekeeper");
	TAILQ_INIT(&gk->gk_grants);
	TAILQ_INIT(&gk->gk_drains);
	TAILQ_INIT(&gk->gk_orphans);
	TAILQ_INIT(&gk->gk_closing);
	gk->gk_mode = GK_MODE_ALLOWLIST;	/* and an empty list */

	if (argc >= 2 && strcmp(argv[1], "-C") == 0)
		return client_main(argc, argv);
	/* '+': BIND and the numbers are never taken for options. */
	while ((ch = getopt(argc, argv, "+a:k:u:")) != -1) {
		switch (ch) {
		case 'a':
			allow_at_start(optarg);
			break;
		case 'k':
			if (optarg[0] == '\0')
				usage("CTLDIR is empty");
			ctldir = optarg;
			break;
		case 'u':
			if (optarg[0] == '\0')
				usage("SOCKDIR is empty");
			sockdir = optarg;
			break;
		default:
			usage("unknown option");
		}
	}
	argc -= optind - 1;
	argv += optind - 1;

	if (argc != 5 && argc != 6 && argc != 9)
		usage("wrong number of arguments");
	parse_bind(argv[1], &gk->gk_bind, &gk->gk_bindlen);
	for (i = 0; i < 3; i++)
		gk->gk_ports[i] = (uint16_t)number(argv[2 + i], 1, 65535,
		    i == 0 ? "CORRIDOR_PORT" : i == 1 ? "WINDOW_PORT" :
		    "CONTROL_PORT");
	gk->gk_deadline_ms = argc >= 6 ? number(argv[5], 1, 86400000,
	    "WINDOW_DEADLINE_MS") : GK_DEADLINE_DEFAULT_MS;
	gk->gk_caps[GK_CORRIDOR] = argc == 9 ? number(argv[6], 1, 65536,
	    "CORRIDOR_CAP") : GK_CORRIDOR_CAP_DEFAULT;
	gk->gk_caps[GK_WINDOW] = argc == 9 ? number(argv[7], 1, 65536,
	    "WINDOW_CAP") : GK_WINDOW_CAP_DEFAULT;
	gk->gk_caps[GK_CONTROL] = argc == 9 ? number(argv[8], 1, 65536,
	    "CONTROL_CAP") : GK_CONTROL_CAP_DEFAULT;

	/* Nothing the space sends ends the process, a closed socket neither. */
	signal(SIGPIPE, SIG_IGN);
	fd_budget();

	tls_preload();
	if ((gk->gk_base = event_base_new()) == NULL)
		fatalx("event base");
	journal_init(gk->gk_base);
	if ((gk->gk_dns = evdns_base_new(gk->gk_base, 0)) == NULL)
		fatalx("resolver");
	/*
	 * /etc/hosts first, then the nameservers of resolv.conf, both read
	 * now: the sandbox opens no file later.  No search domains: a
	 * refused suffix must never turn into a query for another name.
	 */
	if (evdns_base_resolv_conf_parse(gk->gk_dns, DNS_OPTION_NAMESERVERS |
	    DNS_OPTION_MISC | DNS_OPTION_HOSTSFILE, "/etc/resolv.conf") != 0)
		log_warnx("resolv.conf unreadable, using the default server");

	if (sockdir != NULL) {
		listen_unix(sockdir, "corridor", 0666, corridor_accept);
		listen_unix(sockdir, "window", 0666, window_accept);
	} else {
		ss = gk->gk_bind;
		set_port(&ss, gk->gk_ports[GK_CORRIDOR]);
		listen_on(&ss, gk->gk_bindlen, corridor_accept, "corridor");
		set_port(&ss, gk->gk_ports[GK_WINDOW]);
		listen_on(&ss, gk->gk_bindlen, window_accept, "window");
	}
	/* Control last: an answer on it means the corridor accepts. */
	if (ctldir != NULL)
		listen_unix(ctldir, "control", 0600, control_accept);
	else {
		memset(&ss, 0, sizeof(ss));
		((struct sockaddr_in *)&ss)->sin_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_addr.s_addr =
		    htonl(INADDR_LOOPBACK);
		set_port(&ss, gk->gk_ports[GK_CONTROL]);
		listen_on(&ss, sizeof(struct sockaddr_in), control_accept,
		    "control");
	}
	own_addresses();

	/*
	 * stdio: the loop and the sockets it holds; inet: accepts on the
	 * listeners (the unix ones were bound, chmod'ed and renamed
	 * above: no path call is left), the corridor's and the window's
	 * connections out and the resolver's sockets;
	 * splice: the tunnels' bytes from socket to pipe to socket.
	 * No file, no exec, no new process: Landlock denies every path.
	 */
	memset(&sb, 0, sizeof(sb));
	sb.sb_name = "gatekeeper";
	sb.sb_groups = SB_STDIO | SB_INET;
	sb.sb_extra = gk_sb_extra;
	sb.sb_landlock_dir = NULL;
	sandbox_enter(&sb);

	gk->gk_ready = 1;
	if (ctldir != NULL)
		log_info("listening: corridor %s/corridor.sock, window "
		    "%s/window.sock, control %s/control.sock",
		    sockdir != NULL ? sockdir : "-", sockdir != NULL ? sockdir :
		    "-", ctldir);
	else if (sockdir != NULL)
		log_info("listening: corridor %s/corridor.sock, window "
		    "%s/window.sock, control 127.0.0.1:%u", sockdir, sockdir,
		    gk->gk_ports[GK_CONTROL]);
	else
		log_info("listening: corridor %u, window %u, control %u",
		    gk->gk_ports[GK_CORRIDOR], gk->gk_ports[GK_WINDOW],
		    gk->gk_ports[GK_CONTROL]);
	event_base_dispatch(gk->gk_base);
	return 0;
}
