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
 * After a new fill, in the fill's child (thousands of unlinks, out of
 * spaced-ns's loop): the owner's tools folders of other keys.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ns.h"
#include "place_proto.h"
#include "tools_key.h"

/* Whether a running space has dir at /opt/spaced-tools (its inode). */
static int
folder_mounted(const struct stat *dir)
{
	char		 path[64];
	struct dirent	*de;
	struct stat	 st;
	pid_t		 init;
	DIR		*d;
	int		 found = 0;

	if ((d = opendir(ns_state())) == NULL)
		return 1;	/* not known: kept */
	while (!found && (de = readdir(d)) != NULL) {
		if (!space_id_valid(de->d_name) ||
		    (init = ns_pid_read(de->d_name, "init")) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/root" SPACE_TOOLS_DIR,
		    (int)init);
		/* A space that cannot be looked at keeps every folder. */
		if (stat(path, &st) == -1)
			found = errno != ENOENT;
		else
			found = st.st_dev == dir->st_dev &&
			    st.st_ino == dir->st_ino;
	}
	closedir(d);
	return found;
}

/*
 * After a new fill, as the Docker place prunes its volumes: the owner's
 * folders that are no profile's current one (tk) and that no running
 * space has mounted.  A stopped space takes the current tools at its
 * start.
 */
int
ns_tools_prune(const char *volume, const char *key,
    const struct tools_keep *tk)
{
	char		 dir[PATH_MAX], prefix[PATH_MAX];
	struct dirent	*de;
	struct stat	 st;
	size_t		 plen;
	DIR		*d;
	int		 n = 0;

	plen = strlen(volume) - strlen(key);
	if (plen >= sizeof(prefix) ||
	    strcmp(volume + plen, key) != 0 ||
	    (size_t)snprintf(dir, sizeof(dir), "%s/%s", ns_state(),
	    NS_TOOLS_DIR) >= sizeof(dir) || (d = opendir(dir)) == NULL)
		return 0;
	strlcpy(prefix, volume, plen + 1);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, plen) != 0 ||
		    strcmp(de->d_name, volume) == 0 ||
		    tools_keep_has(tk, de->d_name) ||
		    !tools_key_valid(de->d_name + plen) ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1 || !S_ISDIR(st.st_mode) ||
		    folder_mounted(&st))
			continue;
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%s/%s", ns_state(),
		    NS_TOOLS_DIR, de->d_name) < sizeof(dir) &&
		    ns_rm_tree(dir) == 0) {
			log_info("tools: %s pruned", de->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}
