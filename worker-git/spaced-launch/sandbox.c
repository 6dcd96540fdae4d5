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
 * spaced-launch's filter, which the spaced-git it starts inherits: what
 * a fresh spaced-git needs before it confines itself, and the launch
 * (fork, exec, the credential change).  Never a socket or a namespace.
 * No Landlock: one that let spaced-git reach every repository would
 * hold nothing.
 */

#include <sys/syscall.h>

#include <stddef.h>

#include "sandbox.h"
#include "launch.h"

static const int launch_extra[] = {
	SYS_setgroups, SYS_setresgid, SYS_setresuid,
	/* a quarantine's: its folder, and the chroot its spaced-git does */
	SYS_capget, SYS_capset, SYS_chroot, SYS_chdir, SYS_fchdir, SYS_mkdirat,
	SYS_fchmod,
	SYS_unlinkat, SYS_getdents64,
	-1
};

const struct sandbox_spec launch_sandbox = {
	.sb_name = "launch",
	/* sendfd: spaced.conf, opened for spaced's reload (launch_conf.c) */
	.sb_groups = SB_STDIO | SB_RECVFD | SB_SENDFD | SB_RPATH | SB_WPATH |
	    SB_PROC | SB_EXEC,
	.sb_extra = launch_extra,
	.sb_landlock_optional = 1,
};
