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
 * The integration suite's two ends around a running spaced-relay: the
 * TCP client (127.0.0.1 or ::1, ports 3128 and 8080) and a stand-in
 * gatekeeper listening on <sockdir>/corridor.sock or window.sock, in
 * one process, one scenario per run.  Exit 0 when the scenario held,
 * 1 with a line on stderr when it did not.
 *
 * usage: relay_check scenario sockdir [n]
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CORRIDOR	3128
#define WINDOW		8080

/*
 * A wait for what no timer of the relay's decides (a connection carried,
 * bytes through): a hang guard, never a measure; a loaded machine (two
 * lanes of suites and a build beside) can hold the relay for seconds.
 * A wait that must end before the relay's linger (RELAY_LINGER_SEC,
 * 10 s) would do what the check asks of a close is CLOSED_BEFORE_MS.
 */
#define HANG_MS			30000
#define CLOSED_BEFORE_MS	8000

static const char	*sockdir;

static void __attribute__((__noreturn__, __format__(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list	 ap;

	fprintf(stderr, "relay_check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
gk_path(struct sockaddr_un *sun, const char *name)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	snprintf(sun->sun_path, sizeof(sun->sun_path), "%s/%s", sockdir, name);
}

static int
gk_listen(const char *name)
{
	struct sockaddr_un	 sun;
	int			 s;

	gk_path(&sun, name);
	unlink(sun.sun_path);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(s, (struct sockaddr *)&sun, sizeof(sun)) == -1 ||
	    listen(s, 1024) == -1)
		fail("listen %s: %s", sun.sun_path, strerror(errno));
	return s;
}

static void
gk_unlink(const char *name)
{
	struct sockaddr_un	 sun;

	gk_path(&sun, name);
	unlink(sun.sun_path);
}

/* A blocking TCP connection to the relay; -1 with errno on failure. */
static int
tcp_try(int family, int port)
{
	struct sockaddr_in	 sin;
	struct sockaddr_in6	 sin6;
	int			 s, rc;

	if ((s = socket(family, SOCK_STREAM, 0)) == -1)
		fail("socket: %s", strerror(errno));
	if (family == AF_INET) {
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_port = htons(port);
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		rc = connect(s, (struct sockaddr *)&sin, sizeof(sin));
	} else {
		memset(&sin6, 0, sizeof(sin6));
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons(port);
		sin6.sin6_addr = in6addr_loopback;
		rc = connect(s, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	if (rc == -1) {
		rc = errno;
		close(s);
		errno = rc;
		return -1;
	}
	return s;
}

static int
tcp(int port)
{
	int	 s;

	if ((s = tcp_try(AF_INET, port)) == -1)
		fail("connect 127.0.0.1:%d: %s", port, strerror(errno));
	return s;
}

static int
wait_fd(int fd, short ev, int ms)
{
	struct pollfd	 pfd = { fd, ev, 0 };

	return poll(&pfd, 1, ms) == 1;
}

static int
gk_accept(int l, int ms)
{
	int	 s;

	if (!wait_fd(l, POLLIN, ms))
		fail("the gatekeeper got no connection in %d ms", ms);
	if ((s = accept(l, NULL, NULL)) == -1)
		fail("accept: %s", strerror(errno));
	return s;
}

static void
put(int fd, const char *what, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		fail("%s: write: %s", what, strerror(errno));
}

/*
 * Read to EOF within ms.  0 on EOF, else the errno that ended it
 * (ETIMEDOUT when neither came); what was read goes into buf.
 */
static int
drain(int fd, char *buf, size_t size, size_t *got, int ms)
{
	double	 end = now() + ms / 1000.0;
	ssize_t	 n;

	*got = 0;
	for (;;) {
		int left = (int)((end - now()) * 1000);

		if (left <= 0 || !wait_fd(fd, POLLIN, left))
			return ETIMEDOUT;
		n = read(fd, buf + *got, size - 1 - *got);
		if (n == -1)
			return errno;
		if (n == 0)
			break;
		*got += (size_t)n;
		if (*got == size - 1)
			return ENOBUFS;
	}
	buf[*got] = '\0';
	return 0;
}

/* Read exactly want, then EOF, within 5 s. */
static void
expect(int fd, const char *what, const char *want)
{
	char	 buf[256];
	size_t	 got;
	int	 rc;

	rc = drain(fd, buf, sizeof(buf), &got, HANG_MS);
	buf[got] = '\0';
	if (rc != 0)
		fail("%s: after \"%s\": %s, want EOF", what, buf, strerror(rc));
	if (strcmp(buf, want) != 0)
		fail("%s: got \"%s\", want \"%s\"", what, buf, want);
}

/* Client EOF first; the other way still flows, then ends too. */
static void
halfclose_up(void)
{
	int	 l = gk_listen("corridor.sock"), c = tcp(CORRIDOR), g;

	g = gk_accept(l, HANG_MS);
	put(c, "client", "ping");
	shutdown(c, SHUT_WR);
	expect(g, "gatekeeper", "ping");
	/* After its EOF: the answer still reaches the half-closed client. */
	put(g, "gatekeeper", "po");
	usleep(100000);
	put(g, "gatekeeper", "ng");
	shutdown(g, SHUT_WR);
	expect(c, "client", "pong");
}

static void
halfclose_down(void)
{
	int	 l = gk_listen("corridor.sock"), c = tcp(CORRIDOR), g;

	g = gk_accept(l, HANG_MS);
	put(g, "gatekeeper", "hello");
	shutdown(g, SHUT_WR);
	expect(c, "client", "hello");
	put(c, "client", "af");
	usleep(100000);
	put(c, "client", "ter");
	shutdown(c, SHUT_WR);
	expect(g, "gatekeeper", "after");
}

/* The gatekeeper closes with bytes unread (a reset): the client gets a RST. */
static void
reset_gk(void)
{
	int	 l = gk_listen("corridor.sock"), c = tcp(CORRIDOR), g, rc;
	char	 buf[64];
	size_t	 got;

	g = gk_accept(l, HANG_MS);
	put(c, "client", "unread");
	if (!wait_fd(g, POLLIN, HANG_MS))
		fail("the gatekeeper got no bytes");
	close(g);
	rc = drain(c, buf, sizeof(buf), &got, CLOSED_BEFORE_MS);
	if (rc != ECONNRESET)
		fail("client: %s, want ECONNRESET", rc ? strerror(rc) : "EOF");
}

/*
 * The client resets: the gatekeeper's side is closed, not kept for the
 * relay's linger (RELAY_LINGER_SEC, 10 s) or for ever.  The bound
 * (CLOSED_BEFORE_MS) tells those apart; it is no measure of speed.
 */

static void
reset_client(void)
{
	int		 l = gk_listen("corridor.sock"), c = tcp(CORRIDOR), g, rc;
	struct linger	 lg = { 1, 0 };
	char		 buf[64];
	size_t		 got;

	g = gk_accept(l, HANG_MS);
	put(c, "client", "x");
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(c);
	rc = drain(g, buf, sizeof(buf), &got, CLOSED_BEFORE_MS);
	if (rc != 0 && rc != ECONNRESET)
		fail("gatekeeper: %s, want EOF or ECONNRESET", strerror(rc));
}

/* Closed at once, no hang; then a live gatekeeper is reached again. */
static void
dead(int refused)
{
	struct sockaddr_un	 sun;
	char			 buf[64];
	size_t			 got;
	int			 s, c, rc, l, g;

	gk_unlink("corridor.sock");
	if (refused) {
		/* A socket file with nothing behind it: ECONNREFUSED. */
		gk_path(&sun, "corridor.sock");
		if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
		    bind(s, (struct sockaddr *)&sun, sizeof(sun)) == -1)
			fail("bind: %s", strerror(errno));
		close(s);
	}
	for (int i = 0; i < 3; i++) {
		c = tcp(CORRIDOR);
		put(c, "client", "hello?");
		rc = drain(c, buf, sizeof(buf), &got, CLOSED_BEFORE_MS);
		if (rc != 0 && rc != ECONNRESET)
			fail("client %d: %s, want EOF or a reset", i,
			    strerror(rc));
		close(c);
	}
	l = gk_listen("corridor.sock");
	c = tcp(CORRIDOR);
	g = gk_accept(l, HANG_MS);
	put(g, "gatekeeper", "back");
	shutdown(g, SHUT_WR);
	expect(c, "client after the outage", "back");
}

/* A byte stream of its own per seed, checked at the other end. */
static uint8_t
pattern(uint64_t seed, uint64_t off)
{
	uint64_t	 x = (off / 8 + 1) * 0x9E3779B97F4A7C15ULL ^ seed;

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 29;
	return (uint8_t)(x >> ((off % 8) * 8));
}

struct end {
	int		 e_fd;
	uint64_t	 e_seed_out, e_seed_in;
	uint64_t	 e_sent, e_recv;
	int		 e_eof, e_shut;
};

/* A TCP connection whose receive buffer (and so window) is small. */
static int
tcp_small(int port)
{
	struct sockaddr_in	 sin;
	int			 s, size = 4096;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    setsockopt(s, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) == -1)
		fail("socket: %s", strerror(errno));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(s, (struct sockaddr *)&sin, sizeof(sin)) == -1)
		fail("connect 127.0.0.1:%d: %s", port, strerror(errno));
	return s;
}

/*
 * slow (end 1, the gatekeeper) and slowclient (end 0, with a 4 KiB
 * receive buffer): that end reads nothing until the other end's write
 * would block (every buffer on the way is full), then 4 KiB at a time,
 * so the relay meets a full socket and part-writes (its pipes are the
 * only buffer it keeps).  A unix socket takes the relay's 64 KiB
 * splices whole or not at all; TCP takes part of one.
 */
static void
duplex(size_t mb, int slow)
{
	struct end	 e[2];
	struct pollfd	 pfd[2];
	uint64_t	 total = (uint64_t)mb << 20;
	uint8_t		 buf[65536];
	int		 l = gk_listen("corridor.sock"), i;
	int		 held = slow != 0, slowend = slow == 2 ? 0 : 1;
	ssize_t		 n;
	size_t		 k, len;

	memset(e, 0, sizeof(e));
	e[0].e_fd = slow == 2 ? tcp_small(CORRIDOR) : tcp(CORRIDOR);
	e[1].e_fd = gk_accept(l, HANG_MS);
	e[0].e_seed_out = e[1].e_seed_in = 1;
	e[1].e_seed_out = e[0].e_seed_in = 2;
	for (i = 0; i < 2; i++)
		fcntl(e[i].e_fd, F_SETFL, O_NONBLOCK);

	while (!e[0].e_eof || !e[1].e_eof) {
		for (i = 0; i < 2; i++) {
			int hold = held && i == slowend;

			pfd[i].fd = e[i].e_fd;
			pfd[i].events = (e[i].e_eof || hold ? 0 : POLLIN) |
			    (e[i].e_sent < total ? POLLOUT : 0);
		}
		if (poll(pfd, 2, HANG_MS) <= 0)
			fail("duplex: stalled at %llu/%llu and %llu/%llu",
			    (unsigned long long)e[0].e_recv,
			    (unsigned long long)e[1].e_recv,
			    (unsigned long long)e[0].e_sent,
			    (unsigned long long)e[1].e_sent);
		for (i = 0; i < 2; i++) {
			struct end *x = &e[i];

			/*
			 * While the slow end holds, the other writes until
			 * its write would block (poll says writable later
			 * than a write stops succeeding) or it has sent all:
			 * then every buffer on the way is full.
			 */
			while ((pfd[i].revents & POLLOUT) && x->e_sent < total) {
				len = total - x->e_sent < sizeof(buf) ?
				    total - x->e_sent : sizeof(buf);
				for (k = 0; k < len; k++)
					buf[k] = pattern(x->e_seed_out,
					    x->e_sent + k);
				n = write(x->e_fd, buf, len);
				if (n == -1 && errno != EAGAIN)
					fail("duplex %d: write: %s", i,
					    strerror(errno));
				if (n > 0)
					x->e_sent += (uint64_t)n;
				if (!held || i == slowend)
					break;
				if (n == -1 || (size_t)n < len ||
				    x->e_sent == total) {
					held = 0;
					break;
				}
			}
			if (x->e_sent == total && !x->e_shut) {
				shutdown(x->e_fd, SHUT_WR);
				x->e_shut = 1;
			}
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				if (held && i == slowend)
					continue;
				n = read(x->e_fd, buf, slow && i == slowend ?
				    4096 : sizeof(buf));
				if (n == -1 && errno != EAGAIN)
					fail("duplex %d: read: %s", i,
					    strerror(errno));
				if (n == 0) {
					x->e_eof = 1;
					if (x->e_recv != total)
						fail("duplex %d: EOF at %llu",
						    i, (unsigned long long)
						    x->e_recv);
				}
				for (k = 0; n > 0 && k < (size_t)n; k++)
					if (buf[k] != pattern(x->e_seed_in,
					    x->e_recv + k))
						fail("duplex %d: byte %llu "
						    "differs", i,
						    (unsigned long long)
						    (x->e_recv + k));
				if (n > 0)
					x->e_recv += (uint64_t)n;
			}
		}
	}
}

static void
more_fds(void)
{
	struct rlimit	 rl;

	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/*
 * n connections open at once, each carried to its own gatekeeper
 * connection: all are accepted before any is answered.
 */
static void
many(int n)
{
	int	*c, *g, l = gk_listen("corridor.sock"), i, idx;
	char	 buf[64], want[64];
	size_t	 got;
	int	 rc;

	more_fds();
	c = calloc(n, sizeof(int));
	g = calloc(n, sizeof(int));
	for (i = 0; i < n; i++) {
		c[i] = tcp(CORRIDOR);
		snprintf(buf, sizeof(buf), "%08d", i);
		put(c[i], "client", buf);
	}
	for (i = 0; i < n; i++)
		g[i] = gk_accept(l, HANG_MS);
	for (i = 0; i < n; i++) {
		if (!wait_fd(g[i], POLLIN, HANG_MS) || read(g[i], buf, 8) != 8)
			fail("gatekeeper %d: no index", i);
		buf[8] = '\0';
		idx = atoi(buf);
		snprintf(buf, sizeof(buf), "answer %d", idx);
		put(g[i], "gatekeeper", buf);
		close(g[i]);
	}
	for (i = 0; i < n; i++) {
		rc = drain(c[i], buf, sizeof(buf), &got, HANG_MS);
		snprintf(want, sizeof(want), "answer %d", i);
		if (rc != 0 || strcmp(buf, want) != 0)
			fail("client %d: \"%s\" (%s)", i, buf,
			    rc ? strerror(rc) : "EOF");
		close(c[i]);
	}
	printf("%d at once\n", n);
}

/*
 * freed L N: a client connection the relay carries to L once a place is
 * free; one it closes meanwhile (the (N+1)th, closed at once) is tried
 * again, HANG_MS in all.
 */
static int
freed(int l, int n)
{
	struct pollfd	 pfd[2];
	double		 end = now() + HANG_MS / 1000.0;
	char		 b;
	int		 y;

	while (now() < end) {
		y = tcp(CORRIDOR);
		pfd[0].fd = l;
		pfd[0].events = POLLIN;
		pfd[1].fd = y;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, HANG_MS) <= 0)
			break;
		if (pfd[0].revents & POLLIN)
			return y;
		/* closed at once: no place yet (no byte is ever sent) */
		if (read(y, &b, 1) > 0)
			fail("connection %d: bytes from a closed place", n + 1);
		close(y);
		usleep(100000);
	}
	fail("no place came back within %d ms", HANG_MS);
}

/* n held open; the next is closed at once; a freed place is taken again. */
static void
cap(int n)
{
	int	*c, *g, l = gk_listen("corridor.sock"), i, x, y, rc;
	char	 buf[64];
	size_t	 got;

	more_fds();
	c = calloc(n, sizeof(int));
	g = calloc(n, sizeof(int));
	for (i = 0; i < n; i++) {
		c[i] = tcp(CORRIDOR);
		g[i] = gk_accept(l, HANG_MS);
	}
	x = tcp(CORRIDOR);
	rc = drain(x, buf, sizeof(buf), &got, CLOSED_BEFORE_MS);
	if (rc != 0 && rc != ECONNRESET)
		fail("connection %d: %s, want closed at once", n + 1,
		    strerror(rc));
	if (wait_fd(l, POLLIN, 200))
		fail("connection %d reached the gatekeeper", n + 1);
	/*
	 * One place back, once the relay has seen both ends of it close:
	 * until then a new connection is the one too many, closed at once
	 * and never carried (0.2 s of sleep was a guess at that moment).
	 */
	close(c[0]);
	close(g[0]);
	y = freed(l, n);
	g[0] = gk_accept(l, HANG_MS);
	put(g[0], "gatekeeper", "room");
	shutdown(g[0], SHUT_WR);
	expect(y, "client in the freed place", "room");
	printf("cap %d held\n", n);
}

/* 8080 reaches window.sock, and only that. */
static void
window(void)
{
	int	 l, c, g;
	char	 buf[64];
	size_t	 got;

	gk_unlink("corridor.sock");
	l = gk_listen("window.sock");
	c = tcp(WINDOW);
	g = gk_accept(l, HANG_MS);
	put(g, "window", "w");
	shutdown(g, SHUT_WR);
	expect(c, "window client", "w");
	c = tcp(CORRIDOR);
	if (drain(c, buf, sizeof(buf), &got, CLOSED_BEFORE_MS) == ETIMEDOUT ||
	    wait_fd(l, POLLIN, 200))
		fail("3128 reached window.sock");
	gk_unlink("window.sock");
}

static void
v6(void)
{
	int	 l = gk_listen("corridor.sock"), c, g;

	if ((c = tcp_try(AF_INET6, CORRIDOR)) == -1)
		fail("connect [::1]:3128: %s", strerror(errno));
	g = gk_accept(l, HANG_MS);
	put(g, "gatekeeper", "six");
	shutdown(g, SHUT_WR);
	expect(c, "v6 client", "six");
}

int
main(int argc, char *argv[])
{
	const char	*s;
	int		 c;

	if (argc < 3) {
		fprintf(stderr, "usage: relay_check scenario sockdir [n]\n");
		return 2;
	}
	s = argv[1];
	sockdir = argv[2];
	signal(SIGPIPE, SIG_IGN);
	alarm(60);	/* a hang is a failure, not a stuck suite */

	if (strcmp(s, "first") == 0) {
		/* The relay's child: its very first act. */
		if ((c = tcp_try(AF_INET, CORRIDOR)) == -1)
			fail("first connect: %s", strerror(errno));
		return 0;
	} else if (strcmp(s, "refused") == 0) {
		if (tcp_try(AF_INET, CORRIDOR) != -1 || errno != ECONNREFUSED)
			fail("3128 still answers");
		return 0;
	} else if (strcmp(s, "halfclose-up") == 0)
		halfclose_up();
	else if (strcmp(s, "halfclose-down") == 0)
		halfclose_down();
	else if (strcmp(s, "reset-gk") == 0)
		reset_gk();
	else if (strcmp(s, "reset-client") == 0)
		reset_client();
	else if (strcmp(s, "dead-refused") == 0)
		dead(1);
	else if (strcmp(s, "dead-missing") == 0)
		dead(0);
	else if (strcmp(s, "duplex") == 0)
		duplex(argc > 3 ? strtoul(argv[3], NULL, 10) : 4, 0);
	else if (strcmp(s, "slow") == 0)
		duplex(argc > 3 ? strtoul(argv[3], NULL, 10) : 4, 1);
	else if (strcmp(s, "slowclient") == 0)
		duplex(argc > 3 ? strtoul(argv[3], NULL, 10) : 4, 2);
	else if (strcmp(s, "many") == 0)
		many(argc > 3 ? atoi(argv[3]) : 200);
	else if (strcmp(s, "cap") == 0)
		cap(argc > 3 ? atoi(argv[3]) : 256);
	else if (strcmp(s, "window") == 0)
		window();
	else if (strcmp(s, "v6") == 0)
		v6();
	else
		fail("unknown scenario %s", s);
	gk_unlink("corridor.sock");
	return 0;
}
