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
 * The journal lines of a native space's gatekeeper, its stdout kept in
 * gk.log, streamed unread to spaced-journal as the Docker place streams
 * a container's log: bytes under credit, then the end, then DONE.  A
 * collection since a time gets what came then and after, no more.  The
 * relay's restart lines (relay.err, SPACE_LOGS_RELAY) the same way.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "proc.h"
#include "stream.h"
#include "ns.h"

struct lg {
	uint32_t		 peerid;
	char			 id[SPACE_ID_SIZE];
	const char		*leaf;	/* gk.log, or relay.err */
	int			 file;	/* the next of gk.log.4 ... gk.log */
	int			 fd;
	struct stream_tx	 tx;
	uint64_t		 sent;
	uint32_t		 since;	/* unix seconds; 0: everything */
};

static void
lg_end(struct lg *lg, const char *code, const char *msg)
{
	if (stream_tx_end(&lg->tx, &ns_channel()->ibuf,
	    code[0] == '\0' ? 0 : -1) == -1)
		fatal("%s: stream_tx_end", __func__);
	worker_stream_unregister(lg->tx.st_id);
	imsg_event_add(ns_channel());
	ns_done(lg->peerid, code, msg, -1);
	if (lg->fd != -1)
		close(lg->fd);
	free(lg);
}

/*
 * What of an open file since asks for: none of a file last changed
 * before it, gk.log from its running gatekeeper's cursor, else all.
 * 1 when the file is to be skipped.
 */
static int
lg_seek(struct lg *lg, int live)
{
	struct stat	 st;
	off_t		 off;

	if (lg->since == 0 || fstat(lg->fd, &st) == -1)
		return 0;
	if (st.st_mtim.tv_sec < (time_t)lg->since)
		return 1;
	if (live && (off = ns_gklog_since(lg->id, st.st_dev, st.st_ino,
	    lg->since)) > 0 && lseek(lg->fd, off, SEEK_SET) == -1)
		(void)lseek(lg->fd, 0, SEEK_SET);
	return 0;
}

/*
 * The next file there is, oldest first (gk.log.4 to .1, then gk.log),
 * as the Docker place's log holds its rotated files, from since on: 0,
 * or -1 at the end.
 */
static int
lg_next(struct lg *lg)
{
	char	 path[PATH_MAX], leaf[24];

	if (lg->fd != -1)
		close(lg->fd);
	lg->fd = -1;
	for (; lg->file >= 0 && lg->fd == -1; lg->file--) {
		if (lg->file == 0)
			strlcpy(leaf, lg->leaf, sizeof(leaf));
		else
			snprintf(leaf, sizeof(leaf), "%s.%d", lg->leaf,
			    lg->file);
		if (ns_path(path, sizeof(path), lg->id, leaf) == 0 &&
		    (lg->fd = open(path, O_RDONLY | O_CLOEXEC |
		    O_NOFOLLOW)) != -1 && lg_seek(lg, lg->file == 0)) {
			close(lg->fd);
			lg->fd = -1;
		}
	}
	return lg->fd == -1 ? -1 : 0;
}

/* As much as the credit allows; the end once the files are read. */
static void
lg_pump(struct lg *lg)
{
	uint8_t	 buf[STREAM_CHUNK];
	size_t	 want;
	ssize_t	 n;

	while (stream_tx_avail(&lg->tx) > 0) {
		want = stream_tx_avail(&lg->tx);
		if (want > sizeof(buf))
			want = sizeof(buf);
		if ((n = read(lg->fd, buf, want)) == -1) {
			if (errno == EINTR)
				continue;
			lg_end(lg, ERR_INTERNAL, "the log cannot be read");
			return;
		}
		if (n == 0 && lg_next(lg) == 0)
			continue;
		if (n == 0 || lg->sent + n > SPACE_LOGS_MAX) {
			lg_end(lg, "", NULL);
			return;
		}
		if (stream_tx_send(&lg->tx, &ns_channel()->ibuf, buf, n) == -1)
			fatal("%s: stream_tx_send", __func__);
		lg->sent += n;
	}
	imsg_event_add(ns_channel());
}

static void
lg_credit(struct imsgev *iev, struct imsg *imsg, void *arg)
{
	struct lg	*lg = arg;

	(void)iev;
	if (stream_tx_credit(&lg->tx, imsg) == -1)
		fatal("%s: credit", __func__);
	lg_pump(lg);
}

void
ns_logs_start(uint32_t peerid, struct imsg *imsg)
{
	struct space_logs_req	 sl;
	struct ns_space		 ns;
	struct lg		*lg;

	if (imsg_get_data(imsg, &sl, sizeof(sl)) == -1 ||
	    memchr(sl.sl_space.sq_owner, '\0', sizeof(sl.sl_space.sq_owner)) ==
	    NULL || memchr(sl.sl_space.sq_id, '\0',
	    sizeof(sl.sl_space.sq_id)) == NULL || sl.sl_stream == 0 ||
	    (sl.sl_what != SPACE_LOGS_GATEKEEPER &&
	    sl.sl_what != SPACE_LOGS_RELAY))
		fatalx("%s: malformed logs request", __func__);
	if ((lg = calloc(1, sizeof(*lg))) == NULL)
		fatal("%s: calloc", __func__);
	lg->peerid = peerid;
	lg->fd = -1;
	stream_tx_init(&lg->tx, sl.sl_stream);
	/*
	 * A full table is refused, not died of (ns_exec.c's nx_streams);
	 * the stream still ends, or the journal's ingest waits for it.  An
	 * id in use is another request's to end.
	 */
	if (worker_stream_register(sl.sl_stream, lg_credit, lg) == -1) {
		log_warnx("logs: stream %u: %s", sl.sl_stream,
		    strerror(errno));
		if (errno == ENOSPC) {
			lg_end(lg, ERR_BUSY, "spaced-ns carries as many "
			    "streams as it can now");
			return;
		}
		ns_done(peerid, ERR_INTERNAL, NULL, -1);
		free(lg);
		return;
	}
	if (ns_record_read(sl.sl_space.sq_id, &ns) == -1) {
		lg_end(lg, ERR_SPACE_NOT_FOUND, NULL);
		return;
	}
	if (strcmp(ns.ns_owner, sl.sl_space.sq_owner) != 0) {
		/* Another owner's space is no space of the caller's. */
		lg_end(lg, ERR_SPACE_NOT_FOUND, NULL);
		return;
	}
	strlcpy(lg->id, ns.ns_id, sizeof(lg->id));
	lg->since = sl.sl_since;
	lg->leaf = sl.sl_what == SPACE_LOGS_RELAY ? "relay.err" : "gk.log";
	lg->file = sl.sl_what == SPACE_LOGS_RELAY ? NS_RELAY_ERR_FILES - 1 :
	    NS_GK_LOG_FILES - 1;
	if (lg_next(lg) == -1) {
		/* no gatekeeper (relay) ever ran: no line yet */
		lg_end(lg, "", NULL);
		return;
	}
	lg_pump(lg);
}
