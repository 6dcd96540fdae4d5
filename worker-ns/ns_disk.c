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
 * The disk sweep of the native place: the bytes of each space's work
 * and home folders under the state directory.  A space writes them, so
 * the walk goes by fds (openat without following a link, on one
 * filesystem, fstatat of each entry): a swapped folder or a link takes
 * it nowhere else, and it reads no file's content.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "labels.h"
#include "log.h"
#include "ns.h"
#include "place_proto.h"

#define DISK_DEPTH_MAX		64	/* below it, folders count alone */
/*
 * The walk blocks spaced-ns: a space with more entries than this (about
 * a second's walk) is not measured further and counts as over any
 * limit, so that millions of empty files cannot stall the place.
 */
#define DISK_ENTRIES_MAX	2000000

struct walk_count {
	uint64_t	 bytes;
	size_t		 entries;
};

static void
walk(int dirfd, dev_t dev, int depth, struct walk_count *wc)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	int		 fd;

	if ((d = fdopendir(dirfd)) == NULL) {
		close(dirfd);
		return;
	}
	while (wc->entries < DISK_ENTRIES_MAX && (de = readdir(d)) != NULL) {
		wc->entries++;
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    st.st_dev != dev)
			continue;
		wc->bytes += (uint64_t)st.st_blocks * 512;
		if (!S_ISDIR(st.st_mode) || depth >= DISK_DEPTH_MAX ||
		    (fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1)
			continue;
		walk(fd, dev, depth + 1, wc);
	}
	closedir(d);
}

static void
folder_bytes(const char *id, const char *leaf, struct walk_count *wc)
{
	char		 path[PATH_MAX];
	struct stat	 st;
	int		 fd;

	if (ns_path(path, sizeof(path), id, leaf) == -1 ||
	    (fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &st) == -1) {
		close(fd);
		return;
	}
	wc->bytes += (uint64_t)st.st_blocks * 512;
	walk(fd, st.st_dev, 0, wc);
}

/* One record a native space of the installation, then DONE. */
void
ns_disk(uint32_t peerid, struct imsg *imsg)
{
	struct space_disk_req	 dq;
	struct space_disk	 sk;
	struct ns_space		 ns;
	struct walk_count	 wc;
	struct dirent		*de;
	DIR			*d;
	size_t			 ilen;

	if (imsg_get_data(imsg, &dq, sizeof(dq)) == -1 ||
	    memchr(dq.dq_install, '\0', sizeof(dq.dq_install)) == NULL ||
	    !install_id_valid(dq.dq_install))
		fatalx("%s: malformed request", __func__);
	ilen = strlen(dq.dq_install);
	if ((d = opendir(ns_state())) == NULL) {
		ns_done(peerid, "", NULL, -1);	/* no native space yet */
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!space_id_valid(de->d_name) ||
		    ns_record_read(de->d_name, &ns) == -1 ||
		    strncmp(ns.ns_owner, dq.dq_install, ilen) != 0 ||
		    ns.ns_owner[ilen] != ':')
			continue;
		memset(&sk, 0, sizeof(sk));
		strlcpy(sk.sk_id, ns.ns_id, sizeof(sk.sk_id));
		strlcpy(sk.sk_owner, ns.ns_owner, sizeof(sk.sk_owner));
		strlcpy(sk.sk_state, ns_alive(ns.ns_id, "init") ? "running" :
		    "exited", sizeof(sk.sk_state));
		memset(&wc, 0, sizeof(wc));
		folder_bytes(ns.ns_id, "work", &wc);
		folder_bytes(ns.ns_id, "home", &wc);
		sk.sk_used = wc.entries >= DISK_ENTRIES_MAX ? UINT64_MAX :
		    wc.bytes;
		ns_reply(IMSG_SPACE_DISK, peerid, &sk, sizeof(sk));
	}
	closedir(d);
	ns_done(peerid, "", NULL, -1);
}
