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
 * The gatekeeper's two doors a space uses, the corridor (CONNECT) and
 * the window (/model/GRANT/...), end to end on any bytes a space's
 * client sends: the first byte is the size of the client's pieces (0:
 * all at once), the second picks the door, the rest is the whole
 * connection, given to corridor_accept or window_accept over a
 * socketpair and ended.  The allowlist is empty and the one grant's
 * upstream is the window's own listener (127.0.0.1:8080), which it
 * refuses after the lookup, so nothing leaves the process: what runs is
 * every parse and refusal between a space and a connection out, the
 * drain of a refused client included.  Invariants: the connection ends once its client
 * did, never on a 10 s timer (libFuzzer's -timeout catches a wait);
 * every answer is HTTP/1.1 with a status of three digits; the grant's
 * secret never reaches the space; no connection out is counted; and a
 * slow client gets the answers a fast one gets.
 * fuzz-link: regress/fuzz/fuzz_gk.c gatekeeper/spaced-gatekeeper/control.c gatekeeper/spaced-gatekeeper/gk_env.c gatekeeper/spaced-gatekeeper/gk_util.c gatekeeper/spaced-gatekeeper/gk_http.c gatekeeper/spaced-gatekeeper/gk_rules.c gatekeeper/spaced-gatekeeper/journal.c gatekeeper/spaced-gatekeeper/corridor.c gatekeeper/spaced-gatekeeper/window.c gatekeeper/spaced-gatekeeper/tunnel.c gatekeeper/spaced-gatekeeper/tls.c common/lib/log.c -levent_openssl
 */

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/dns.h>

#include "gatekeeper/spaced-gatekeeper/gatekeeper.h"
#include "regress/fuzz/fuzz_gk.h"

/* What the client read back (fuzz_gk.c keeps it). */
#define reply		fuzz_gk_reply
#define replylen	fuzz_gk_replylen

#define SECRET		"Bearer sk-fuzz-3f9a1c77e2b04d5e"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Until every connection of every door is let go, refused ones too. */
static int
busy(void)
{
	return gk->gk_conns[GK_CORRIDOR] > 0 || gk->gk_conns[GK_WINDOW] > 0 ||
	    gk->gk_conns[GK_CONTROL] > 0 || gk->gk_ndrains > 0 ||
	    gk->gk_norphans > 0 || gk->gk_nclosing > 0 ||
	    gk->gk_window_out > 0 || gk->gk_tunnels > 0;
}

/* One connection to door l, size bytes in pieces of piece (0: all). */
static void
run(enum gk_listener l, const uint8_t *data, size_t size, size_t piece)
{
	struct fuzz_gk_client	 c;
	int			 fd;

	fd = fuzz_gk_connect(&c, data, size, piece);
	if (l == GK_CORRIDOR)
		corridor_accept(NULL, fd, NULL, 0, NULL);
	else if (l == GK_WINDOW)
		window_accept(NULL, fd, NULL, 0, NULL);
	else
		control_accept(NULL, fd, NULL, 0, NULL);
	while (busy()) {
		fuzz_gk_turn(&c);
		/* Nothing may go out: the one upstream is refused. */
		if (gk->gk_window_out > 0 || gk->gk_tunnels > 0)
			abort();
	}
	fuzz_gk_close(&c);
}

static void
setup(void)
{
	static const char grant[] = "POST /grants HTTP/1.1\r\n"
	    "Content-Length: 120\r\nConnection: close\r\n\r\n"
	    "{\"id\":\"model\",\"upstream\":\"http://127.0.0.1:8080/v1\","
	    "\"header\":\"authorization\",\"secret\":\"" SECRET "\"}";
	int	 fd;

	fuzz_gk_init();
	gk->gk_caps[GK_CORRIDOR] = GK_CORRIDOR_CAP_DEFAULT;
	gk->gk_caps[GK_WINDOW] = GK_WINDOW_CAP_DEFAULT;
	gk->gk_caps[GK_CONTROL] = GK_CONTROL_CAP_DEFAULT;
	gk->gk_deadline_ms = GK_DEADLINE_DEFAULT_MS;
	gk->gk_ports[GK_CORRIDOR] = 3128;
	gk->gk_ports[GK_WINDOW] = 8080;
	gk->gk_ports[GK_CONTROL] = 8081;
	/* The journal's lines: to nowhere, not into libFuzzer's output. */
	if ((fd = open("/dev/null", O_WRONLY)) == -1 ||
	    dup2(fd, STDOUT_FILENO) == -1)
		abort();
	close(fd);
	if ((gk->gk_dns = evdns_base_new(gk->gk_base, 0)) == NULL)
		abort();
	run(GK_CONTROL, (const uint8_t *)grant, sizeof(grant) - 1, 0);
	if (TAILQ_EMPTY(&gk->gk_grants) || strstr(reply, " 200 ") == NULL)
		abort();
}

/* Each answer starts with a status line; the secret is in none. */
static void
check_answers(void)
{
	const char	*p = reply, *end = reply + replylen;

	if (replylen > 0 && (replylen < 12 || memcmp(reply, "HTTP/1.1 ", 9)))
		abort();
	while ((p = memmem(p, end - p, "HTTP/1.1 ", 9)) != NULL) {
		if (end - p < 12 || p[9] < '1' || p[9] > '5' ||
		    p[10] < '0' || p[10] > '9' || p[11] < '0' || p[11] > '9')
			abort();
		p += 9;
	}
	if (memmem(reply, replylen, SECRET, strlen(SECRET)) != NULL ||
	    memmem(reply, replylen, "sk-fuzz", 7) != NULL)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int		 ready;
	enum gk_listener	 l;
	char			*fast;
	size_t			 fastlen;

	if (!ready) {
		setup();
		ready = 1;
	}
	if (size < 2)
		return 0;
	l = data[1] & 1 ? GK_WINDOW : GK_CORRIDOR;
	run(l, data + 2, size - 2, 0);
	check_answers();
	if (data[0] == 0)
		return 0;
	if ((fast = malloc(replylen + 1)) == NULL)
		abort();
	memcpy(fast, reply, replylen);
	fastlen = replylen;
	run(l, data + 2, size - 2, data[0]);
	check_answers();
	if (fastlen != replylen || memcmp(fast, reply, replylen) != 0)
		abort();
	free(fast);
	return 0;
}
