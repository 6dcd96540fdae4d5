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

static void
privdrop_caps(uint64_t keep)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];
	uint64_t			 eff, prm, inh;
	int				 cap;

	/*
	 * Needs CAP_SETPCAP, so before the capset below.  NOROOT: an exec
	 * as root would not refill the sets (spaced execs nothing now, and
	 * its filter forbids it; this holds even without the filter).
	 */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
	    SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
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
		privdrop_caps(spaced_caps_keep());
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
		    "ABI %d, its /proc, socket dir removal", abi);
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
