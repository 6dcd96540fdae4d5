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
 * The journal store: one file a space and an owner, the owner spaced's
 * and in its name, so one user's records are never another's.  An
 * ingest keeps what the store lacks of a gatekeeper's whole log
 * (docs/notes/spaced-journal-store.md).
 */

#include <sys/types.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "journal_env.h"
#include "journal_parse.h"
#include "journal_worker.h"

#define STORE_RECORDS_MAX	200000		/* a space */
#define STORE_FILE_MAX		(STORE_RECORDS_MAX * (JOURNAL_KEY_MAX + 1))

struct ingest {
	TAILQ_ENTRY(ingest)	 in_entry;
	uint32_t		 in_peerid;
	struct stream_rx	 in_rx;
	int			 in_rx_open;
	char			 in_path[128];
	struct journal_seen	*in_seen;
	char			**in_order;	/* the records, in order */
	size_t			 in_norder, in_cap;
	char			*in_new;	/* lines to append */
	size_t			 in_new_len, in_new_cap;
	off_t			 in_good;	/* the store's whole lines */
	off_t			 in_size;
	struct journal_splitter	 in_split;
	struct journal_counts	 in_counts;
	int			 in_ingested;
};

static struct ingest *
ingest_find(uint32_t peerid)
{
	struct ingest	*in;

	TAILQ_FOREACH(in, &env->je_ingests, in_entry)
		if (in->in_peerid == peerid)
			return in;
	return NULL;
}

static void
ingest_free(struct ingest *in)
{
	size_t	 i;

	TAILQ_REMOVE(&env->je_ingests, in, in_entry);
	if (in->in_rx_open)
		worker_stream_unregister(in->in_rx.sr_id);
	journal_seen_free(in->in_seen);
	for (i = 0; i < in->in_norder; i++)
		free(in->in_order[i]);
	free(in->in_order);
	free(in->in_new);
	free(in);
}

static void
order_add(struct ingest *in, const char *key)
{
	char	**o;

	if (in->in_norder == in->in_cap) {
		in->in_cap = in->in_cap == 0 ? 256 : in->in_cap * 2;
		if ((o = reallocarray(in->in_order, in->in_cap,
		    sizeof(*o))) == NULL)
			fatal("%s", __func__);
		in->in_order = o;
	}
	if ((in->in_order[in->in_norder++] = strdup(key)) == NULL)
		fatal("%s", __func__);
}

/* The store's lines so far: the multiset and the order. */
static void
store_load(struct ingest *in)
{
	struct journal_entry	 je;
	struct stat		 sb;
	const char		*errstr;
	char			*buf, *p, *nl, *end;
	ssize_t			 n;
	size_t			 got = 0;
	uint64_t		 bad = 0;
	int			 fd;

	if ((fd = open(in->in_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) ==
	    -1) {
		if (errno != ENOENT)
			log_warn("store: %s", in->in_path);
		return;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > STORE_FILE_MAX) {
		log_warnx("store: %s: not a journal file", in->in_path);
		close(fd);
		return;
	}
	if ((buf = malloc(sb.st_size + 1)) == NULL)
		fatal("%s", __func__);
	while (got < (size_t)sb.st_size &&
	    (n = read(fd, buf + got, sb.st_size - got)) > 0)
		got += n;
	close(fd);
	in->in_size = got;
	end = buf + got;
	for (p = buf; p < end && (nl = memchr(p, '\n', end - p)) != NULL;
	    p = nl + 1) {
		*nl = '\0';
		if (journal_entry_scan(p, nl - p, &je, &errstr) == -1) {
			bad++;
			continue;
		}
		if (journal_seen_stored(in->in_seen, p) == -1)
			fatal("%s", __func__);
		order_add(in, p);
	}
	in->in_good = p - buf;
	if (bad > 0)
		log_warnx("store: %s: %llu unreadable lines", in->in_path,
		    (unsigned long long)bad);
	free(buf);
}

/* The new lines go to the end of the store, whole, durably. */
static int
store_append(struct ingest *in)
{
	ssize_t	 n;
	size_t	 done = 0;
	int	 fd, dfd, created;

	if (in->in_new_len == 0)
		return 0;
	created = in->in_size == 0;
	if ((fd = open(in->in_path, O_WRONLY | O_CREAT | O_APPEND |
	    O_NOFOLLOW | O_CLOEXEC, 0600)) == -1) {
		log_warn("store: %s", in->in_path);
		return -1;
	}
	/* Half a line left by a crash goes before the next one. */
	if (in->in_good != in->in_size && ftruncate(fd, in->in_good) == -1) {
		log_warn("store: %s: truncate", in->in_path);
		close(fd);
		return -1;
	}
	while (done < in->in_new_len) {
		if ((n = write(fd, in->in_new + done, in->in_new_len - done))
		    == -1) {
			if (errno == EINTR)
				continue;
			log_warn("store: %s: write", in->in_path);
			break;
		}
		done += n;
	}
	if (done < in->in_new_len || fsync(fd) == -1) {
		if (done == in->in_new_len)
			log_warn("store: %s: fsync", in->in_path);
		/* Whatever was half written is cut at the next load. */
		close(fd);
		return -1;
	}
	close(fd);
	/* A new file's name must survive a crash too. */
	if (created && (dfd = open(".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) != -1) {
		if (fsync(dfd) == -1)
			log_warn("store: fsync of the store");
		close(dfd);
	}
	return 0;
}

static void
ingest_line(const char *line, size_t len, void *arg)
{
	struct ingest		*in = arg;
	struct journal_entry	 je;
	const char		*errstr;
	char			 key[JOURNAL_KEY_MAX];
	size_t			 n, cap;
	char			*p;
	int			 rv;

	in->in_counts.jc_lines++;
	if (journal_line_parse(line, len, &je, &errstr) == -1 ||
	    journal_entry_fmt(&je, key, sizeof(key)) == -1) {
		in->in_counts.jc_malformed++;
		return;
	}
	if ((rv = journal_seen_take(in->in_seen, key)) == -1)
		fatal("%s", __func__);
	if (rv == 0)
		return;
	if (in->in_norder >= STORE_RECORDS_MAX) {
		in->in_counts.jc_dropped++;
		return;
	}
	order_add(in, key);
	in->in_counts.jc_new++;
	n = strlen(key);
	if (in->in_new_len + n + 1 > in->in_new_cap) {
		cap = in->in_new_cap == 0 ? 64 * 1024 : in->in_new_cap * 2;
		while (cap < in->in_new_len + n + 1)
			cap *= 2;
		if ((p = realloc(in->in_new, cap)) == NULL)
			fatal("%s", __func__);
		in->in_new = p;
		in->in_new_cap = cap;
	}
	memcpy(in->in_new + in->in_new_len, key, n);
	in->in_new[in->in_new_len + n] = '\n';
	in->in_new_len += n + 1;
}

static void
ingest_end(struct imsgev *iev, struct ingest *in)
{
	struct journal_counts	*jc = &in->in_counts;

	worker_stream_unregister(in->in_rx.sr_id);
	in->in_rx_open = 0;
	journal_split_end(&in->in_split, ingest_line, in);
	jc->jc_dropped += in->in_split.js_dropped;
	/* A log that did not come whole, or a store that failed: none kept. */
	if (in->in_rx.sr_status != 0 || store_append(in) == -1) {
		jc->jc_status = -1;
		for (; jc->jc_new > 0; jc->jc_new--)
			free(in->in_order[--in->in_norder]);
	}
	jc->jc_records = in->in_norder;
	in->in_ingested = 1;
	if (jc->jc_new > 0 || jc->jc_malformed > 0 || jc->jc_dropped > 0)
		log_info("journal: %s: %llu lines, %llu new, %llu malformed, "
		    "%llu dropped", in->in_path,
		    (unsigned long long)jc->jc_lines,
		    (unsigned long long)jc->jc_new,
		    (unsigned long long)jc->jc_malformed,
		    (unsigned long long)jc->jc_dropped);
	imsg_compose_event(iev, IMSG_JOURNAL_INGESTED, in->in_peerid, 0, -1,
	    jc, sizeof(*jc));
}

static void
ingest_stream(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct ingest	*in = arg;
	const uint8_t	*data;
	size_t		 len;

	switch (imsg_get_type(imsg)) {
	case IMSG_STREAM_DATA:
		if (stream_rx_data(&in->in_rx, imsg, &data, &len) == -1)
			fatal("%s: data", __func__);
		journal_split(&in->in_split, data, len, ingest_line, in);
		if (stream_rx_consumed(&in->in_rx, &iev->ibuf, len) == -1)
			fatal("%s: credit", __func__);
		imsg_event_add(iev);
		break;
	case IMSG_STREAM_END:
		if (stream_rx_end(&in->in_rx, imsg) == -1)
			fatal("%s: end", __func__);
		ingest_end(iev, in);
		break;
	default:
		fatalx("%s: message %u on a log stream", __func__,
		    imsg_get_type(imsg));
	}
}

void
journal_ingest(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_ingest_req	 ji;
	struct ingest			*in;
	const char			*colon;
	int				 n;

	if (imsg_get_data(imsg, &ji, sizeof(ji)) == -1 ||
	    memchr(ji.ji_owner, '\0', sizeof(ji.ji_owner)) == NULL ||
	    memchr(ji.ji_id, '\0', sizeof(ji.ji_id)) == NULL ||
	    !space_owner_valid(ji.ji_owner) || !space_id_valid(ji.ji_id) ||
	    ji.ji_stream == 0 || ji.ji_reserved != 0 || ji.ji_pad[0] != 0 ||
	    ji.ji_pad[1] != 0)
		fatalx("%s: bad ingest request", __func__);
	if (ingest_find(imsg_get_peerid(imsg)) != NULL)
		fatalx("%s: request %u ingests twice", __func__,
		    imsg_get_peerid(imsg));
	if ((in = calloc(1, sizeof(*in))) == NULL ||
	    (in->in_seen = journal_seen_new()) == NULL)
		fatal("%s", __func__);
	in->in_peerid = imsg_get_peerid(imsg);
	/* Hex, ':' and digits: "<install>-<uid>-<id>" names one owner. */
	colon = strchr(ji.ji_owner, ':');
	n = snprintf(in->in_path, sizeof(in->in_path), "%.*s-%s-%s.journal",
	    (int)(colon - ji.ji_owner), ji.ji_owner, colon + 1, ji.ji_id);
	if (n < 0 || (size_t)n >= sizeof(in->in_path))
		fatalx("%s: store name", __func__);
	journal_split_init(&in->in_split);
	TAILQ_INSERT_TAIL(&env->je_ingests, in, in_entry);
	store_load(in);
	stream_rx_init(&in->in_rx, ji.ji_stream);
	if (worker_stream_register(ji.ji_stream, ingest_stream, in) == -1)
		fatalx("%s: stream %u", __func__, ji.ji_stream);
	in->in_rx_open = 1;
}

void
journal_read(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_read_req	 jq;
	struct journal_entry	 je;
	struct journal_counts	 jc;
	struct ingest		*in;
	const char		*errstr;
	size_t			 i;

	if (imsg_get_data(imsg, &jq, sizeof(jq)) == -1 || jq.jq_max == 0 ||
	    jq.jq_max > JOURNAL_READ_MAX || jq.jq_reserved != 0)
		fatalx("%s: bad read request", __func__);
	if ((in = ingest_find(imsg_get_peerid(imsg))) == NULL ||
	    !in->in_ingested)
		fatalx("%s: read for request %u, which ingested nothing",
		    __func__, imsg_get_peerid(imsg));
	jc = in->in_counts;
	jc.jc_from = jq.jq_from;
	for (i = jq.jq_from; i < in->in_norder && jc.jc_sent < jq.jq_max;
	    i++) {
		if (journal_entry_scan(in->in_order[i],
		    strlen(in->in_order[i]), &je, &errstr) == -1)
			fatalx("%s: a stored record: %s", __func__, errstr);
		imsg_compose_event(iev, IMSG_JOURNAL_RECORD, in->in_peerid, 0,
		    -1, &je, sizeof(je));
		jc.jc_sent++;
	}
	imsg_compose_event(iev, IMSG_JOURNAL_DONE, in->in_peerid, 0, -1, &jc,
	    sizeof(jc));
	ingest_free(in);
}

int
journal_cancel(uint32_t peerid)
{
	struct ingest	*in;

	if ((in = ingest_find(peerid)) == NULL)
		return journal_server_cancel(peerid);
	ingest_free(in);
	return 1;
}
