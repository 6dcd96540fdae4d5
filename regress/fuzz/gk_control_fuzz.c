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
 * The gatekeeper's control channel (gatekeeper/spaced-gatekeeper/control.c)
 * on any bytes a client sends it: the first byte is the size of the
 * pieces the client writes (0: all at once), the rest the whole
 * connection (pipelined requests included), given to control_accept
 * over a socketpair and ended, and the loop runs until the connection is
 * let go.  The network's domains, a grant's upstream URL, header and
 * secret come from a local user through spacectl.  Invariants: the
 * connection ends once its client did, never on the 10 s head timer
 * (libFuzzer's -timeout catches a wait); every answer is HTTP/1.1 with a
 * status the channel gives; a secret taken is never in an answer; the
 * allowlist is sorted, unique and normalized; every grant kept holds
 * what the window may use (a routable id, a host, a port 1..65535, a
 * path "" or "/...", a header that frames nothing), at most 256 of them;
 * and a slow client gets the answers and the state a fast one gets.
 * fuzz-link: regress/fuzz/fuzz_gk.c gatekeeper/spaced-gatekeeper/control.c gatekeeper/spaced-gatekeeper/gk_env.c gatekeeper/spaced-gatekeeper/gk_util.c gatekeeper/spaced-gatekeeper/gk_http.c gatekeeper/spaced-gatekeeper/gk_rules.c gatekeeper/spaced-gatekeeper/journal.c gatekeeper/spaced-gatekeeper/corridor.c gatekeeper/spaced-gatekeeper/window.c gatekeeper/spaced-gatekeeper/tunnel.c gatekeeper/spaced-gatekeeper/tls.c common/lib/log.c -levent_openssl
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gatekeeper/spaced-gatekeeper/gatekeeper.h"
#include "regress/fuzz/fuzz_gk.h"

/* What the client read back (fuzz_gk.c keeps it). */
#define reply		fuzz_gk_reply
#define replylen	fuzz_gk_replylen

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	*canned;	/* every fixed text an answer is made of */

static void
setup(void)
{
	char	*dump;

	fuzz_gk_init();
	gk->gk_caps[GK_CONTROL] = GK_CONTROL_CAP_DEFAULT;
	/* A secret equal to a piece of these is no leak. */
	dump = journal_dump();
	if (asprintf(&canned, "HTTP/1.1 200 OK\ncontent-type: application/"
	    "json\ncontent-length: \nconnection: keep-alive\nconnection: "
	    "close\n{\"ok\":true}\n{\"error\":\"bad_request\"}\n"
	    "{\"error\":\"not_found\"}\n{\"error\":\"request_too_large\"}\n"
	    "{\"error\":\"internal_error\"}\nBad Request\nNot Found\n"
	    "Payload Too Large\nInternal Server Error\n%s",
	    dump != NULL ? dump : "") == -1)
		abort();
	free(dump);
}

/* Each answer starts with a status line the channel gives. */
static void
check_answers(void)
{
	const char	*p = reply, *end = reply + replylen;
	int		 status;

	if (replylen > 0 && (replylen < 12 || memcmp(reply, "HTTP/1.1 ", 9)))
		abort();
	while ((p = memmem(p, end - p, "HTTP/1.1 ", 9)) != NULL) {
		if (end - p < 12)
			abort();
		status = atoi(p + 9);
		if (status != 200 && status != 400 && status != 404 &&
		    status != 413 && status != 500)
			abort();
		p += 9;
	}
}

static int
framing_header(const char *h)
{
	return strcasecmp(h, "host") == 0 ||
	    strcasecmp(h, "content-length") == 0 ||
	    strcasecmp(h, "transfer-encoding") == 0 ||
	    strcasecmp(h, "connection") == 0;
}

static void
check_grant(const struct gk_grant *gr)
{
	const struct gk_grant	*o;
	const char		*errstr;
	size_t			 i;

	if (!gk_grant_id_ok(gr->gr_id, strlen(gr->gr_id)) ||
	    gr->gr_host[0] == '\0' || strlen(gr->gr_host) > GK_NAME_MAX ||
	    strchr(gr->gr_host, '/') != NULL ||
	    (gr->gr_path[0] != '\0' && gr->gr_path[0] != '/') ||
	    gr->gr_header[0] == '\0' || framing_header(gr->gr_header) ||
	    gr->gr_secretlen == 0 || gr->gr_secretlen > 8192)
		abort();
	if (strtonum(gr->gr_port, 1, 65535, &errstr) == 0 || errstr != NULL)
		abort();
	for (i = 0; i < gr->gr_secretlen; i++)
		if (((unsigned char)gr->gr_secret[i] < 0x20 &&
		    gr->gr_secret[i] != '\t') || gr->gr_secret[i] == 0x7f)
			abort();
	for (o = TAILQ_NEXT(gr, gr_entry); o != NULL;
	    o = TAILQ_NEXT(o, gr_entry))
		if (strcmp(o->gr_id, gr->gr_id) == 0)
			abort();
	/* Never answered back (unless it is a piece of a fixed text). */
	if (memmem(reply, replylen, gr->gr_secret, gr->gr_secretlen) != NULL &&
	    memmem(canned, strlen(canned), gr->gr_secret,
	    gr->gr_secretlen) == NULL)
		abort();
}

static void
check_state(void)
{
	const struct gk_grant	*gr;
	char			 name[GK_NAME_MAX + 1];
	size_t			 i, n = 0;

	if (gk->gk_mode != GK_MODE_ALLOWLIST && gk->gk_mode != GK_MODE_OPEN)
		abort();
	for (i = 0; i < gk->gk_allow.al_count; i++) {
		if (gk_name_normalize(gk->gk_allow.al_names[i],
		    strlen(gk->gk_allow.al_names[i]), name, sizeof(name)) ==
		    -1 || strcmp(name, gk->gk_allow.al_names[i]) != 0)
			abort();
		if (i > 0 && strcmp(gk->gk_allow.al_names[i - 1],
		    gk->gk_allow.al_names[i]) >= 0)
			abort();
		if (!gk_allowlist_has(&gk->gk_allow, name))
			abort();
	}
	TAILQ_FOREACH(gr, &gk->gk_grants, gr_entry) {
		check_grant(gr);
		n++;
	}
	if (n > 256)
		abort();
}

/* Back to a fresh gatekeeper: what one input left must not leak. */
static void
reset(void)
{
	struct gk_grant	*gr;
	size_t		 i;

	while ((gr = TAILQ_FIRST(&gk->gk_grants)) != NULL) {
		TAILQ_REMOVE(&gk->gk_grants, gr, gr_entry);
		free(gr->gr_id);
		free(gr->gr_host);
		free(gr->gr_port);
		free(gr->gr_path);
		free(gr->gr_header);
		free(gr->gr_secret);
		free(gr);
	}
	for (i = 0; i < gk->gk_allow.al_count; i++)
		free(gk->gk_allow.al_names[i]);
	free(gk->gk_allow.al_names);
	gk->gk_allow.al_names = NULL;
	gk->gk_allow.al_count = 0;
	gk->gk_mode = GK_MODE_ALLOWLIST;
}

/* What the channel keeps, as text, to compare two runs. */
static char *
state_text(void)
{
	const struct gk_grant	*gr;
	char			*s = NULL;
	size_t			 len = 0, i;
	FILE			*f;

	if ((f = open_memstream(&s, &len)) == NULL)
		abort();
	fprintf(f, "mode %d\n", (int)gk->gk_mode);
	for (i = 0; i < gk->gk_allow.al_count; i++)
		fprintf(f, "allow %s\n", gk->gk_allow.al_names[i]);
	TAILQ_FOREACH(gr, &gk->gk_grants, gr_entry) {
		fprintf(f, "grant %s %d %s %s %s %s ", gr->gr_id, gr->gr_tls,
		    gr->gr_host, gr->gr_port, gr->gr_path, gr->gr_header);
		fwrite(gr->gr_secret, 1, gr->gr_secretlen, f);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		abort();
	return s;
}

/* One connection: size bytes written piece bytes at a time (0: all). */
static void
run(const uint8_t *data, size_t size, size_t piece)
{
	struct fuzz_gk_client	 c;

	control_accept(NULL, fuzz_gk_connect(&c, data, size, piece), NULL, 0,
	    NULL);
	if (gk->gk_conns[GK_CONTROL] != 1)
		abort();
	while (gk->gk_conns[GK_CONTROL] > 0)
		fuzz_gk_turn(&c);
	fuzz_gk_close(&c);
	check_answers();
	check_state();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 ready;
	char		*fast, *slow, *fastreply;
	size_t		 fastlen;

	if (!ready) {
		setup();
		ready = 1;
	}
	if (size == 0)
		return 0;
	run(data + 1, size - 1, 0);
	fast = state_text();
	if ((fastreply = malloc(replylen + 1)) == NULL)
		abort();
	memcpy(fastreply, reply, replylen);
	fastlen = replylen;
	reset();
	if (data[0] != 0) {
		run(data + 1, size - 1, data[0]);
		slow = state_text();
		if (strcmp(fast, slow) != 0 || fastlen != replylen ||
		    memcmp(fastreply, reply, replylen) != 0)
			abort();
		free(slow);
		reset();
	}
	free(fast);
	free(fastreply);
	return 0;
}
