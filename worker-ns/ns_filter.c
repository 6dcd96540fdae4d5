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
 * Two seccomp filters.  A space's: Docker's default profile's refusals
 * and more (EPERM), ptrace and new namespaces included.  spaced-ns's
 * own: a denylist, since every space inherits it and an allowlist would
 * be the union of all a space may run; EPERM, not a kill, because a
 * space's programs probe some of these (libuv tries io_uring).
 */

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ns.h"

#define X32_BIT		0x40000000U
#define NS_FLAGS	(CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | \
			    CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | \
			    CLONE_NEWCGROUP | CLONE_NEWTIME)

/* Refused in a space: Docker's default profile refuses each of these. */
static const int space_denied[] = {
	SYS_acct, SYS_add_key, SYS_bpf, SYS_clock_adjtime, SYS_clock_settime,
	SYS_create_module, SYS_delete_module, SYS_finit_module,
	SYS_get_kernel_syms, SYS_get_mempolicy, SYS_init_module, SYS_ioperm,
	SYS_iopl, SYS_kcmp, SYS_kexec_file_load, SYS_kexec_load, SYS_keyctl,
	SYS_lookup_dcookie, SYS_mbind, SYS_mount, SYS_move_pages,
	SYS_name_to_handle_at, SYS_nfsservctl, SYS_open_by_handle_at,
	SYS_perf_event_open, SYS_pivot_root, SYS_process_vm_readv,
	SYS_process_vm_writev, SYS_ptrace, SYS_query_module, SYS_quotactl,
	SYS_reboot, SYS_request_key, SYS_set_mempolicy, SYS_setns,
	SYS_settimeofday, SYS_swapon, SYS_swapoff, SYS_sysfs, SYS__sysctl,
	SYS_umount2, SYS_unshare, SYS_uselib, SYS_userfaultfd, SYS_ustat,
	SYS_vhangup, SYS_chroot, SYS_syslog, SYS_fanotify_init,
	SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
	SYS_open_tree, SYS_move_mount, SYS_fsopen, SYS_fsconfig,
	SYS_fsmount, SYS_fspick, SYS_mount_setattr, SYS_pidfd_getfd,
	SYS_quotactl_fd,
	-1
};

/* Never in spaced-ns or below it. */
static const int worker_denied[] = {
	SYS_acct, SYS_add_key, SYS_bpf, SYS_create_module, SYS_delete_module,
	SYS_finit_module, SYS_init_module, SYS_ioperm, SYS_iopl,
	SYS_kexec_file_load, SYS_kexec_load, SYS_keyctl, SYS_lookup_dcookie,
	SYS_nfsservctl, SYS_open_by_handle_at, SYS_perf_event_open,
	SYS_query_module, SYS_reboot, SYS_request_key, SYS_settimeofday,
	SYS_clock_settime, SYS_clock_adjtime, SYS_swapon, SYS_swapoff,
	SYS__sysctl, SYS_uselib, SYS_userfaultfd, SYS_io_uring_setup,
	SYS_io_uring_enter, SYS_io_uring_register, SYS_process_vm_readv,
	SYS_process_vm_writev, SYS_ptrace,
	-1
};

#define MAXPROG	256

struct prog {
	struct sock_filter	 f[MAXPROG];
	size_t			 n;
};

static void
emit(struct prog *p, struct sock_filter s)
{
	if (p->n >= MAXPROG)
		fatalx("%s: filter too long", __func__);
	p->f[p->n++] = s;
}

#define STMT(c, k)		((struct sock_filter)BPF_STMT(c, k))
#define JUMP(c, k, t, f)	((struct sock_filter)BPF_JUMP(c, k, t, f))
#define ARG_LO(n)		(offsetof(struct seccomp_data, args[n]))

/*
 * The program: the arch, x32 refused, clone3 ENOSYS (so libc falls back
 * to clone, whose flags are seen), clone with a namespace flag refused,
 * then the list, then allowed.
 */
static int
build(struct prog *p, const int *denied, unsigned int deny, int ns_ok)
{
	size_t	 i;

	p->n = 0;
	emit(p, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data,
	    arch)));
	emit(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
	emit(p, STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	emit(p, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data,
	    nr)));
	emit(p, JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1));
	emit(p, STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
	if (!ns_ok) {
		emit(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
		emit(p, STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
		emit(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
		emit(p, STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(0)));
		emit(p, JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 0, 1));
		emit(p, STMT(BPF_RET | BPF_K, deny));
		emit(p, STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	}
	for (i = 0; denied[i] != -1; i++) {
		if (denied[i] < 0)
			continue;
		emit(p, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)denied[i],
		    0, 1));
		emit(p, STMT(BPF_RET | BPF_K, deny));
	}
	emit(p, STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	return 0;
}

static int
install(struct prog *p)
{
	struct sock_fprog	 fp = { (unsigned short)p->n, p->f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) == -1 ?
	    -1 : 0;
}

/* In a space's pid 1 and every command: its children inherit it. */
int
ns_filter_space(void)
{
	static struct prog	 p;

	build(&p, space_denied, SECCOMP_RET_ERRNO | EPERM, 0);
	return install(&p);
}

void
ns_filter_worker(void)
{
	static struct prog	 p;

	build(&p, worker_denied, SECCOMP_RET_ERRNO | EPERM, 1);
	if (install(&p) == -1)
		fatal("%s: seccomp", __func__);
}
