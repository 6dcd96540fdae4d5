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
 * The Landlock layer: seccomp lets the calls through (SB_RPATH and
 * friends, or extras), Landlock must stop them; the same child with
 * sb_landlock_optional set is the control.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "proto.h"
#include "sandbox.h"
#include "sbt.h"

static char		 lldir[64];
static char		 inside_path[128];
static struct sockaddr_in listen_sin;
static struct sockaddr_un abstract_sun;
static socklen_t	 abstract_len;

static void
need_abi(int abi)
{
	int	 have = sandbox_landlock_abi();

	if (have < abi)
		cr_skip_test("kernel Landlock ABI %d, this test needs %d",
		    have, abi);
}

static void
make_dir(void)
{
	strlcpy(lldir, "/tmp/sbt-landlock.XXXXXX", sizeof(lldir));
	cr_assert_not_null(mkdtemp(lldir));
	snprintf(inside_path, sizeof(inside_path), "%s/inside", lldir);
}

static void
remove_dir(void)
{
	unlink(inside_path);
	rmdir(lldir);
}

TestSuite(landlock, .init = make_dir, .fini = remove_dir);

static struct sandbox_spec
ll_spec(unsigned int groups, const int *extra, const char *dir)
{
	struct sandbox_spec	 spec = sbt_seccomp_spec(groups, extra);

	spec.sb_landlock_optional = 0;
	spec.sb_landlock_dir = dir;
	return spec;
}

static int
try_open_passwd(void)
{
	int	 fd;

	if ((fd = open("/etc/passwd", O_RDONLY)) == -1)
		return errno;
	close(fd);
	return 0;
}

static int
try_probe_open(void)
{
	return sandbox_probe(PROBE_OPEN) == -1 ? errno : 0;
}

static int
try_create_inside(void)
{
	char	 buf[3];
	int	 fd;

	if ((fd = open(inside_path, O_RDWR | O_CREAT | O_TRUNC, 0600)) == -1)
		return errno;
	if (write(fd, "ok", 2) != 2 || pread(fd, buf, 2, 0) != 2) {
		close(fd);
		return SBT_BROKEN;
	}
	close(fd);
	return unlink(inside_path) == -1 ? errno : 0;
}

Test(landlock, no_dir_means_no_filesystem)
{
	struct sandbox_spec spec = ll_spec(SB_STDIO | SB_RPATH, NULL, NULL);

	need_abi(1);
	SBT_EXITS(&spec, try_open_passwd, EACCES);
	/* The probe sees the refusal too, so spacectl can report it. */
	SBT_EXITS(&spec, try_probe_open, EACCES);
	spec.sb_landlock_optional = 1;
	SBT_EXITS(&spec, try_open_passwd, 0);
	SBT_EXITS(&spec, try_probe_open, 0);
}

Test(landlock, dir_is_the_only_tree)
{
	struct sandbox_spec spec = ll_spec(SB_STDIO | SB_RPATH | SB_WPATH,
	    NULL, lldir);

	need_abi(1);
	SBT_EXITS(&spec, try_create_inside, 0);
	SBT_EXITS(&spec, try_open_passwd, EACCES);
	spec.sb_landlock_optional = 1;
	SBT_EXITS(&spec, try_open_passwd, 0);
	/* No tree at all: inside is refused as well. */
	spec.sb_landlock_optional = 0;
	spec.sb_landlock_dir = NULL;
	SBT_EXITS(&spec, try_create_inside, EACCES);
}

static int
try_connect_tcp(void)
{
	int	 s, rc;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return errno;
	rc = connect(s, (struct sockaddr *)&listen_sin, sizeof(listen_sin));
	rc = rc == -1 ? errno : 0;
	close(s);
	return rc;
}

static int
try_probe_connect(void)
{
	return sandbox_probe(PROBE_CONNECT) == -1 ? errno : 0;
}

static int
listen_tcp(void)
{
	socklen_t	 len = sizeof(listen_sin);
	int		 l;

	l = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert(l != -1);
	memset(&listen_sin, 0, sizeof(listen_sin));
	listen_sin.sin_family = AF_INET;
	listen_sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert(bind(l, (struct sockaddr *)&listen_sin, len) == 0);
	cr_assert(listen(l, 8) == 0);
	cr_assert(getsockname(l, (struct sockaddr *)&listen_sin, &len) == 0);
	return l;
}

Test(landlock, tcp_needs_inet)
{
	/* seccomp lets socket and connect through; Landlock must not. */
	static const int extra[] = { SYS_socket, SYS_connect, -1 };
	struct sandbox_spec spec = ll_spec(SB_STDIO, extra, NULL);
	int l;

	need_abi(4);
	l = listen_tcp();

	SBT_EXITS(&spec, try_connect_tcp, EACCES);
	SBT_EXITS(&spec, try_probe_connect, EACCES);
	spec.sb_landlock_optional = 1;
	SBT_EXITS(&spec, try_connect_tcp, 0);
	SBT_EXITS(&spec, try_probe_connect, 0);
	/* With SB_INET, Landlock leaves TCP alone. */
	spec = ll_spec(SB_STDIO | SB_INET, NULL, NULL);
	SBT_EXITS(&spec, try_connect_tcp, 0);
	close(l);
}

static int
try_signal_parent(void)
{
	return kill(getppid(), 0) == -1 ? errno : 0;
}

static int
try_connect_abstract(void)
{
	int	 s, rc;

	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return errno;
	rc = connect(s, (struct sockaddr *)&abstract_sun, abstract_len);
	rc = rc == -1 ? errno : 0;
	close(s);
	return rc;
}

static int
listen_abstract(void)
{
	int	 l;

	l = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert(l != -1);
	memset(&abstract_sun, 0, sizeof(abstract_sun));
	abstract_sun.sun_family = AF_UNIX;
	/* sun_path[0] == '\0': the abstract namespace. */
	snprintf(abstract_sun.sun_path + 1, sizeof(abstract_sun.sun_path) - 1,
	    "sbt-abstract-%d", (int)getpid());
	abstract_len = offsetof(struct sockaddr_un, sun_path) + 1 +
	    strlen(abstract_sun.sun_path + 1);
	cr_assert(bind(l, (struct sockaddr *)&abstract_sun, abstract_len) == 0);
	cr_assert(listen(l, 8) == 0);
	return l;
}

Test(landlock, scoped_signals_and_abstract_sockets)
{
	static const int extra[] = { SYS_kill, SYS_socket, SYS_connect, -1 };
	struct sandbox_spec spec = ll_spec(SB_STDIO, extra, NULL);
	int l;

	need_abi(6);
	l = listen_abstract();

	SBT_EXITS(&spec, try_signal_parent, EPERM);
	SBT_EXITS(&spec, try_connect_abstract, EPERM);
	spec.sb_landlock_optional = 1;
	SBT_EXITS(&spec, try_signal_parent, 0);
	SBT_EXITS(&spec, try_connect_abstract, 0);
	close(l);
}

/*
 * The two tests above need ABI 4 and 6 and skip on older kernels (Debian
 * 12's has 2).  What holds there is seccomp alone: the same attempts,
 * Landlock hidden (so on every kernel), from the groups the workers
 * have; the control is the attempt with the calls as extras, which then
 * works: only the filter's list stood in the way.
 */
static void
floor_case(const struct sandbox_spec *spec, sbt_attempt attempt, int want,
    const char *what)
{
	int	 st = sbt_run_prepared(spec, sbt_hide_landlock, attempt);

	if (want == SIGSYS)
		cr_assert(sbt_sigsys(st), "%s: want SIGSYS, got %s", what,
		    sbt_describe(st));
	else
		cr_assert(sbt_exit(st) == want, "%s: want exit %d, got %s",
		    what, want, sbt_describe(st));
}

Test(landlock, tcp_without_landlock_held_by_seccomp)
{
	static const int extra[] = { SYS_socket, SYS_connect, -1 };
	struct sandbox_spec stdio = ll_spec(SB_STDIO, NULL, NULL);
	struct sandbox_spec unixg = ll_spec(SB_STDIO | SB_UNIX, NULL, NULL);
	struct sandbox_spec extras = ll_spec(SB_STDIO, extra, NULL);
	int l;

	l = listen_tcp();
	floor_case(&stdio, try_connect_tcp, SIGSYS, "stdio, TCP");
	floor_case(&unixg, try_connect_tcp, SIGSYS, "stdio+unix, TCP");
	floor_case(&extras, try_connect_tcp, 0, "control: extras, TCP");
	close(l);
}

Test(landlock, signals_and_abstract_without_landlock_held_by_seccomp)
{
	static const int extra[] = { SYS_kill, SYS_socket, SYS_connect, -1 };
	struct sandbox_spec stdio = ll_spec(SB_STDIO, NULL, NULL);
	struct sandbox_spec extras = ll_spec(SB_STDIO, extra, NULL);
	int l;

	l = listen_abstract();
	floor_case(&stdio, try_signal_parent, SIGSYS, "stdio, kill");
	floor_case(&stdio, try_connect_abstract, EACCES, "stdio, abstract");
	floor_case(&extras, try_signal_parent, 0, "control: extras, kill");
	floor_case(&extras, try_connect_abstract, 0,
	    "control: extras, abstract");
	close(l);
}

/*
 * Where the kernel has no Landlock, a process with path groups must be
 * held by a chroot or refuse to run (sandbox_enter is fatal: exit 1);
 * one without path groups is held by seccomp alone.
 */
static int
try_nothing(void)
{
	return 0;
}

static int
hide_landlock_and_chroot(void)
{
	int	 rc;

	if ((rc = sbt_hide_landlock()) != 0)
		return rc;
	sandbox_drop_privileges("nobody", lldir);
	return 0;
}

static int
landlock_is_gone(void)
{
	return sandbox_landlock_abi() == 0 ? 0 : EEXIST;
}

Test(landlock, no_landlock_no_chroot_refuses_path_groups)
{
	struct sandbox_spec	 rw = ll_spec(SB_STDIO | SB_RPATH | SB_WPATH,
	    NULL, NULL);
	struct sandbox_spec	 ro = ll_spec(SB_STDIO | SB_RPATH, NULL, NULL);
	struct sandbox_spec	 stdio = ll_spec(SB_STDIO, NULL, NULL);
	int			 st;

	/* The helper really hides Landlock (control of the control). */
	st = sbt_run_prepared(NULL, sbt_hide_landlock, landlock_is_gone);
	cr_assert(sbt_exit(st) == 0, "Landlock still seen: %s",
	    sbt_describe(st));
	/* With Landlock, the same spec enters (positive control). */
	st = sbt_run(&rw, try_nothing);
	cr_assert(sbt_exit(st) == 0, "with Landlock: %s", sbt_describe(st));

	st = sbt_run_prepared(&rw, sbt_hide_landlock, try_nothing);
	cr_assert(sbt_exit(st) == 1, "rpath+wpath ran unheld: %s",
	    sbt_describe(st));
	st = sbt_run_prepared(&ro, sbt_hide_landlock, try_nothing);
	cr_assert(sbt_exit(st) == 1, "rpath ran unheld: %s",
	    sbt_describe(st));
	st = sbt_run_prepared(&stdio, sbt_hide_landlock, try_nothing);
	cr_assert(sbt_exit(st) == 0, "stdio alone refused: %s",
	    sbt_describe(st));
}

Test(landlock, no_landlock_but_a_chroot_holds)
{
	struct sandbox_spec	 rw = ll_spec(SB_STDIO | SB_RPATH | SB_WPATH,
	    NULL, NULL);
	int			 st;

	if (geteuid() != 0)
		cr_skip_test("not root: no chroot to hold the process");
	cr_assert(chmod(lldir, 0755) == 0);
	st = sbt_run_prepared(&rw, hide_landlock_and_chroot, try_nothing);
	cr_assert(sbt_exit(st) == 0, "chrooted, refused: %s",
	    sbt_describe(st));
}

Test(landlock, fs_unheld_decision)
{
	const unsigned int	 rw = SB_STDIO | SB_RPATH | SB_WPATH;

	cr_assert_not_null(sandbox_fs_unheld(rw, 0, 0));
	cr_assert_not_null(sandbox_fs_unheld(SB_STDIO | SB_RPATH, 0, 0));
	cr_assert_not_null(sandbox_fs_unheld(SB_STDIO | SB_WPATH, 0, 0));
	cr_assert_null(sandbox_fs_unheld(rw, 1, 0));
	cr_assert_null(sandbox_fs_unheld(rw, 6, 0));
	cr_assert_null(sandbox_fs_unheld(rw, 0, 1));
	cr_assert_null(sandbox_fs_unheld(SB_STDIO | SB_INET, 0, 0));
	cr_assert_null(sandbox_fs_unheld(0, 0, 0));
}
