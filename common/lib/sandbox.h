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

#ifndef SPACED_SANDBOX_H
#define SPACED_SANDBOX_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* A pledge-like confinement; failure to confine is fatal. */

#define SB_STDIO	0x0001	/* read/write/poll on fds it holds, memory, time */
#define SB_RECVFD	0x0002	/* recvmsg with SCM_RIGHTS */
#define SB_SENDFD	0x0004	/* sendmsg with SCM_RIGHTS */
#define SB_RPATH	0x0008	/* open read-only (Landlock narrows where) */
#define SB_WPATH	0x0010	/* open for writing, create, rename, unlink */
#define SB_INET		0x0020	/* socket/connect/bind/listen/accept (gatekeeper) */
#define SB_PROC		0x0040	/* parent only: fork, wait, kill */
#define SB_EXEC		0x0080	/* parent only: execve of a worker */
#define SB_UNIX		0x0100	/* socket(AF_UNIX, SOCK_STREAM), connect, accept4 */
#define SB_CHILD	0x0200	/* wait4 and kill a child forked before confinement */

/* A call allowed for a few argument values only (spaced: kill). */
#define SB_ARG_VALUES_MAX	8
struct sandbox_arg_rule {
	int		 sr_nr;		/* system call; -1 ends a list */
	unsigned int	 sr_arg;	/* which argument, 0..5 */
	size_t		 sr_nvalues;
	uint64_t	 sr_values[SB_ARG_VALUES_MAX];
};

/* A Landlock rule: rights beneath one path (or on one file). */
#define SB_LL_READ	0x01	/* read files; list directories */
#define SB_LL_REMOVE	0x02	/* remove files (not directories) beneath */
/* A rule holds an inode; /proc/<pid> gets a new one unless pinned. */
#define SB_LL_PIN	0x04
/* Every right sb_landlock_dir has, beneath a directory (a repository). */
#define SB_LL_WRITE	0x08
struct sandbox_path {
	const char	*sp_path;	/* NULL ends a list */
	unsigned int	 sp_access;	/* SB_LL_* */
};

struct sandbox_spec {
	const char	*sb_name;	/* for logs */
	unsigned int	 sb_groups;
	const int	*sb_extra;	/* more syscall numbers, -1 ends; or NULL */
	const char	*sb_landlock_dir;	/* read and write; NULL none */
	/* More Landlock rules, alongside sb_landlock_dir; or NULL. */
	const struct sandbox_path *sb_landlock_paths;
	int		 sb_landlock_optional;	/* Landlock not used (tests) */
	int		 sb_landlock_best_effort;	/* spaced only */
	int		 sb_landlock_signal_out;	/* spaced signals workers */
	/* Calls allowed for some argument values only, or NULL. */
	const struct sandbox_arg_rule *sb_args;
};

void	 sandbox_enter(const struct sandbox_spec *);
void	 sandbox_drop_privileges(const char *user, const char *chroot_dir);
const char *sandbox_fs_unheld(unsigned int groups, int landlock_abi,
	    int chrooted);
void	 sandbox_caps_limit(uint64_t keep, int setuid_fixup);
void	 sandbox_caps_limit_pass(uint64_t keep, int setuid_fixup,
	    uint64_t pass);
int	 sandbox_caps_hand(uint64_t caps);
int	 sandbox_drop_to_cwd(uid_t uid, gid_t gid);
/* Landlock ABI of the running kernel, 0 when it has none. */
int	 sandbox_landlock_abi(void);

/* Attempt the call an audit probe names; returns only if it was allowed. */
int	 sandbox_probe(int call);

#endif /* SPACED_SANDBOX_H */
