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
 * The seccomp layer alone (Landlock off): for each promise group, a
 * call of the group kills a child whose filter lacks the group, and
 * works without a filter and with the group.
 */

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <linux/netlink.h>

#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "proto.h"
#include "sandbox.h"
#include "sbt.h"

#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT	0x40000000
#endif

/* _exit; under ASan, a noreturn call first checks the signal stack. */
static const int	 only_exit[] = { SYS_exit_group, SYS_sigaltstack, -1 };
static char		 tmpdir[64];
static char		 tmpfile_path[128];
static int		 status_fd = -1;

static void
make_tmp(void)
{
	int	 fd;

	strlcpy(tmpdir, "/tmp/sbt-seccomp.XXXXXX", sizeof(tmpdir));
	cr_assert_not_null(mkdtemp(tmpdir));
	snprintf(tmpfile_path, sizeof(tmpfile_path), "%s/file", tmpdir);
	fd = open(tmpfile_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert(fd != -1);
	close(fd);
}

static void
remove_tmp(void)
{
	char	 path[160];

	unlink(tmpfile_path);
	snprintf(path, sizeof(path), "%s/made", tmpdir);
	rmdir(path);
	rmdir(tmpdir);
}

TestSuite(seccomp, .init = make_tmp, .fini = remove_tmp);

static int
try_nothing(void)
{
	return 0;
}

static int
try_getpid(void)
{
	return getpid() > 0 ? 0 : errno;
}

/* Opened before the filter, as a supervisor would hand it over. */
static int
open_status(void)
{
	return (status_fd = open("/proc/self/status", O_RDONLY)) == -1 ?
	    errno : 0;
}

static int
try_status(void)
{
	char	 buf[4096];
	ssize_t	 n;

	if ((n = pread(status_fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return SBT_BROKEN;
	buf[n] = '\0';
	if (strstr(buf, "\nSeccomp:\t2\n") == NULL)
		return 1;
	if (strstr(buf, "\nNoNewPrivs:\t1\n") == NULL)
		return 2;
	return 0;
}

Test(seccomp, status_shows_filter_and_no_new_privs)
{
	struct sandbox_spec spec = sbt_seccomp_spec(SB_STDIO, NULL);
	int st;

	/* Control: an unfiltered child reports mode 0. */
	st = sbt_run_prepared(NULL, open_status, try_status);
	cr_assert(sbt_exit(st) == 1, "%s", sbt_describe(st));
	st = sbt_run_prepared(&spec, open_status, try_status);
	cr_assert(sbt_exit(st) == 0, "%s", sbt_describe(st));
	/* Landlock on as well (no filesystem): the fd still reads. */
	spec.sb_landlock_optional = 0;
	st = sbt_run_prepared(&spec, open_status, try_status);
	cr_assert(sbt_exit(st) == 0, "%s", sbt_describe(st));
}

Test(seccomp, stdio_group)
{
	struct sandbox_spec none = sbt_seccomp_spec(0, only_exit);
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);

	/* Control of the control: exiting alone is allowed by the extra. */
	SBT_EXITS(&none, try_nothing, 0);
	SBT_KILLED(&none, try_getpid);
	SBT_EXITS(NULL, try_getpid, 0);
	SBT_EXITS(&stdio, try_getpid, 0);
}

static int
try_mmap_exec(void)
{
	void	*p;

	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	return p == MAP_FAILED ? errno : 0;
}

static int
try_mmap_rw(void)
{
	void	*p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? errno : 0;
}

static int
try_mprotect_exec(void)
{
	void	*p;

	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return SBT_BROKEN;
	return mprotect(p, 4096, PROT_READ | PROT_EXEC) == -1 ? errno : 0;
}

Test(seccomp, no_executable_memory_without_exec)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec exec = sbt_seccomp_spec(SB_STDIO | SB_EXEC, NULL);

	SBT_EXITS(&stdio, try_mmap_rw, 0);
	SBT_KILLED(&stdio, try_mmap_exec);
	SBT_KILLED(&stdio, try_mprotect_exec);
	SBT_EXITS(NULL, try_mmap_exec, 0);
	SBT_EXITS(NULL, try_mprotect_exec, 0);
	SBT_EXITS(&exec, try_mmap_exec, 0);
	SBT_EXITS(&exec, try_mprotect_exec, 0);
}

static int
try_ioctl_fionread(void)
{
	int	 p[2], n;

	if (pipe(p) == -1)
		return SBT_BROKEN;
	return ioctl(p[0], FIONREAD, &n) == -1 ? errno : 0;
}

static int
try_ioctl_fionbio(void)
{
	int	 p[2], on = 1;

	if (pipe(p) == -1)
		return SBT_BROKEN;
	return ioctl(p[0], FIONBIO, &on) == -1 ? errno : 0;
}

static int
try_fcntl_getfl(void)
{
	return fcntl(0, F_GETFL) == -1 ? errno : 0;
}

static int
try_fcntl_setown(void)
{
	int	 p[2];

	if (pipe(p) == -1)
		return SBT_BROKEN;
	return fcntl(p[0], F_SETOWN, getpid()) == -1 ? errno : 0;
}

static int
try_getrlimit(void)
{
	struct rlimit	 rl;

	return getrlimit(RLIMIT_NOFILE, &rl) == -1 ? errno : 0;
}

static int
try_setrlimit(void)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return SBT_BROKEN;
	return setrlimit(RLIMIT_NOFILE, &rl) == -1 ? errno : 0;
}

Test(seccomp, argument_filters_in_stdio)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);

	SBT_EXITS(&stdio, try_ioctl_fionread, 0);
	SBT_KILLED(&stdio, try_ioctl_fionbio);
	SBT_EXITS(NULL, try_ioctl_fionbio, 0);

	SBT_EXITS(&stdio, try_fcntl_getfl, 0);
	SBT_KILLED(&stdio, try_fcntl_setown);
	SBT_EXITS(NULL, try_fcntl_setown, 0);

	SBT_EXITS(&stdio, try_getrlimit, 0);
	SBT_KILLED(&stdio, try_setrlimit);
	SBT_EXITS(NULL, try_setrlimit, 0);
}

static int
try_open_read(void)
{
	int	 fd;

	if ((fd = open("/etc/passwd", O_RDONLY)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_open_write(void)
{
	int	 fd;

	if ((fd = open(tmpfile_path, O_WRONLY)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_open_creat_readonly(void)
{
	int	 fd;

	if ((fd = open(tmpfile_path, O_RDONLY | O_CREAT, 0600)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_stat_path(void)
{
	struct stat	 st;

	return stat("/etc/passwd", &st) == -1 ? errno : 0;
}

static int
try_statx_path(void)
{
	struct statx	 stx;

	return statx(AT_FDCWD, "/etc/passwd", 0, STATX_SIZE, &stx) == -1 ?
	    errno : 0;
}

static int
try_statx_fd(void)
{
	struct statx	 stx;

	return statx(0, "", AT_EMPTY_PATH, STATX_SIZE, &stx) == -1 ?
	    errno : 0;
}

static int
try_fstat(void)
{
	struct stat	 st;

	return fstat(0, &st) == -1 ? errno : 0;
}

Test(seccomp, rpath_group)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec rpath = sbt_seccomp_spec(SB_STDIO | SB_RPATH, NULL);

	/* Without a path group, lookups are probes: EACCES, not death. */
	SBT_EXITS(&stdio, try_open_read, EACCES);
	SBT_EXITS(&stdio, try_stat_path, EACCES);
	SBT_EXITS(&stdio, try_fstat, 0);
	SBT_EXITS(&stdio, try_statx_path, EACCES);
	SBT_EXITS(&stdio, try_statx_fd, 0);
	SBT_EXITS(NULL, try_statx_path, 0);
	SBT_EXITS(NULL, try_open_read, 0);
	SBT_EXITS(NULL, try_stat_path, 0);
	SBT_EXITS(&rpath, try_open_read, 0);
	SBT_EXITS(&rpath, try_stat_path, 0);
	/* Read-only means no write mode and no O_CREAT. */
	SBT_KILLED(&rpath, try_open_write);
	SBT_KILLED(&rpath, try_open_creat_readonly);
	SBT_EXITS(NULL, try_open_write, 0);
	SBT_EXITS(NULL, try_open_creat_readonly, 0);
}

static int
try_mkdir(void)
{
	char	 path[160];

	snprintf(path, sizeof(path), "%s/made", tmpdir);
	if (mkdir(path, 0700) == -1)
		return errno;
	return rmdir(path) == -1 ? errno : 0;
}

Test(seccomp, wpath_group)
{
	struct sandbox_spec rpath = sbt_seccomp_spec(SB_STDIO | SB_RPATH, NULL);
	struct sandbox_spec wpath = sbt_seccomp_spec(SB_STDIO | SB_RPATH |
	    SB_WPATH, NULL);

	SBT_KILLED(&rpath, try_mkdir);
	SBT_EXITS(NULL, try_mkdir, 0);
	SBT_EXITS(&wpath, try_mkdir, 0);
	SBT_EXITS(&wpath, try_open_write, 0);
	SBT_EXITS(&wpath, try_open_creat_readonly, 0);
}

static int
try_socket_inet(void)
{
	int	 s;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return errno;
	close(s);
	return 0;
}

static int
try_socket_unix(void)
{
	int	 s;

	if ((s = socket(AF_UNIX, SOCK_DGRAM, 0)) == -1)
		return errno;
	close(s);
	return 0;
}

static int
try_socket_netlink(void)
{
	int	 s;

	if ((s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)) == -1)
		return errno;
	close(s);
	return 0;
}

Test(seccomp, inet_group)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec inet = sbt_seccomp_spec(SB_STDIO | SB_INET, NULL);

	SBT_KILLED(&stdio, try_socket_inet);
	SBT_EXITS(NULL, try_socket_inet, 0);
	SBT_EXITS(&inet, try_socket_inet, 0);
	/* syslog's reconnect fails softly without SB_INET. */
	SBT_EXITS(&stdio, try_socket_unix, EACCES);
	SBT_EXITS(&inet, try_socket_unix, 0);
	/* Families outside the group kill even with it. */
	SBT_KILLED(&inet, try_socket_netlink);
	SBT_EXITS(NULL, try_socket_netlink, 0);
}

/*
 * Socket types and protocols the inet promise does not cover: each is a
 * family SB_INET allows, so only the type or protocol filter stops it.
 */
static int
sbt_socket(int domain, int type, int protocol)
{
	int	 s;

	if ((s = socket(domain, type, protocol)) == -1)
		return errno;
	close(s);
	return 0;
}

static int try_raw_inet(void) { return sbt_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP); }
static int try_raw_inet6(void) { return sbt_socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6); }
static int try_raw_flags(void)
{
	return sbt_socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    IPPROTO_TCP);
}
static int try_ping_dgram(void) { return sbt_socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP); }
static int try_sctp_stream(void) { return sbt_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP); }
static int try_seqpacket(void) { return sbt_socket(AF_INET, SOCK_SEQPACKET, 0); }
static int try_unix_seqpacket(void) { return sbt_socket(AF_UNIX, SOCK_SEQPACKET, 0); }
/* An unused high bit of type must not slip past a masked compare. */
static int try_type_high_bit(void) { return sbt_socket(AF_INET, SOCK_STREAM | 0x10000, 0); }
/* What the gatekeeper and spaced really make: all must still work. */
static int try_tcp(void) { return sbt_socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP); }
static int try_tcp6(void) { return sbt_socket(AF_INET6, SOCK_STREAM, 0); }
static int try_udp(void) { return sbt_socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }
static int try_udp6(void) { return sbt_socket(AF_INET6, SOCK_DGRAM, IPPROTO_UDP); }
static int try_unix_stream(void) { return sbt_socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); }

Test(seccomp, inet_group_filters_type_and_protocol)
{
	struct sandbox_spec inet = sbt_seccomp_spec(SB_STDIO | SB_INET, NULL);

	/* Positive controls: unconfined, root gets every one of these. */
	if (geteuid() == 0) {
		SBT_EXITS(NULL, try_raw_inet, 0);
		SBT_EXITS(NULL, try_raw_inet6, 0);
		SBT_EXITS(NULL, try_raw_flags, 0);
	}
	SBT_EXITS(NULL, try_seqpacket, ESOCKTNOSUPPORT);
	SBT_EXITS(NULL, try_unix_seqpacket, 0);

	SBT_KILLED(&inet, try_raw_inet);
	SBT_KILLED(&inet, try_raw_inet6);
	SBT_KILLED(&inet, try_raw_flags);
	SBT_KILLED(&inet, try_ping_dgram);
	SBT_KILLED(&inet, try_sctp_stream);
	SBT_KILLED(&inet, try_seqpacket);
	SBT_KILLED(&inet, try_unix_seqpacket);
	SBT_KILLED(&inet, try_type_high_bit);

	SBT_EXITS(&inet, try_tcp, 0);
	SBT_EXITS(&inet, try_tcp6, 0);
	SBT_EXITS(&inet, try_udp, 0);
	SBT_EXITS(&inet, try_udp6, 0);
	SBT_EXITS(&inet, try_unix_stream, 0);
}

static int
try_fork(void)
{
	pid_t	 pid;
	int	 st;

	if ((pid = fork()) == -1)
		return errno;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &st, 0) == -1)
		return errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : SBT_BROKEN;
}

/* A raw clone into a new user namespace, fork-like (no new stack). */
static int
try_clone_newuser(void)
{
	long	 pid;
	int	 st;

	pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
	if (pid == -1)
		return errno;
	if (pid == 0)
		syscall(SYS_exit_group, 0);
	if (waitpid(pid, &st, 0) == -1)
		return errno;
	return 0;
}

static int
try_kill_parent(void)
{
	return kill(getppid(), 0) == -1 ? errno : 0;
}

Test(seccomp, proc_group)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec proc = sbt_seccomp_spec(SB_STDIO | SB_PROC, NULL);
	int st;

	SBT_KILLED(&stdio, try_fork);
	SBT_EXITS(NULL, try_fork, 0);
	SBT_EXITS(&proc, try_fork, 0);
	SBT_KILLED(&stdio, try_kill_parent);
	SBT_EXITS(&proc, try_kill_parent, 0);

	/* A new user namespace is not a fork, even with SB_PROC. */
	st = sbt_run(NULL, try_clone_newuser);
	if (sbt_exit(st) != 0)
		cr_log_warn("user namespaces unavailable (%s): only the "
		    "filtered half of the clone test ran", sbt_describe(st));
	SBT_KILLED(&proc, try_clone_newuser);
}

static int
try_probe_execve(void)
{
	return sandbox_probe(PROBE_EXECVE) == -1 ? errno : 0;
}

Test(seccomp, exec_group)
{
	struct sandbox_spec rpath = sbt_seccomp_spec(SB_STDIO | SB_RPATH, NULL);
	struct sandbox_spec exec = sbt_seccomp_spec(SB_STDIO | SB_RPATH |
	    SB_EXEC, NULL);

	SBT_KILLED(&rpath, try_probe_execve);
	SBT_EXITS(NULL, try_probe_execve, 0);
	SBT_EXITS(&exec, try_probe_execve, 0);
}

static int
try_clone3(void)
{
	/* Size 0 is invalid: EINVAL when the kernel sees the call. */
	return syscall(SYS_clone3, NULL, 0) == -1 ? errno : 0;
}

static int
try_faccessat2(void)
{
	return syscall(SYS_faccessat2, AT_FDCWD, "/", F_OK, 0) == -1 ?
	    errno : 0;
}

static int
try_openat2(void)
{
	/* A NULL open_how: EFAULT when the kernel sees the call. */
	return syscall(SYS_openat2, AT_FDCWD, "/", NULL, 24) == -1 ?
	    errno : 0;
}

Test(seccomp, glibc_fallbacks_get_enosys)
{
	struct sandbox_spec all = sbt_seccomp_spec(SB_STDIO | SB_RPATH |
	    SB_WPATH | SB_PROC | SB_EXEC, NULL);

	SBT_EXITS(NULL, try_clone3, EINVAL);
	SBT_EXITS(&all, try_clone3, ENOSYS);
	SBT_EXITS(NULL, try_faccessat2, 0);
	SBT_EXITS(&all, try_faccessat2, ENOSYS);
	SBT_EXITS(NULL, try_openat2, EFAULT);
	SBT_EXITS(&all, try_openat2, ENOSYS);
}

static int
try_getpriority(void)
{
	errno = 0;
	(void)syscall(SYS_getpriority, PRIO_PROCESS, 0);
	return errno;
}

Test(seccomp, extras_are_added)
{
	static const int extra[] = { SYS_getpriority, -1 };
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec more = sbt_seccomp_spec(SB_STDIO, extra);

	SBT_KILLED(&stdio, try_getpriority);
	SBT_EXITS(&more, try_getpriority, 0);
}

Test(seccomp, extras_override_argument_filters)
{
	static const int extra[] = { SYS_ioctl, SYS_socket, -1 };
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	struct sandbox_spec more = sbt_seccomp_spec(SB_STDIO, extra);

	SBT_KILLED(&stdio, try_ioctl_fionbio);
	SBT_EXITS(&more, try_ioctl_fionbio, 0);
	/* Also over the soft EACCES for UNIX sockets. */
	SBT_EXITS(&stdio, try_socket_unix, EACCES);
	SBT_EXITS(&more, try_socket_unix, 0);
	SBT_EXITS(&more, try_socket_netlink, 0);
}

/* getpid through the x32 ABI: same arch word, syscall bit 30 set. */
static int
try_x32_getpid(void)
{
	return syscall(__X32_SYSCALL_BIT | SYS_getpid) == -1 ? errno : 0;
}

Test(seccomp, x32_calls_kill)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	int st;

	/* Unfiltered it returns (a pid, or ENOSYS without CONFIG_X86_X32). */
	st = sbt_run(NULL, try_x32_getpid);
	cr_assert(sbt_exit(st) == 0 || sbt_exit(st) == ENOSYS, "%s",
	    sbt_describe(st));
	SBT_KILLED(&stdio, try_x32_getpid);
}

/* getpid through the i386 ABI (int 0x80, nr 20): a foreign arch. */
static int
try_i386_getpid(void)
{
	long	 ret = 20;

	__asm__ volatile ("int $0x80" : "+a"(ret) : : "memory", "r8", "r9",
	    "r10", "r11");
	return ret == getpid() ? 0 : 1;
}

Test(seccomp, foreign_arch_kills)
{
	struct sandbox_spec stdio = sbt_seccomp_spec(SB_STDIO, NULL);
	int st;

	st = sbt_run(NULL, try_i386_getpid);
	if (sbt_exit(st) != 0)
		cr_skip_test("no IA32 emulation in this kernel (%s)",
		    sbt_describe(st));
	SBT_KILLED(&stdio, try_i386_getpid);
}

static int	 fdpass_sp[2] = { -1, -1 };

/* Send a pipe's read end to ourselves over the socketpair. */
static int
try_fd_passing(void)
{
	struct msghdr	 msg;
	struct cmsghdr	*cm;
	union {
		struct cmsghdr	 hdr;
		char		 buf[CMSG_SPACE(sizeof(int))];
	} cmsgbuf;
	struct iovec	 iov;
	char		 byte = 'x';
	int		 p[2], fd;

	if (pipe(p) == -1)
		return SBT_BROKEN;
	memset(&msg, 0, sizeof(msg));
	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	iov.iov_base = &byte;
	iov.iov_len = 1;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &p[0], sizeof(int));
	if (sendmsg(fdpass_sp[0], &msg, 0) != 1)
		return errno;

	memset(&cmsgbuf, 0, sizeof(cmsgbuf));
	msg.msg_control = cmsgbuf.buf;
	msg.msg_controllen = sizeof(cmsgbuf.buf);
	if (recvmsg(fdpass_sp[1], &msg, MSG_CMSG_CLOEXEC) != 1)
		return errno;
	if ((cm = CMSG_FIRSTHDR(&msg)) == NULL || cm->cmsg_type != SCM_RIGHTS)
		return SBT_BROKEN;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	/* The received fd is the pipe: what we write arrives. */
	if (write(p[1], "y", 1) != 1 || read(fd, &byte, 1) != 1 ||
	    byte != 'y')
		return SBT_BROKEN;
	return 0;
}

Test(seccomp, fd_passing_works_in_stdio)
{
	struct sandbox_spec spec = sbt_seccomp_spec(SB_STDIO | SB_SENDFD |
	    SB_RECVFD, NULL);

	cr_assert(socketpair(AF_UNIX, SOCK_STREAM, 0, fdpass_sp) == 0);
	SBT_EXITS(&spec, try_fd_passing, 0);
	close(fdpass_sp[0]);
	close(fdpass_sp[1]);
}
