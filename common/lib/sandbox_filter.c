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
 * The seccomp half of sandbox_enter(): each promise group's calls and
 * argument filters, built into a libseccomp allowlist whose default
 * action kills the whole process.
 */

#if !defined(__x86_64__)
#error "sandbox_filter.c: the seccomp filter is written for x86_64 only"
#endif

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "log.h"
#include "sandbox.h"
#include "sandbox_int.h"

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

void
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
