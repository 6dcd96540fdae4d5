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
 * What spaced gives up once its workers are up: every capability but
 * those spaced_caps_keep names (the bounding set entirely, nothing
 * inheritable or ambient, securebits locked so that no exec could bring
 * root's back), then its own filter and Landlock domain, built for the
 * workers it has (spaced_sandbox_build).  As a plain user there is no
 * capability to drop; the filter and Landlock are the same.
 */

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <linux/capability.h>
#include <linux/securebits.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "spaced.h"

static char	 privdrop_landlock[LANDLOCK_DESC_MAX] = "not used";

void
spaced_privdrop(const struct spaced_conf *conf)
{
	struct spaced_sandbox	 ss;
	pid_t			 pids[PROC_MAX];
	size_t			 npids = 0;
	enum procid		 id;
	int			 abi = sandbox_landlock_abi();

	for (id = 0; id < PROC_MAX; id++)
		if (id != PROC_PARENT && children[id].c_pid > 0) {
			pids[npids++] = children[id].c_pid;
			/* while CAP_SYS_PTRACE and no Landlock allow it */
			audit_note_root(children[id].c_pid);
		}

	if (geteuid() == 0) {
		sandbox_caps_limit(spaced_caps_keep(), 0);
		/*
		 * Without CAP_DAC_OVERRIDE root reaches the Docker socket by
		 * its mode bits only (root:docker 0660 is fine); say so now
		 * rather than at the first check.
		 */
		if (access(conf->sc_docker_socket, R_OK | W_OK) == -1 &&
		    errno == EACCES)
			log_warnx("%s: not accessible without "
			    "CAP_DAC_OVERRIDE: spaced-docker cannot reach it",
			    conf->sc_docker_socket);
	}

	spaced_sandbox_build(&ss, pids, npids, getpid(), conf->sc_socket);
	if (abi > 0)
		snprintf(privdrop_landlock, sizeof(privdrop_landlock),
		    "ABI %d, /proc, socket dir removal", abi);
	else
		snprintf(privdrop_landlock, sizeof(privdrop_landlock),
		    "unavailable (kernel)");
	sandbox_enter(&ss.ss_spec);
}

const char *
spaced_landlock(void)
{
	return privdrop_landlock;
}
