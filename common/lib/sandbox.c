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
 * Confinement of a process: no_new_privs, then Landlock (a supplement,
 * used where the kernel has it), then a libseccomp allowlist whose
 * default action kills the whole process.  See docs/privsep-sandbox.md
 * for the promise groups.
 */

#if !defined(__x86_64__)
#error "sandbox.c: the seccomp filter is written for x86_64 only"
#endif

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <linux/capability.h>
#include <linux/landlock.h>
#include <linux/securebits.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "log.h"
#include "proto.h"
#include "sandbox.h"

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

/* Namespace and thread flags a forking supervisor never needs. */
#define SB_CLONE_DENY	(CLONE_THREAD | CLONE_NEWNS | CLONE_NEWCGROUP | \
	CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
	CLONE_NEWNET)

/* open(2) flags that make an open more than a read. */
#define SB_OPEN_WRITE	(O_ACCMODE | O_CREAT | O_TRUNC)

#ifdef SANDBOX_DEBUG
#define SB_DEFAULT_ACTION	SCMP_ACT_TRAP
#else
#define SB_DEFAULT_ACTION	SCMP_ACT_KILL_PROCESS
#endif

/*
 * SB_STDIO: what every process needs to serve messages on the fds it
 * already holds: I/O on those fds, memory, time, signals of its own,
 * the libevent loop (epoll, eventfd, timerfd, pipes), its own ids.
 * sigaltstack and madvise are also what the ASan/UBSan runtime uses
 * when it reports; both only touch the caller's own state.
 * mmap/mprotect and fcntl/ioctl/newfstatat/prlimit64 are added with
 * argument filters in sb_add_stdio().
 */
static const int sb_stdio[] = {
	SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64,
	SYS_pwrite64, SYS_close, SYS_close_range, SYS_fstat, SYS_lseek,
	SYS_munmap, SYS_mremap, SYS_brk, SYS_madvise, SYS_futex,
	SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep,
	SYS_nanosleep, SYS_gettimeofday, SYS_time,
	SYS_getpid, SYS_getppid, SYS_gettid, SYS_getrandom,
	SYS_exit, SYS_exit_group, SYS_restart_syscall,
	SYS_rt_sigreturn, SYS_rt_sigprocmask, SYS_rt_sigaction,
	SYS_sigaltstack,
	SYS_epoll_create1, SYS_epoll_ctl, SYS_epoll_wait, SYS_epoll_pwait,
#ifdef SYS_epoll_pwait2
	SYS_epoll_pwait2,
#endif
	SYS_poll, SYS_ppoll, SYS_select, SYS_pselect6,
	SYS_eventfd2, SYS_pipe2, SYS_dup, SYS_dup2, SYS_dup3,
	SYS_timerfd_create, SYS_timerfd_settime, SYS_timerfd_gettime,
	/* sockets it was handed: messages, fd passing, options */
	SYS_sendmsg, SYS_recvmsg, SYS_sendto, SYS_recvfrom, SYS_shutdown,
	SYS_getsockopt, SYS_setsockopt, SYS_getsockname, SYS_getpeername,
	SYS_sched_yield, SYS_uname, SYS_sysinfo,
	SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid,
	SYS_getresuid, SYS_getresgid,
	-1
};

/*
 * SB_RECVFD, SB_SENDFD: fd passing.  recvmsg and sendmsg are already
 * in SB_STDIO and seccomp cannot look inside the msghdr, so it cannot
 * tell an SCM_RIGHTS message from a plain one.  These groups therefore
 * add no system call: they document which processes pass fds, and the
 * structure enforces the rest (a worker's only socket is its channel to
 * the supervisor, receivers use MSG_CMSG_CLOEXEC and treat MSG_CTRUNC
 * as an error, and Landlock keeps a received directory fd from widening
 * path access, since rights follow the tree, not the fd).
 */

/*
 * SB_RPATH: read files by path.  open/openat are allowed only with a
 * read-only access mode and neither O_CREAT nor O_TRUNC (argument
 * filter, sb_add_rpath); Landlock narrows where.
 */
static const int sb_rpath[] = {
	SYS_stat, SYS_lstat, SYS_newfstatat, SYS_statx,
	SYS_readlink, SYS_readlinkat, SYS_getdents64,
	SYS_access, SYS_faccessat, SYS_getcwd,
	-1
};

/*
 * SB_WPATH: create, write, rename and remove files (a repository's
 * objects and refs, the journal store): any open flags, the directory
 * operations, and the calls that make a write durable.
 */
static const int sb_wpath[] = {
	SYS_open, SYS_openat, SYS_creat,
	SYS_mkdir, SYS_mkdirat, SYS_unlink, SYS_unlinkat, SYS_rmdir,
	SYS_rename, SYS_renameat, SYS_renameat2, SYS_link, SYS_linkat,
	SYS_symlink, SYS_symlinkat,
	SYS_fsync, SYS_fdatasync, SYS_ftruncate,
	SYS_fchmod, SYS_chmod, SYS_fchmodat, SYS_utimensat,
	-1
};

/*
 * SB_INET: make sockets and connections of its own (the gatekeeper's
 * corridor and window, the supervisor's control socket and Docker
 * socket).  socket() is limited to TCP, UDP and UNIX stream/datagram
 * (sb_inet_sockets); raw, packet and netlink sockets need an extra.
 */
static const int sb_inet[] = {
	SYS_connect, SYS_bind, SYS_listen, SYS_accept, SYS_accept4,
	-1
};

/*
 * SB_UNIX: a pump between listeners it already holds and UNIX stream
 * sockets of its own (spaced-relay): accept4 on its listeners, and
 * socket() only as AF_UNIX SOCK_STREAM (any SOCK_NONBLOCK/CLOEXEC
 * flags, protocol 0) with connect (sb_add_unix).  No bind or listen:
 * the listeners were made before.  connect() cannot be filtered by
 * address family (a pointer), but the only sockets it can make are
 * AF_UNIX, and a listener refuses connect; Landlock (ABI >= 4, no
 * SB_INET) denies TCP connect besides.
 */
static const int sb_unix[] = {
	SYS_connect, SYS_accept4,
	-1
};

/*
 * SB_CHILD: waits for and signals the one child it forked and exec'd
 * before it confined itself (spaced-relay's agent).  No fork: that is
 * SB_PROC.  The child is outside this process's Landlock domain, so
 * with SB_CHILD Landlock does not scope signals (sb_landlock); kill is
 * limited to a pid >= 0 (no -1 broadcast, no negative process group).
 */
static const int sb_child[] = {
	SYS_wait4,
	-1
};

/*
 * SB_PROC: the supervisor forks its workers and reaps them.  clone is
 * allowed without CLONE_THREAD and without namespace flags
 * (sb_add_proc): a new process, never a thread or a namespace.
 * set_robust_list is what glibc's fork does in the child; prctl sets
 * the child's name and its death signal.
 */
static const int sb_proc[] = {
	SYS_fork, SYS_vfork, SYS_wait4, SYS_waitid, SYS_kill,
	SYS_prctl, SYS_set_robust_list,
	-1
};

/*
 * SB_EXEC: the supervisor execs its workers.  A filter survives execve,
 * so this group also carries what a fresh image needs before it
 * installs its own, tighter filter: the dynamic loader maps libraries
 * executable (mmap/mprotect with PROT_EXEC, see sb_add_stdio), sets up
 * TLS and rseq, and the new process confines itself (seccomp and
 * landlock only ever narrow what is allowed).
 */
static const int sb_exec[] = {
	SYS_execve, SYS_execveat,
	SYS_arch_prctl, SYS_set_tid_address, SYS_set_robust_list, SYS_rseq,
	SYS_seccomp, SYS_landlock_create_ruleset, SYS_landlock_add_rule,
	SYS_landlock_restrict_self,
	-1
};

/*
 * Calls glibc tries first and falls back from on ENOSYS: clone3
 * (posix_spawn, pthread_create), faccessat2 (faccessat), openat2.
 * Killing would turn a harmless fallback into a crash.
 */
static const int sb_enosys[] = {
	SYS_clone3, SYS_faccessat2, SYS_openat2,
	-1
};

/*
 * Path lookups in a process without SB_RPATH/SB_WPATH fail with EACCES
 * instead of killing it: libraries probe files (locale, timezone,
 * /proc/self/maps in a sanitizer report) and cope with a refusal.
 */
static const int sb_path_probes[] = {
	SYS_open, SYS_openat, SYS_creat, SYS_stat, SYS_lstat,
	SYS_access, SYS_faccessat, SYS_readlink, SYS_readlinkat,
	-1
};

struct sb_filter {
	scmp_filter_ctx	 sf_ctx;
	const char	*sf_name;
	const int	*sf_extra;
};

static int	 sb_landlock_logged;
/* sandbox_drop_privileges chrooted this process. */
static int	 sb_chrooted;

static int
sb_in_list(const int *list, int nr)
{
	if (list == NULL)
		return 0;
	for (; *list != -1; list++)
		if (*list == nr)
			return 1;
	return 0;
}

/*
 * Add one rule.  A call in the extras is allowed verbatim, so the
 * narrower group rule for it is skipped (libseccomp would let the
 * unconditional rule win anyway; skipping says so).
 */
static void
sb_rule(struct sb_filter *sf, uint32_t action, int nr, unsigned int argc,
    const struct scmp_arg_cmp *args)
{
	int	 rc;

	if ((action != SCMP_ACT_ALLOW || argc > 0) &&
	    sb_in_list(sf->sf_extra, nr))
		return;
	rc = seccomp_rule_add_array(sf->sf_ctx, action, nr, argc, args);
	if (rc != 0)
		fatalx("%s: %s: seccomp rule for syscall %d: %s", __func__,
		    sf->sf_name, nr, strerror(-rc));
}

static void
sb_allow(struct sb_filter *sf, int nr)
{
	sb_rule(sf, SCMP_ACT_ALLOW, nr, 0, NULL);
}

static void
sb_allow_list(struct sb_filter *sf, const int *list)
{
	for (; *list != -1; list++)
		sb_allow(sf, *list);
}

static void
sb_allow_arg(struct sb_filter *sf, int nr, struct scmp_arg_cmp cmp)
{
	sb_rule(sf, SCMP_ACT_ALLOW, nr, 1, &cmp);
}

/* One rule per value: the call with that argument, and no other. */
static void
sb_add_arg_rule(struct sb_filter *sf, const struct sandbox_arg_rule *ar)
{
	struct scmp_arg_cmp	 cmp;
	size_t			 i;

	if (ar->sr_arg > 5 || ar->sr_nvalues > SB_ARG_VALUES_MAX)
		fatalx("%s: %s: bad argument rule for syscall %d", __func__,
		    sf->sf_name, ar->sr_nr);
	for (i = 0; i < ar->sr_nvalues; i++) {
		cmp = SCMP_CMP(ar->sr_arg, SCMP_CMP_EQ, ar->sr_values[i]);
		sb_rule(sf, SCMP_ACT_ALLOW, ar->sr_nr, 1, &cmp);
	}
}

static void
sb_add_stdio(struct sb_filter *sf, unsigned int groups)
{
	static const int fcntl_cmds[] = {
		F_GETFL, F_SETFL, F_GETFD, F_SETFD, F_DUPFD_CLOEXEC, -1
	};
	const int	*cmd;

	sb_allow_list(sf, sb_stdio);

	/*
	 * No new executable memory unless the process execs: a filtered
	 * worker has no reason to map code after it is running, and an
	 * exploit often needs to.
	 */
	if (groups & SB_EXEC) {
		sb_allow(sf, SYS_mmap);
		sb_allow(sf, SYS_mprotect);
	} else {
		sb_allow_arg(sf, SYS_mmap,
		    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
		sb_allow_arg(sf, SYS_mprotect,
		    SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
	}

	/* Flags and close-on-exec only: no locks, leases, owners. */
	for (cmd = fcntl_cmds; *cmd != -1; cmd++)
		sb_allow_arg(sf, SYS_fcntl, SCMP_A1(SCMP_CMP_EQ, *cmd));

	/* Bytes pending (libevent, buffers) and isatty (stdio). */
	sb_allow_arg(sf, SYS_ioctl, SCMP_A1(SCMP_CMP_EQ, FIONREAD));
	sb_allow_arg(sf, SYS_ioctl, SCMP_A1(SCMP_CMP_EQ, TCGETS));

	/* Read limits, never raise them (new_limit must be NULL). */
	sb_allow_arg(sf, SYS_prlimit64, SCMP_A2(SCMP_CMP_EQ, 0));
	sb_allow(sf, SYS_getrlimit);

	/*
	 * glibc's fstat() is newfstatat(fd, "", AT_EMPTY_PATH), others use
	 * statx the same way.  With a path group any of them is allowed
	 * (sb_rpath); without one a lookup by name is a path probe and
	 * gets EACCES.
	 */
	if ((groups & (SB_RPATH | SB_WPATH)) == 0) {
		sb_allow_arg(sf, SYS_newfstatat,
		    SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
		sb_rule(sf, SCMP_ACT_ERRNO(EACCES), SYS_newfstatat, 1,
		    &SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0));
		sb_allow_arg(sf, SYS_statx,
		    SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
		sb_rule(sf, SCMP_ACT_ERRNO(EACCES), SYS_statx, 1,
		    &SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0));
	}
}

static void
sb_add_rpath(struct sb_filter *sf, unsigned int groups)
{
	sb_allow_list(sf, sb_rpath);
	if (groups & SB_WPATH)
		return;		/* any open flags, sb_wpath */
	sb_allow_arg(sf, SYS_open,
	    SCMP_A1(SCMP_CMP_MASKED_EQ, SB_OPEN_WRITE, 0));
	sb_allow_arg(sf, SYS_openat,
	    SCMP_A2(SCMP_CMP_MASKED_EQ, SB_OPEN_WRITE, 0));
}

/*
 * The sockets SB_INET may make: TCP and UDP over IPv4 and IPv6 (the
 * gatekeeper's upstreams and evdns), UNIX stream and datagram (control,
 * Docker and syslog sockets).  Nothing raw, no ping, SCTP or seqpacket:
 * a family alone would let root open AF_INET/SOCK_RAW.  The type is
 * compared with SOCK_NONBLOCK and SOCK_CLOEXEC masked off; only its low
 * 32 bits, the int the kernel reads, take part.
 */
static const struct {
	int	 si_family, si_type, si_protocol;
} sb_inet_sockets[] = {
	{ AF_INET, SOCK_STREAM, 0 }, { AF_INET, SOCK_STREAM, IPPROTO_TCP },
	{ AF_INET, SOCK_DGRAM, 0 }, { AF_INET, SOCK_DGRAM, IPPROTO_UDP },
	{ AF_INET6, SOCK_STREAM, 0 }, { AF_INET6, SOCK_STREAM, IPPROTO_TCP },
	{ AF_INET6, SOCK_DGRAM, 0 }, { AF_INET6, SOCK_DGRAM, IPPROTO_UDP },
	{ AF_UNIX, SOCK_STREAM, 0 }, { AF_UNIX, SOCK_DGRAM, 0 },
};
#define SB_SOCK_TYPE_MASK	((uint32_t)~(SOCK_NONBLOCK | SOCK_CLOEXEC))

static void
sb_add_inet(struct sb_filter *sf)
{
	struct scmp_arg_cmp	 cmp[3];
	size_t			 i;

	sb_allow_list(sf, sb_inet);
	for (i = 0; i < sizeof(sb_inet_sockets) / sizeof(sb_inet_sockets[0]);
	    i++) {
		cmp[0] = SCMP_A0(SCMP_CMP_EQ, sb_inet_sockets[i].si_family);
		cmp[1] = SCMP_A1(SCMP_CMP_MASKED_EQ, SB_SOCK_TYPE_MASK,
		    sb_inet_sockets[i].si_type);
		cmp[2] = SCMP_A2(SCMP_CMP_EQ, sb_inet_sockets[i].si_protocol);
		sb_rule(sf, SCMP_ACT_ALLOW, SYS_socket, 3, cmp);
	}
}

static void
sb_add_unix(struct sb_filter *sf)
{
	struct scmp_arg_cmp	 cmp[3];

	sb_allow_list(sf, sb_unix);
	cmp[0] = SCMP_A0(SCMP_CMP_EQ, AF_UNIX);
	/* The type without SOCK_NONBLOCK and SOCK_CLOEXEC. */
	cmp[1] = SCMP_A1(SCMP_CMP_MASKED_EQ, SB_SOCK_TYPE_MASK, SOCK_STREAM);
	cmp[2] = SCMP_A2(SCMP_CMP_EQ, 0);
	sb_rule(sf, SCMP_ACT_ALLOW, SYS_socket, 3, cmp);
}

static void
sb_add_child(struct sb_filter *sf)
{
	sb_allow_list(sf, sb_child);
	/* pid_t is 32 bits: a negative pid has bit 31 set. */
	sb_allow_arg(sf, SYS_kill,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffff80000000ULL, 0));
}

static void
sb_add_proc(struct sb_filter *sf)
{
	sb_allow_list(sf, sb_proc);
	sb_allow_arg(sf, SYS_clone,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, SB_CLONE_DENY, 0));
}

static void
sb_add_denials(struct sb_filter *sf, unsigned int groups)
{
	const int	*nr;

	for (nr = sb_enosys; *nr != -1; nr++)
		sb_rule(sf, SCMP_ACT_ERRNO(ENOSYS), *nr, 0, NULL);

	if ((groups & (SB_RPATH | SB_WPATH)) == 0)
		for (nr = sb_path_probes; *nr != -1; nr++)
			sb_rule(sf, SCMP_ACT_ERRNO(EACCES), *nr, 0, NULL);

	/*
	 * Without SB_INET, a UNIX datagram socket is what glibc's syslog()
	 * reopens after syslogd restarted: refuse it softly, so the
	 * process loses a log line instead of its life.  Any other
	 * socket() kills.  SB_UNIX has its own, narrower socket() rule
	 * and logs to stderr only: there any other socket() kills.
	 */
	if ((groups & (SB_INET | SB_UNIX)) == 0)
		sb_rule(sf, SCMP_ACT_ERRNO(EACCES), SYS_socket, 1,
		    &SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
}

#ifdef SANDBOX_DEBUG
static void
sb_sigsys_write_num(char *buf, size_t *off, size_t size, long v)
{
	char	 tmp[24];
	size_t	 n = 0;

	if (v < 0) {
		if (*off < size)
			buf[(*off)++] = '-';
		v = -v;
	}
	do {
		tmp[n++] = '0' + (v % 10);
		v /= 10;
	} while (v != 0 && n < sizeof(tmp));
	while (n > 0 && *off < size)
		buf[(*off)++] = tmp[--n];
}

/* Async-signal-safe: names the call the filter would have killed. */
static void
sb_sigsys_handler(int sig, siginfo_t *si, void *ctx)
{
	static const char	 pre[] = "sandbox: forbidden syscall ";
	char			 buf[96];
	size_t			 off;
	ssize_t			 n;

	memcpy(buf, pre, sizeof(pre) - 1);
	off = sizeof(pre) - 1;
	sb_sigsys_write_num(buf, &off, sizeof(buf) - 1, si->si_syscall);
	buf[off++] = '\n';
	/* Nothing to do if stderr is gone. */
	n = write(STDERR_FILENO, buf, off);
	(void)n;
}

static void
sb_sigsys_install(void)
{
	struct sigaction	 sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sb_sigsys_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) == -1)
		fatal("%s: sigaction", __func__);
}
#endif

static void
sb_seccomp(const struct sandbox_spec *spec)
{
	struct sb_filter	 sf;
	unsigned int		 groups = spec->sb_groups;
	const struct sandbox_arg_rule *ar;
	const int		*nr;
	int			 rc;

	if (seccomp_arch_native() != SCMP_ARCH_X86_64)
		fatalx("%s: %s: native arch is not x86_64", __func__,
		    spec->sb_name);
	if ((sf.sf_ctx = seccomp_init(SB_DEFAULT_ACTION)) == NULL)
		fatalx("%s: %s: seccomp_init failed", __func__, spec->sb_name);
	sf.sf_name = spec->sb_name;
	sf.sf_extra = spec->sb_extra;

	/*
	 * The context holds only the native arch, x86_64.  libseccomp then
	 * sends a foreign arch (i386 via int 0x80) and any x32 call (nr >=
	 * __X32_SYSCALL_BIT, whose arch word is also x86_64) to the
	 * bad-arch action, because x32 is not in the context.  That action
	 * defaults to KILL_THREAD; make it kill the process.
	 */
	if ((rc = seccomp_attr_set(sf.sf_ctx, SCMP_FLTATR_ACT_BADARCH,
	    SCMP_ACT_KILL_PROCESS)) != 0)
		fatalx("%s: %s: bad-arch action: %s", __func__,
		    spec->sb_name, strerror(-rc));
	/* no_new_privs is set by sandbox_enter itself, and checked. */
	if ((rc = seccomp_attr_set(sf.sf_ctx, SCMP_FLTATR_CTL_NNP, 0)) != 0)
		fatalx("%s: %s: nnp attribute: %s", __func__,
		    spec->sb_name, strerror(-rc));
	/* Every thread gets the filter, or loading fails. */
	if ((rc = seccomp_attr_set(sf.sf_ctx, SCMP_FLTATR_CTL_TSYNC, 1)) != 0)
		fatalx("%s: %s: tsync attribute: %s", __func__,
		    spec->sb_name, strerror(-rc));

	if (spec->sb_extra != NULL)
		for (nr = spec->sb_extra; *nr != -1; nr++)
			sb_allow(&sf, *nr);
	if (spec->sb_args != NULL)
		for (ar = spec->sb_args; ar->sr_nr != -1; ar++)
			sb_add_arg_rule(&sf, ar);
	if (groups & SB_STDIO)
		sb_add_stdio(&sf, groups);
	if (groups & SB_RPATH)
		sb_add_rpath(&sf, groups);
	if (groups & SB_WPATH)
		sb_allow_list(&sf, sb_wpath);
	if (groups & SB_INET)
		sb_add_inet(&sf);
	if (groups & SB_PROC)
		sb_add_proc(&sf);
	if (groups & SB_UNIX)
		sb_add_unix(&sf);
	if (groups & SB_CHILD)
		sb_add_child(&sf);
	if (groups & SB_EXEC)
		sb_allow_list(&sf, sb_exec);
	sb_add_denials(&sf, groups);

#ifdef SANDBOX_DEBUG
	sb_sigsys_install();
#endif
	if ((rc = seccomp_load(sf.sf_ctx)) != 0)
		fatalx("%s: %s: seccomp_load: %s", __func__, spec->sb_name,
		    strerror(-rc));
	seccomp_release(sf.sf_ctx);
}

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
static int
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

void
sandbox_enter(const struct sandbox_spec *spec)
{
	const char	*why;
	int		 abi;

	if (spec == NULL || spec->sb_name == NULL)
		fatalx("%s: no spec", __func__);

	/* Before Landlock and seccomp, which need it without privilege. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		fatal("%s: %s: PR_SET_NO_NEW_PRIVS", __func__, spec->sb_name);
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		fatalx("%s: %s: no_new_privs not set", __func__,
		    spec->sb_name);

	if (!spec->sb_landlock_optional) {
		abi = sb_landlock(spec);
		/*
		 * Without Landlock, a process that may open files by path
		 * could reach anything its uid can: only a chroot holds it
		 * then, and without one it must not run at all.
		 */
		if ((why = sandbox_fs_unheld(spec->sb_groups, abi,
		    sb_chrooted)) != NULL && !spec->sb_landlock_best_effort)
			fatalx("%s: %s: refusing to run", spec->sb_name, why);
	}

	sb_seccomp(spec);
	log_debug("%s: sandbox entered, groups 0x%x", spec->sb_name,
	    spec->sb_groups);
}

#ifndef SANDBOX_NO_PRIVDROP
/*
 * Keep only the capabilities in keep (root): the bounding set emptied,
 * nothing inheritable or ambient, securebits locked so that no exec
 * brings root's back.
 */
void
sandbox_caps_limit(uint64_t keep, int setuid_fixup)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];
	uint64_t			 eff, prm, inh;
	int				 cap;

	/*
	 * Needs CAP_SETPCAP, so before the capset below.  NOROOT: an exec
	 * as root would not refill the sets.  Without the fixup a change
	 * of uid keeps the capabilities (spaced changes none); with it, a
	 * child that becomes another user loses them all (spaced-launch).
	 */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
	    (setuid_fixup ? 0 : SECBIT_NO_SETUID_FIXUP) |
	    SECBIT_NO_SETUID_FIXUP_LOCKED |
	    SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
	    SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0) == -1)
		fatal("%s: PR_SET_SECUREBITS", __func__);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == -1)
		fatal("%s: PR_CAP_AMBIENT_CLEAR_ALL", __func__);
	/* The bounding set only matters to an exec: empty it. */
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == -1)
			fatal("%s: PR_CAPBSET_DROP %d", __func__, cap);

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	data[0].effective = data[0].permitted = (uint32_t)keep;
	data[1].effective = data[1].permitted = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &hdr, data) == -1)
		fatal("%s: capset", __func__);

	/* Check, as sandbox_drop_privileges checks its uids. */
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) == -1)
		fatal("%s: capget", __func__);
	eff = data[0].effective | (uint64_t)data[1].effective << 32;
	prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	inh = data[0].inheritable | (uint64_t)data[1].inheritable << 32;
	if (eff != keep || prm != keep || inh != 0 ||
	    prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0)
		fatalx("%s: capabilities not dropped (eff %llx prm %llx)",
		    __func__, (unsigned long long)eff,
		    (unsigned long long)prm);
	log_debug("%s: capabilities kept %llx", __func__,
	    (unsigned long long)keep);
}

#endif

/*
 * A static binary (spaced-relay) builds this file with
 * SANDBOX_NO_PRIVDROP: it changes no credentials, and getpwnam would
 * tie it to the NSS libraries of the glibc it was linked with.
 */
#ifndef SANDBOX_NO_PRIVDROP
void
sandbox_drop_privileges(const char *user, const char *chroot_dir)
{
	struct passwd	*pw;
	uid_t		 uid, ruid, euid, suid;
	gid_t		 gid, rgid, egid, sgid;

	if (geteuid() != 0) {
		log_debug("%s: not root, keeping uid %u", __func__,
		    (unsigned int)geteuid());
		return;
	}
	if (user == NULL)
		fatalx("%s: no user", __func__);

	/* Before chroot: the password database is outside it. */
	if ((pw = getpwnam(user)) == NULL)
		fatalx("%s: unknown user %s", __func__, user);
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	endpwent();

	if (chroot_dir != NULL) {
		if (chroot(chroot_dir) == -1)
			fatal("%s: chroot %s", __func__, chroot_dir);
		if (chdir("/") == -1)
			fatal("%s: chdir /", __func__);
		sb_chrooted = 1;
	}

	if (setgroups(1, &gid) == -1)
		fatal("%s: setgroups", __func__);
	if (setresgid(gid, gid, gid) == -1)
		fatal("%s: setresgid %u", __func__, (unsigned int)gid);
	if (setresuid(uid, uid, uid) == -1)
		fatal("%s: setresuid %u", __func__, (unsigned int)uid);

	if (getresgid(&rgid, &egid, &sgid) == -1)
		fatal("%s: getresgid", __func__);
	if (getresuid(&ruid, &euid, &suid) == -1)
		fatal("%s: getresuid", __func__);
	if (rgid != gid || egid != gid || sgid != gid ||
	    ruid != uid || euid != uid || suid != uid)
		fatalx("%s: privileges not dropped to %s", __func__, user);
	/* The way back must be closed too (OpenSSH's check). */
	if (uid != 0 && (setuid(0) != -1 || seteuid(0) != -1))
		fatalx("%s: could regain root after dropping to %s",
		    __func__, user);
	log_debug("%s: now %s (%u:%u)%s%s", __func__, user,
	    (unsigned int)uid, (unsigned int)gid,
	    chroot_dir != NULL ? " in " : "",
	    chroot_dir != NULL ? chroot_dir : "");
}
#endif /* !SANDBOX_NO_PRIVDROP */

/*
 * execve() that proves the call passed seccomp and the file could be
 * opened for execution (Landlock, permissions), without replacing this
 * process: the kernel opens the file before it reads argv, and an argv
 * pointer into the unmapped first page then fails with EFAULT.
 */
static int
sb_probe_execve(void)
{
	if (syscall(SYS_execve, "/bin/true", (char *const *)(uintptr_t)8,
	    NULL) == -1 && errno == EFAULT)
		return 0;
	if (errno == 0)
		errno = EPERM;
	return -1;
}

static int
sb_probe_connect(void)
{
	struct sockaddr_in	 sin;
	int			 s, rc, saved;

	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(9);	/* discard: usually refused */
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = connect(s, (struct sockaddr *)&sin, sizeof(sin));
	saved = errno;
	close(s);
	/* Refused means the connect reached the network stack. */
	if (rc == 0 || saved == ECONNREFUSED)
		return 0;
	errno = saved;
	return -1;
}

static int
sb_probe_fork(void)
{
	pid_t	 pid;
	int	 status;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0)
		_exit(0);
	(void)waitpid(pid, &status, 0);
	return 0;
}

int
sandbox_probe(int call)
{
	int	 fd;

	switch (call) {
	case PROBE_EXECVE:
		return sb_probe_execve();
	case PROBE_OPEN:
		if ((fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
		close(fd);
		return 0;
	case PROBE_SOCKET:
		if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC,
		    0)) == -1)
			return -1;
		close(fd);
		return 0;
	case PROBE_CONNECT:
		return sb_probe_connect();
	case PROBE_FORK:
		return sb_probe_fork();
	default:
		errno = EINVAL;
		return -1;
	}
}
