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
 * The restart lines of a space's relay, from the engine's log of the
 * space container.  Every byte is the space's: a line is a restart
 * only when it is exactly the relay's shape, and the time kept is the
 * engine's, which the space cannot write.  Pure (STYLE.md 18).
 */

#include <sys/types.h>

#include <stdio.h>
#include <string.h>

#include "restart_parse.h"

static int
digits(const char *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int
field(const char *s, size_t n)
{
	int	 v = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t	 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "2026-12-06T10:11:02.123Z" (JOURNAL_AT_LEN) as ms since the epoch. */
int
restart_at_ms(const char *at, int64_t *ms)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t			 i;
	int			 mo, d, h, mi, s;

	if (strlen(at) != JOURNAL_AT_LEN)
		return -1;
	for (i = 0; i < JOURNAL_AT_LEN; i++)
		if (shape[i] == 'd' ? !digits(at + i, 1) : at[i] != shape[i])
			return -1;
	mo = field(at + 5, 2);
	d = field(at + 8, 2);
	h = field(at + 11, 2);
	mi = field(at + 14, 2);
	s = field(at + 17, 2);
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    s > 60)
		return -1;
	*ms = ((days_from_civil(field(at, 4), mo, d) * 24 + h) * 60 + mi) *
	    60000 + (int64_t)s * 1000 + field(at + 20, 3);
	return 0;
}

/* A number of 1..9 digits, no leading zero but "0" itself. */
static int
number(const char **p, const char *end, uint32_t *out)
{
	const char	*s = *p;
	size_t		 n = 0;

	while (s + n < end && s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0 || n > 9 || (n > 1 && s[0] == '0'))
		return -1;
	*out = (uint32_t)field(s, n);
	*p = s + n;
	return 0;
}

/* The literal word w at *p. */
static int
word(const char **p, const char *end, const char *w)
{
	size_t	 n = strlen(w);

	if ((size_t)(end - *p) < n || memcmp(*p, w, n) != 0)
		return -1;
	*p += n;
	return 0;
}

/* The relay's own part, after the engine's time: restart_line.h. */
static int
relay_part(const char *p, const char *end, struct restart_rec *rr)
{
	size_t	 n;

	if (word(&p, end, RESTART_LINE_TAG) == -1 ||
	    number(&p, end, &rr->rr_n) == -1 || rr->rr_n == 0 ||
	    word(&p, end, " ") == -1)
		return -1;
	n = 0;
	while (p + n < end && p[n] != ' ' &&
	    strchr(RESTART_WHAT_CHARS, p[n]) != NULL)
		n++;
	if (n == 0 || n > RESTART_WHAT_MAX)
		return -1;
	memcpy(rr->rr_what, p, n);
	rr->rr_what[n] = '\0';
	p += n;
	if (word(&p, end, " signal ") == 0)
		strlcpy(rr->rr_how, "signal", sizeof(rr->rr_how));
	else if (word(&p, end, " fork ") == 0)
		strlcpy(rr->rr_how, "fork", sizeof(rr->rr_how));
	else
		return -1;
	if (number(&p, end, &rr->rr_code) == -1 ||
	    word(&p, end, " backoff ") == -1 ||
	    number(&p, end, &rr->rr_backoff) == -1 || p != end)
		return -1;
	return 0;
}

int
restart_line_parse(const char *line, size_t len, struct restart_rec *rr,
    const char **errstr)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:dd.dddddddddZ ";
	size_t			 i;

	memset(rr, 0, sizeof(*rr));
	*errstr = "not a restart line";
	if (len <= RESTART_ENGINE_TIME_LEN + 1 ||
	    len > RESTART_ENGINE_TIME_LEN + 1 + RESTART_LINE_MAX ||
	    memchr(line, '\0', len) != NULL)
		return -1;
	for (i = 0; i <= RESTART_ENGINE_TIME_LEN; i++)
		if (shape[i] == 'd' ? !digits(line + i, 1) :
		    line[i] != shape[i]) {
			*errstr = "not the engine's time";
			return -1;
		}
	/* To the millisecond, as every record of the chain. */
	memcpy(rr->rr_at, line, 23);
	rr->rr_at[23] = 'Z';
	rr->rr_at[24] = '\0';
	if (restart_at_ms(rr->rr_at, &rr->rr_ms) == -1) {
		*errstr = "not the engine's time";
		return -1;
	}
	if (relay_part(line + RESTART_ENGINE_TIME_LEN + 1, line + len,
	    rr) == -1)
		return -1;
	*errstr = NULL;
	return 0;
}

/* The chain's record of a restart: listener "server" (journal-schema.md). */
void
restart_entry(const struct restart_rec *rr, struct journal_entry *je)
{
	memset(je, 0, sizeof(*je));
	strlcpy(je->je_at, rr->rr_at, sizeof(je->je_at));
	strlcpy(je->je_listener, "server", sizeof(je->je_listener));
	strlcpy(je->je_host, rr->rr_what, sizeof(je->je_host));
	snprintf(je->je_decision, sizeof(je->je_decision),
	    "restart %u %s %u backoff %u", rr->rr_n, rr->rr_how, rr->rr_code,
	    rr->rr_backoff);
	je->je_count = 1;
}

/* What an event says of it. */
void
restart_detail(const struct restart_rec *rr, char *buf, size_t len)
{
	snprintf(buf, len, "%s restart %u %s %u backoff %u", rr->rr_what,
	    rr->rr_n, rr->rr_how, rr->rr_code, rr->rr_backoff);
}
