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
 * The origins of spaces: the folder a space's code came from, so that
 * removing the space removes its ref there.  One dot file a space,
 * owner and folder (journal_stat counts none), the struct spaced sent,
 * renamed into place and read back only when whole and terminated.
 */

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "labels.h"
#include "log.h"
#include "proc.h"
#include "journal_worker.h"

/* FNV-1a: a name for the folder, not a secret. */
static uint64_t
dir_hash(const char *dir)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *dir != '\0'; dir++)
		h = (h ^ (unsigned char)*dir) * 0x100000001b3ULL;
	return h;
}

/* The name of jo's file, or with no folder the prefix of its space's. */
static int
origin_name(char *buf, size_t len, const struct journal_origin *jo,
    const char *prefix, int with_dir)
{
	int	 n;

	if (memchr(jo->jo_id, '\0', sizeof(jo->jo_id)) == NULL ||
	    !space_id_valid(jo->jo_id) ||
	    memchr(jo->jo_dir, '\0', sizeof(jo->jo_dir)) == NULL)
		return -1;
	if (with_dir)
		n = snprintf(buf, len, "%s%u-%s-%016llx", prefix,
		    (unsigned)jo->jo_uid, jo->jo_id,
		    (unsigned long long)dir_hash(jo->jo_dir));
	else
		n = snprintf(buf, len, "%s%u-%s-", prefix,
		    (unsigned)jo->jo_uid, jo->jo_id);
	return n < 0 || n >= (int)len ? -1 : 0;
}

static int
origin_set(const struct journal_origin *jo)
{
	char	 name[64], tmp[64];
	int	 fd;

	if (origin_name(name, sizeof(name), jo, ".origin-", 1) == -1 ||
	    origin_name(tmp, sizeof(tmp), jo, ".origin-tmp-", 1) == -1)
		return -1;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	if (write(fd, jo, sizeof(*jo)) != (ssize_t)sizeof(*jo) ||
	    fsync(fd) == -1) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	return rename(tmp, name);
}

/*
 * One origin of the space (the first found), into jo; how many it has,
 * or -1 for none.
 */
static int
origin_get(struct journal_origin *jo)
{
	struct journal_origin	 kept;
	struct dirent		*de;
	struct stat		 sb;
	DIR			*d;
	char			 prefix[64], name[NAME_MAX + 1];
	ssize_t			 n;
	int			 fd, count = 0;

	if (origin_name(prefix, sizeof(prefix), jo, ".origin-", 0) == -1 ||
	    (d = opendir(".")) == NULL)
		return -1;
	name[0] = '\0';
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 &&
		    count++ == 0)
			strlcpy(name, de->d_name, sizeof(name));
	closedir(d);
	if (name[0] == '\0' ||
	    (fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -1;
	n = fstat(fd, &sb) == 0 && sb.st_size == (off_t)sizeof(kept) ?
	    read(fd, &kept, sizeof(kept)) : -1;
	close(fd);
	if (n != (ssize_t)sizeof(kept) ||
	    memchr(kept.jo_dir, '\0', sizeof(kept.jo_dir)) == NULL ||
	    kept.jo_uid != jo->jo_uid ||
	    strncmp(kept.jo_id, jo->jo_id, sizeof(kept.jo_id)) != 0) {
		log_warnx("store: %s: not an origin", name);
		return -1;
	}
	memcpy(jo->jo_dir, kept.jo_dir, sizeof(jo->jo_dir));
	return count;
}

void
journal_origin(struct imsgev *iev, struct imsg *imsg)
{
	struct journal_origin	 jo;
	char			 name[64];
	int			 found = 0;

	if (imsg_get_data(imsg, &jo, sizeof(jo)) == -1)
		fatalx("%s: bad origin request", __func__);
	switch (imsg_get_type(imsg)) {
	case IMSG_JOURNAL_ORIGIN_SET:
		if (origin_set(&jo) == -1)
			log_warn("store: origin of %s", jo.jo_id);
		else
			found = 1;
		break;
	case IMSG_JOURNAL_ORIGIN_GET:
		if ((found = origin_get(&jo)) == -1)
			found = 0;
		break;
	case IMSG_JOURNAL_ORIGIN_DEL:
		if (origin_name(name, sizeof(name), &jo, ".origin-", 1) == 0 &&
		    unlink(name) == 0)
			found = 1;
		break;
	}
	if (!found)
		memset(jo.jo_dir, 0, sizeof(jo.jo_dir));
	jo.jo_found = found;
	imsg_compose_event(iev, IMSG_JOURNAL_ORIGIN, imsg_get_peerid(imsg), 0,
	    -1, &jo, sizeof(jo));
}
