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
 * spaced's own filter, installed once every worker runs and the control
 * socket is bound.  It has forked its last child: no fork, no exec, no
 * change of credentials.  What it keeps is what routing needs.
 * spaced_sandbox is the fixed part; spaced_sandbox_build adds what is
 * known only then (the workers' pids, the socket's directory), and
 * spaced_caps_keep says which capabilities root keeps (privdrop.c).
 */

#include <sys/syscall.h>

#include <linux/capability.h>

#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "spaced.h"

static const int spaced_extra[] = {
	SYS_wait4,	/* reap a worker that died, to say why */
	SYS_unlink,	/* remove the control socket on the way out */
	SYS_readlink,	/* /proc/<pid>/root for the audit table */
	SYS_socketpair,	/* the channel of a repository's spaced-git */
	-1
};

const struct sandbox_spec spaced_sandbox = {
	.sb_name = "spaced",
	/*
	 * stdio: channels and clients; recvfd, sendfd: sockets for workers;
	 * rpath: /proc for the audit table; inet: accept control clients,
	 * connect to the Docker socket for the Docker worker.
	 */
	.sb_groups = SB_STDIO | SB_RECVFD | SB_SENDFD | SB_RPATH | SB_INET,
	.sb_extra = spaced_extra,
	/*
	 * Landlock: nothing here; spaced_sandbox_build allows reads beneath
	 * /proc/<pid> of spaced and its workers and file removal in the
	 * control socket's directory.  The Docker socket's connect is no
	 * Landlock access on this kernel's ABIs.  Where the kernel has no
	 * Landlock spaced still runs: it is root (or the user) anyway.
	 */
	.sb_landlock_dir = NULL,
	.sb_landlock_best_effort = 1,
	/* Its workers are in Landlock domains of their own. */
	.sb_landlock_signal_out = 1,
};

void
spaced_sandbox_build(struct spaced_sandbox *ss, const pid_t *pids,
    size_t npids, pid_t self, const char *socket_path)
{
	struct sandbox_arg_rule	*kill_rule = &ss->ss_args[0];
	char			 dir[PATH_MAX];
	size_t			 i, n = 0;

	if (npids > SB_ARG_VALUES_MAX || npids >= SPACED_SB_PROCS)
		fatalx("%s: %zu workers", __func__, npids);
	memset(ss, 0, sizeof(*ss));
	ss->ss_spec = spaced_sandbox;

	/* kill: its workers' pids, as pid_t values, nothing else. */
	kill_rule->sr_nr = SYS_kill;
	kill_rule->sr_arg = 0;
	for (i = 0; i < npids; i++)
		if (pids[i] > 0)
			kill_rule->sr_values[kill_rule->sr_nvalues++] =
			    (uint64_t)pids[i];
	ss->ss_args[1].sr_nr = -1;
	ss->ss_spec.sb_args = ss->ss_args;

	/* Reads: /proc of spaced itself and of each worker. */
	for (i = 0; i <= npids; i++) {
		pid_t	 pid = i < npids ? pids[i] : self;

		if (pid <= 0)
			continue;
		snprintf(ss->ss_proc[n], sizeof(ss->ss_proc[n]), "/proc/%d",
		    (int)pid);
		ss->ss_paths[n].sp_path = ss->ss_proc[n];
		ss->ss_paths[n].sp_access = SB_LL_READ | SB_LL_PIN;
		n++;
	}
	/* Removal: the control socket, in its directory. */
	if (socket_path != NULL) {
		if (strlcpy(dir, socket_path, sizeof(dir)) >= sizeof(dir))
			fatalx("%s: socket path too long", __func__);
		strlcpy(ss->ss_sockdir, dirname(dir), sizeof(ss->ss_sockdir));
		ss->ss_paths[n].sp_path = ss->ss_sockdir;
		ss->ss_paths[n].sp_access = SB_LL_REMOVE;
		n++;
	}
	ss->ss_paths[n].sp_path = NULL;
	ss->ss_spec.sb_landlock_paths = ss->ss_paths;
}

uint64_t
spaced_caps_keep(void)
{
	/*
	 * Its workers run as other uids: signalling them takes CAP_KILL
	 * (the filter allows kill of their pids only).  Nothing else: the
	 * Docker socket (root:docker 0660), /proc/<pid>/status and fd and
	 * the control socket's directory are root's by their mode bits;
	 * /dev/kmsg was opened at start; the workers' root directories
	 * were read at start (audit_note_root), since readlink of
	 * /proc/<pid>/root would need CAP_SYS_PTRACE, which also opens
	 * /proc/<any>/mem, and Landlock refuses it anyway.
	 */
	return 1ULL << CAP_KILL;
}
