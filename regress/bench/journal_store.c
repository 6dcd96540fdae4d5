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
 * The journal store's rates, in a temp dir: gatekeeper lines parsed and
 * kept in the chain (fsynced batches), against a plain write of the
 * same lines with the same fsyncs (the honest baseline), then
 * --verify's walk of the chain against a plain read of the same files.
 * Prints the ratios, and the largest resident size.
 * usage: journal_store [records]  (default 1,000,000)
 */

#include <sys/resource.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gatekeeper/spaced-journal/journal_parse.h"
#include "gatekeeper/spaced-journal/store.h"

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
gk_line(char *buf, size_t len, long i)
{
	return snprintf(buf, len, "{\"at\":\"2026-12-06T04:00:00.000Z\","
	    "\"listener\":\"corridor\",\"host\":\"f%ld.flood.example\","
	    "\"port\":443,\"decision\":\"deny:not-on-allowlist\","
	    "\"boot\":1764993600000,\"seq\":%ld}", i, i);
}

int
main(int argc, char *argv[])
{
	static const uint8_t	 key[CHAIN_KEY_LEN] = { 1 };
	struct store_limits	 lim = store_limits_default;
	struct journal_verdict	 jv;
	struct journal_entry	 je;
	struct journal_cursor	 cur;
	struct store		 st;
	struct rusage		 ru;
	const char		*errstr;
	char			 dir[] = "/var/tmp/journal-bench.XXXXXX";
	char			 line[512], *buf, cmd[128];
	long			 n = argc > 1 ? atol(argv[1]) : 1000000, i;
	size_t			 blen = 0, cap = lim.sl_batch + 1024;
	double			 t0, keep, plain, walk, rd;
	int			 fd, len;

	if (mkdtemp(dir) == NULL || chdir(dir) == -1 ||
	    (buf = malloc(cap)) == NULL)
		return 1;
	/* Space for a million: no file dropped by the space's cap. */
	lim.sl_space = lim.sl_all = (off_t)1 << 40;
	t0 = now();
	if (store_open(&st, "b-0-aaaaaaaaaaaa", key, &lim) == -1)
		return 1;
	for (i = 0; i < n; i++) {
		len = gk_line(line, sizeof(line), i);
		if (journal_line_parse(line, len, &je, &cur, &errstr) == -1 ||
		    store_add(&st, &je, cur.jc_boot, cur.jc_seq) == -1)
			return 1;
	}
	if (store_commit(&st) == -1)
		return 1;
	store_close(&st);
	keep = now() - t0;
	/* The baseline: the same bytes written, fsynced a batch at a time. */
	t0 = now();
	if ((fd = open("plain", O_WRONLY | O_CREAT | O_APPEND, 0600)) == -1)
		return 1;
	for (i = 0; i < n; i++) {
		len = gk_line(line, sizeof(line), i);
		if (blen + len + 1 > lim.sl_batch) {
			if (write(fd, buf, blen) != (ssize_t)blen || fsync(fd))
				return 1;
			blen = 0;
		}
		memcpy(buf + blen, line, len);
		buf[blen + len] = '\n';
		blen += len + 1;
	}
	if (write(fd, buf, blen) != (ssize_t)blen || fsync(fd) == -1)
		return 1;
	close(fd);
	plain = now() - t0;
	t0 = now();
	store_verify("b-0-aaaaaaaaaaaa", key, &jv);
	walk = now() - t0;
	if (jv.jv_status != 0 || jv.jv_records < (uint64_t)n) {
		fprintf(stderr, "verify: %s\n", jv.jv_reason);
		return 1;
	}
	t0 = now();
	if (system("cat b-0-aaaaaaaaaaaa.journal* >/dev/null") != 0)
		return 1;
	rd = now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	printf("journal store, %ld records (%u files):\n", n, jv.jv_segments);
	printf("  kept:   %.0f records/s (%.2f s); plain write %.2f s: "
	    "%.1fx\n", n / keep, keep, plain, keep / plain);
	printf("  verify: %.2f s (%.0f records/s); plain read %.2f s: "
	    "%.1fx\n", walk, n / walk, rd, walk / rd);
	printf("  largest resident size: %ld KiB\n", ru.ru_maxrss);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : 1;
}
