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

static uint64_t
walk(int dirfd, dev_t dev, int depth)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	uint64_t	 sum = 0;
	int		 fd;

	if ((d = fdopendir(dirfd)) == NULL) {
		close(dirfd);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    st.st_dev != dev)
			continue;
		sum += (uint64_t)st.st_blocks * 512;
		if (!S_ISDIR(st.st_mode) || depth >= DISK_DEPTH_MAX ||
		    (fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) == -1)
			continue;
		sum += walk(fd, dev, depth + 1);
	}
	closedir(d);
	return sum;
}

static uint64_t
folder_bytes(const char *id, const char *leaf)
{
	char		 path[PATH_MAX];
	struct stat	 st;
	int		 fd;

	if (ns_path(path, sizeof(path), id, leaf) == -1 ||
	    (fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return 0;
	if (fstat(fd, &st) == -1) {
		close(fd);
		return 0;
	}
	return (uint64_t)st.st_blocks * 512 + walk(fd, st.st_dev, 0);
}

/* One record a native space of the installation, then DONE. */
void
ns_disk(uint32_t peerid, struct imsg *imsg)
{
	struct space_disk_req	 dq;
	struct space_disk	 sk;
	struct ns_space		 ns;
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
		sk.sk_used = folder_bytes(ns.ns_id, "work") +
		    folder_bytes(ns.ns_id, "home");
		ns_reply(IMSG_SPACE_DISK, peerid, &sk, sizeof(sk));
	}
	closedir(d);
	ns_done(peerid, "", NULL, -1);
}
