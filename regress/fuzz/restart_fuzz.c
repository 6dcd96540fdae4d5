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
 * fuzz-link: gatekeeper/spaced-journal/restart_parse.c gatekeeper/spaced-journal/journal_parse.c gatekeeper/spaced-journal/chain.c gatekeeper/spaced-relay/relay_parse.c common/proto/labels.c common/lib/log.c
 *
 * The input is a space container's stderr as spaced-journal takes it
 * (the engine's time before each line; the bytes the space's): split
 * into lines, each parsed as the relay's restart line.  Invariants: a
 * line taken has its fields within their caps, its time in ms is the
 * same both ways, its record is a valid one of listener "server" that
 * the chain keeps unchanged, and the relay's own line for the same
 * fields is the line taken.  The first bytes also drive the relay's
 * formatter, whose every line the parser takes back.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gatekeeper/spaced-journal/restart_parse.h"
#include "gatekeeper/spaced-journal/journal_parse.h"
#include "gatekeeper/spaced-journal/chain.h"
#include "gatekeeper/spaced-relay/relay.h"

#define CHECK(x)	do { if (!(x)) abort(); } while (0)
#define ENGINE_TIME	"2026-12-06T10:11:02.123456789Z "

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const uint8_t	 key[CHAIN_KEY_LEN] = { 7 };

static void
one_line(const char *line, size_t len, void *arg)
{
	struct restart_rec	 rr;
	struct journal_entry	 je;
	struct chain_rec	 cr, back;
	const char		*errstr;
	char			 out[CHAIN_LINE_MAX + 1], relay[RESTART_LINE_MAX];
	int64_t			 ms;
	uint8_t			 prev[CHAIN_MAC_LEN] = { 0 };
	int			 n;

	if (restart_line_parse(line, len, &rr, &errstr) == -1) {
		CHECK(errstr != NULL);
		return;
	}
	(*(uint64_t *)arg)++;
	CHECK(len <= RESTART_ENGINE_TIME_LEN + 1 + RESTART_LINE_MAX);
	CHECK(rr.rr_n >= 1 && rr.rr_n <= RESTART_COUNT_MAX &&
	    rr.rr_code <= RESTART_COUNT_MAX &&
	    rr.rr_backoff <= RESTART_COUNT_MAX);
	CHECK(strlen(rr.rr_what) >= 1 && strlen(rr.rr_what) <=
	    RESTART_WHAT_MAX &&
	    rr.rr_what[strspn(rr.rr_what, RESTART_WHAT_CHARS)] == '\0');
	CHECK(strcmp(rr.rr_how, "signal") == 0 ||
	    strcmp(rr.rr_how, "fork") == 0);
	CHECK(restart_at_ms(rr.rr_at, &ms) == 0 && ms == rr.rr_ms);
	/* The same line, from its fields: nothing else was taken. */
	n = snprintf(relay, sizeof(relay), "%s%u %s %s %u backoff %u",
	    RESTART_LINE_TAG, rr.rr_n, rr.rr_what, rr.rr_how, rr.rr_code,
	    rr.rr_backoff);
	CHECK(n > 0 && (size_t)n == len - RESTART_ENGINE_TIME_LEN - 1 &&
	    memcmp(relay, line + RESTART_ENGINE_TIME_LEN + 1, n) == 0);
	restart_entry(&rr, &je);
	CHECK(journal_entry_valid(&je, &errstr) == 0);
	CHECK(strcmp(je.je_listener, "server") == 0 && je.je_count == 1);
	memset(&cr, 0, sizeof(cr));
	cr.cr_entry = je;
	CHECK(chain_fmt(key, prev, &cr, out, sizeof(out)) == 0);
	CHECK(chain_scan(out, strlen(out), &back, &errstr) == 0);
	CHECK(memcmp(&cr, &back, sizeof(cr)) == 0);
}

/* The relay's line for fields the input picks: always taken back. */
static void
relay_round(const uint8_t *data, size_t size)
{
	struct restart_rec	 rr;
	const char		*errstr;
	char			 name[48], line[RESTART_LINE_MAX];
	char			 full[sizeof(ENGINE_TIME) + RESTART_LINE_MAX];
	unsigned int		 n, backoff;
	int			 sig, fork_errno, len;

	if (size < 12)
		return;
	n = (data[0] | data[1] << 8) + 1;
	sig = 1 + data[2] % 31;
	fork_errno = data[3] & 1 ? data[4] : 0;
	backoff = data[5];
	memset(name, 0, sizeof(name));
	memcpy(name, data + 6, size - 6 < sizeof(name) - 1 ? size - 6 :
	    sizeof(name) - 1);
	if ((len = relay_restart_line(line, sizeof(line), n, name,
	    W_EXITCODE(0, sig), fork_errno, backoff)) == -1)
		return;
	CHECK(len > 0 && line[len - 1] == '\n');
	snprintf(full, sizeof(full), "%s%.*s", ENGINE_TIME, len - 1, line);
	CHECK(restart_line_parse(full, strlen(full), &rr, &errstr) == 0);
	CHECK(rr.rr_n == n && rr.rr_backoff == backoff);
	CHECK(rr.rr_code == (unsigned int)(fork_errno != 0 ? fork_errno :
	    sig));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_splitter	 js;
	uint64_t		 taken = 0;

	journal_split_init(&js);
	journal_split(&js, data, size, one_line, &taken);
	journal_split_end(&js, one_line, &taken);
	relay_round(data, size);
	return 0;
}
