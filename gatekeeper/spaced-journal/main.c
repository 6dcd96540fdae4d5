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
 * spaced-journal: keeps the journals of what spaces tried to reach.  It
 * takes a gatekeeper's log as a stream from the place, keeps its
 * records in the store (journal.c) and answers them, and says how much
 * its store holds.
 */

#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <string.h>

#include "log.h"
#include "proc.h"
#include "journal_worker.h"

static void
journal_stat(struct journal_stat_msg *js)
{
	struct dirent	*de;
	struct stat	 sb;
	DIR		*dir;

	memset(js, 0, sizeof(*js));
	if ((dir = opendir(".")) == NULL) {
		log_warn("store");
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(dir), de->d_name, &sb, AT_SYMLINK_NOFOLLOW)
		    == -1 || !S_ISREG(sb.st_mode))
			continue;
		js->js_records++;
		js->js_bytes += sb.st_size;
	}
	closedir(dir);
}

static void
journal_dispatch(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_stat_msg	 js;

	switch (imsg_get_type(imsg)) {
	case IMSG_JOURNAL_STAT_REQ:
		if (imsg_get_len(imsg) != 0)
			fatalx("%s: bad stat request", __func__);
		journal_stat(&js);
		imsg_compose_event(iev, IMSG_JOURNAL_STAT_REP,
		    imsg_get_peerid(imsg), 0, -1, &js, sizeof(js));
		break;
	case IMSG_JOURNAL_INGEST_REQ:
		journal_ingest(iev, imsg);
		break;
	case IMSG_JOURNAL_READ_REQ:
		journal_read(iev, imsg);
		break;
	case IMSG_JOURNAL_STORES_REQ:
		journal_stores(iev, imsg);
		break;
	case IMSG_JOURNAL_ORIGIN_SET:
	case IMSG_JOURNAL_ORIGIN_GET:
	case IMSG_JOURNAL_ORIGIN_DEL:
		journal_origin(iev, imsg);
		break;
	case IMSG_JOURNAL_SERVER_REQ:
	case IMSG_JOURNAL_SERVER_EXIT:
		journal_server(iev, imsg);
		break;
	case IMSG_JOURNAL_CODEOUT:
		journal_codeout(imsg);
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__, imsg_get_type(imsg));
	}
}

static const struct worker journal_worker = {
	.w_id = PROC_JOURNAL,
	.w_sandbox = &journal_sandbox,
	.w_prewarm = NULL,
	.w_dispatch = journal_dispatch,
	.w_cancel = journal_cancel,
};

int
main(int argc, char *argv[])
{
	worker_main(argc, argv, &journal_worker);
}
