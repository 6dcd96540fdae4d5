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
 * The Landlock half of sandbox_enter(): a supplement to seccomp, used
 * at the ABI the running kernel has, and never a replacement for it.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/landlock.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"
#include "sandbox_int.h"

/*
 * Landlock constants newer than the installed <linux/landlock.h>
 * (Debian 12 ships ABI 2 headers; the kernel may be far ahead).
 */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER		(1ULL << 13)	/* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE		(1ULL << 14)	/* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV		(1ULL << 15)	/* ABI 5 */
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP		(1ULL << 0)	/* ABI 4 */
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
#define LANDLOCK_ACCESS_NET_CONNECT_TCP		(1ULL << 1)	/* ABI 4 */
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET	(1ULL << 0)	/* ABI 6 */
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL			(1ULL << 1)	/* ABI 6 */
#endif

/* Every filesystem right of ABI 1 (EXECUTE .. MAKE_SYM). */
#define SB_LL_FS_ABI1	((1ULL << 13) - 1)

/*
 * The kernel's struct landlock_ruleset_attr as of ABI 6; the installed
 * header only knows the first member.  The size passed tells the kernel
 * which members we mean.
 */
struct sb_ruleset_attr {
	uint64_t	 ra_handled_access_fs;
	uint64_t	 ra_handled_access_net;	/* ABI 4 */
	uint64_t	 ra_scoped;		/* ABI 6 */
};

static int	 sb_landlock_logged;

int
sandbox_landlock_abi(void)
{
	int	 abi;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : abi;
}

/* The filesystem rights the running ABI knows. */
static uint64_t
sb_landlock_fs_rights(int abi)
{
	uint64_t	 rights = SB_LL_FS_ABI1;

	if (abi >= 2)
		rights |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return rights;
}

/*
 * Why a process with these groups would not be held on the filesystem,
 * or NULL when it is: seccomp alone holds one without SB_RPATH/SB_WPATH;
 * with them, Landlock (an ABI > 0) or a chroot must.  Pure.
 */
const char *
sandbox_fs_unheld(unsigned int groups, int landlock_abi, int chrooted)
{
	if ((groups & (SB_RPATH | SB_WPATH)) == 0)
		return NULL;	/* seccomp refuses every path */
	if (landlock_abi > 0 || chrooted)
		return NULL;
	return "file access that neither Landlock (the kernel has none) "
	    "nor a chroot can hold";
}

/* The rights of one sandbox_path, as far as the file type takes them. */
static void
sb_landlock_path(const struct sandbox_spec *spec, int rfd,
    const struct sandbox_path *sp, uint64_t handled)
{
	struct landlock_path_beneath_attr pb;
	struct stat			 st;
	uint64_t			 access = 0;
	int				 dir;

	memset(&pb, 0, sizeof(pb));
	if ((pb.parent_fd = open(sp->sp_path, O_PATH | O_CLOEXEC)) == -1 ||
	    fstat(pb.parent_fd, &st) == -1)
		fatal("%s: %s: %s", __func__, spec->sb_name, sp->sp_path);
	dir = S_ISDIR(st.st_mode);
	/* A file takes file rights only (EINVAL otherwise). */
	if (sp->sp_access & SB_LL_READ)
		access |= LANDLOCK_ACCESS_FS_READ_FILE |
		    (dir ? LANDLOCK_ACCESS_FS_READ_DIR : 0);
	if ((sp->sp_access & SB_LL_REMOVE) && dir)
		access |= LANDLOCK_ACCESS_FS_REMOVE_FILE;
	if ((sp->sp_access & SB_LL_WRITE) && dir)
		access |= handled;
	pb.allowed_access = access & handled;
	if (pb.allowed_access != 0 && syscall(SYS_landlock_add_rule, rfd,
	    LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == -1)
		fatal("%s: %s: landlock_add_rule %s", __func__,
		    spec->sb_name, sp->sp_path);
	if ((sp->sp_access & SB_LL_PIN) == 0)
		close(pb.parent_fd);
}

/* Returns the ABI in force, 0 when the kernel has no Landlock. */
int
sb_landlock(const struct sandbox_spec *spec)
{
	struct sb_ruleset_attr		 attr;
	struct landlock_path_beneath_attr pb;
	const struct sandbox_path	*sp;
	size_t				 attr_size;
	int				 abi, rfd;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0) {
		if (errno != ENOSYS && errno != EOPNOTSUPP)
			fatal("%s: %s: landlock version", __func__,
			    spec->sb_name);
		/* A supplement: seccomp still confines. */
		if (!sb_landlock_logged++)
			log_info("%s: landlock not available, seccomp only",
			    spec->sb_name);
		return 0;
	}

	memset(&attr, 0, sizeof(attr));
	attr.ra_handled_access_fs = sb_landlock_fs_rights(abi);
	attr_size = sizeof(attr.ra_handled_access_fs);
	if (abi >= 4) {
		/* No TCP bind or connect without SB_INET. */
		if ((spec->sb_groups & SB_INET) == 0)
			attr.ra_handled_access_net =
			    LANDLOCK_ACCESS_NET_BIND_TCP |
			    LANDLOCK_ACCESS_NET_CONNECT_TCP;
		attr_size = offsetof(struct sb_ruleset_attr, ra_scoped);
	}
	if (abi >= 6) {
		/*
		 * No abstract UNIX sockets and no signals out of the
		 * domain.  Workers never signal anyone; the supervisor,
		 * outside any domain, can still signal them, and kernel
		 * signals (SIGCHLD to the parent) are not scoped.
		 */
		attr.ra_scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
		/* A parent whose children are outside its domain must signal. */
		if (!spec->sb_landlock_signal_out && !(spec->sb_groups & SB_CHILD))
			attr.ra_scoped |= LANDLOCK_SCOPE_SIGNAL;
		attr_size = sizeof(attr);
	}

	if ((rfd = syscall(SYS_landlock_create_ruleset, &attr, attr_size,
	    0)) == -1)
		fatal("%s: %s: landlock_create_ruleset", __func__,
		    spec->sb_name);

	/* NULL: no rule, so every handled filesystem access is denied. */
	if (spec->sb_landlock_dir != NULL) {
		memset(&pb, 0, sizeof(pb));
		pb.allowed_access = attr.ra_handled_access_fs;
		pb.parent_fd = open(spec->sb_landlock_dir,
		    O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (pb.parent_fd == -1)
			fatal("%s: %s: %s", __func__, spec->sb_name,
			    spec->sb_landlock_dir);
		if (syscall(SYS_landlock_add_rule, rfd,
		    LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == -1)
			fatal("%s: %s: landlock_add_rule %s", __func__,
			    spec->sb_name, spec->sb_landlock_dir);
		close(pb.parent_fd);
	}
	if (spec->sb_landlock_paths != NULL)
		for (sp = spec->sb_landlock_paths; sp->sp_path != NULL; sp++)
			sb_landlock_path(spec, rfd, sp,
			    attr.ra_handled_access_fs);

	if (syscall(SYS_landlock_restrict_self, rfd, 0) == -1)
		fatal("%s: %s: landlock_restrict_self", __func__,
		    spec->sb_name);
	close(rfd);
	log_debug("%s: landlock abi %d, %s", spec->sb_name, abi,
	    spec->sb_landlock_dir != NULL ? spec->sb_landlock_dir : "no fs");
	return abi;
}
