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
 * The mounts of a space's and a gatekeeper's root: the bind tables
 * (docs/privsep.md has each row's why), a /dev, and the pivot.  Run in
 * a child of spaced-ns, in its new mount namespace, as the host's root.
 */

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ns.h"

int
ns_mkdirs(const char *root, const char *path, mode_t mode)
{
	char	 p[PATH_MAX], *s;

	if ((size_t)snprintf(p, sizeof(p), "%s%s", root, path) >= sizeof(p))
		return -1;
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, mode) == -1 && errno != EEXIST ? -1 : 0;
}

/*
 * One row of a bind table: src at root/dst, read-only unless rw.  A
 * missing optional source is skipped; a symlink is copied as one.
 */
int
ns_bind(const char *root, const char *src, const char *dst, int rw, int opt)
{
	char		 target[PATH_MAX], link[PATH_MAX];
	struct stat	 st;
	ssize_t		 n;
	unsigned long	 fl = MS_BIND | MS_REC;
	int		 fd;

	if (lstat(src, &st) == -1)
		return opt ? 0 : -1;
	if ((size_t)snprintf(target, sizeof(target), "%s%s", root, dst) >=
	    sizeof(target))
		return -1;
	if (S_ISLNK(st.st_mode)) {
		if ((n = readlink(src, link, sizeof(link) - 1)) == -1)
			return -1;
		link[n] = '\0';
		return symlink(link, target) == -1 && errno != EEXIST ? -1 : 0;
	}
	if (S_ISDIR(st.st_mode)) {
		if (ns_mkdirs(root, dst, 0755) == -1)
			return -1;
	} else {
		char	 parent[PATH_MAX], *sl;

		strlcpy(parent, dst, sizeof(parent));
		if ((sl = strrchr(parent, '/')) != NULL && sl != parent) {
			*sl = '\0';
			if (ns_mkdirs(root, parent, 0755) == -1)
				return -1;
		}
		if ((fd = open(target, O_WRONLY | O_CREAT | O_CLOEXEC,
		    0644)) == -1)
			return -1;
		close(fd);
	}
	if (mount(src, target, NULL, fl, NULL) == -1)
		return -1;
	/* A device node is what a /dev row binds: nodev there only. */
	fl = MS_BIND | MS_REMOUNT | MS_NOSUID | (rw ? 0 : MS_RDONLY) |
	    (S_ISCHR(st.st_mode) ? 0 : MS_NODEV);
	if (mount(NULL, target, NULL, fl, NULL) == -1)
		return -1;
	return 0;
}

int
ns_tmpfs(const char *root, const char *dst, const char *opts, unsigned long fl)
{
	char	 target[PATH_MAX];

	if ((size_t)snprintf(target, sizeof(target), "%s%s", root, dst) >=
	    sizeof(target) || ns_mkdirs(root, dst, 0755) == -1)
		return -1;
	return mount("tmpfs", target, "tmpfs", fl | MS_NOSUID | MS_NODEV,
	    opts);
}

int
ns_write_file(const char *root, const char *path, const char *text)
{
	char	 p[PATH_MAX];
	int	 fd, rv = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s%s", root, path) >= sizeof(p) ||
	    (fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		rv = -1;
	close(fd);
	return rv;
}

/* The system both a space and a gatekeeper see: read-only, no more. */
static const struct sysbind {
	const char	*sb_path;
	int		 sb_optional;
} sys_binds[] = {
	{ "/usr", 0 },		/* programs and libraries */
	{ "/bin", 1 },		/* the host's links into /usr, or dirs */
	{ "/sbin", 1 },
	{ "/lib", 1 },
	{ "/lib64", 1 },
	{ "/etc/ld.so.cache", 1 },	/* the loader finds its libraries */
	{ "/etc/ld.so.conf", 1 },
	{ "/etc/ld.so.conf.d", 1 },
	{ "/etc/alternatives", 1 },	/* /usr/bin/awk and friends */
	{ "/etc/ssl", 1 },		/* CA certificates */
	{ "/etc/ca-certificates", 1 },
	{ "/etc/nsswitch.conf", 1 },
	{ NULL, 0 }
};

/*
 * The gatekeeper's: libraries and certificates, no program.  Like its
 * image, it has no shell, nothing an exec beside it could run but itself.
 */
static const struct sysbind gk_binds[] = {
	{ "/usr/lib", 0 },		/* its libraries */
	{ "/usr/lib64", 1 },		/* the loader, where it is there */
	{ "/lib", 1 },			/* the host's links into /usr */
	{ "/lib64", 1 },
	{ "/etc/ld.so.cache", 1 },
	{ "/etc/ssl", 1 },		/* CA certificates for its way out */
	{ "/etc/ca-certificates", 1 },
	{ "/usr/share/ca-certificates", 1 },	/* what /etc/ssl links to */
	{ "/etc/nsswitch.conf", 1 },
	{ "/etc/resolv.conf", 1 },	/* its names, resolved by evdns */
	{ "/etc/hosts", 1 },
	{ "/etc/gai.conf", 1 },
	{ NULL, 0 }
};

static int
binds(const char *root, const struct sysbind *table)
{
	const struct sysbind	*b;

	for (b = table; b->sb_path != NULL; b++)
		if (ns_bind(root, b->sb_path, b->sb_path, 0, b->sb_optional) ==
		    -1)
			return -1;
	return 0;
}

int
ns_binds_system(const char *root)
{
	return binds(root, sys_binds);
}

int
ns_binds_gatekeeper(const char *root)
{
	return binds(root, gk_binds);
}

/* /dev: a few character devices of the host's, nothing to open a disk. */
int
ns_dev_fill(const char *root)
{
	static const char *const devs[] = { "/dev/null", "/dev/zero",
	    "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", NULL };
	static const char *const links[][2] = { { "/dev/ptmx", "pts/ptmx" },
	    { "/dev/fd", "/proc/self/fd" }, { "/dev/stdin", "/proc/self/fd/0" },
	    { "/dev/stdout", "/proc/self/fd/1" },
	    { "/dev/stderr", "/proc/self/fd/2" }, { NULL, NULL } };
	char			 p[PATH_MAX];
	size_t			 i;

	if (ns_tmpfs(root, "/dev", "mode=0755,size=64k", MS_NOEXEC) == -1)
		return -1;
	for (i = 0; devs[i] != NULL; i++)
		if (ns_bind(root, devs[i], devs[i], 1, 1) == -1)
			return -1;
	snprintf(p, sizeof(p), "%s/dev/shm", root);
	if (ns_tmpfs(root, "/dev/shm", "mode=1777,size=64m", 0) == -1)
		return -1;
	snprintf(p, sizeof(p), "%s/dev/pts", root);
	if (mkdir(p, 0755) == 0)
		(void)mount("devpts", p, "devpts", MS_NOSUID | MS_NOEXEC,
		    "newinstance,ptmxmode=0666,mode=620");
	for (i = 0; links[i][0] != NULL; i++) {
		snprintf(p, sizeof(p), "%s%s", root, links[i][0]);
		if (symlink(links[i][1], p) == -1)
			return -1;
	}
	return 0;
}

/* The new root in place of the old, which is detached. */
int
ns_pivot(const char *root)
{
	if (chdir(root) == -1 ||
	    syscall(SYS_pivot_root, ".", ".") == -1 ||
	    umount2(".", MNT_DETACH) == -1 || chdir("/") == -1)
		return -1;
	return 0;
}
