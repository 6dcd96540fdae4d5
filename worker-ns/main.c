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
 * spaced-ns: the native place.  Root, with the capabilities to make
 * namespaces, groups and mounts and no more; its own filter (not the
 * common allowlist, which every space would inherit).  docs/privsep.md.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/capability.h>

#include <event.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "proc.h"
#include "ns.h"

/*
 * What it keeps: namespaces and mounts (SYS_ADMIN), uid maps and the
 * users of a space and a gatekeeper (SETUID, SETGID), the space's
 * folders (CHOWN, DAC_OVERRIDE, FOWNER), joining a space's namespaces
 * (SYS_PTRACE, SYS_CHROOT), ending its processes (KILL), the
 * loopback of a space's new network namespace up (NET_ADMIN).
 */
#define NS_CAPS	(1ULL << CAP_SYS_ADMIN | 1ULL << CAP_SETUID | \
	1ULL << CAP_SETGID | 1ULL << CAP_CHOWN | 1ULL << CAP_DAC_OVERRIDE | \
	1ULL << CAP_FOWNER | 1ULL << CAP_SYS_PTRACE | 1ULL << CAP_KILL | \
	1ULL << CAP_SYS_CHROOT | 1ULL << CAP_NET_ADMIN)

static struct event	 sigchld;
static uint64_t		 ns_caps;	/* of NS_CAPS, those it was given */

static uint64_t
caps_permitted(void)
{
	struct __user_cap_header_struct	 hdr;
	struct __user_cap_data_struct	 data[2];

	memset(&hdr, 0, sizeof(hdr));
	memset(data, 0, sizeof(data));
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	if (syscall(SYS_capget, &hdr, data) == -1)
		fatal("capget");
	return (uint64_t)data[1].permitted << 32 | data[0].permitted;
}

/*
 * Without the capabilities a space needs (a service unit's bounding
 * set, spaced run as a plain user) the native place is absent, not
 * spaced: every create and check says why.
 */
static void
ns_prewarm(void)
{
	char	 self[PATH_MAX];
	ssize_t	 n;

	/*
	 * Every mode it passes is the one a space needs: under spaced's
	 * umask (a hardened root's 077, the unit's UMask=) its folders and
	 * mount points were root's 0700, which the gatekeeper and the space
	 * could not search.  Its spaces start under 022 too, as Docker's.
	 */
	umask(022);
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		fatal("/proc/self/exe");
	self[n] = '\0';
	ns_libexec_set(dirname(self));
	ns_caps = caps_permitted() & NS_CAPS;
	if (ns_caps != NS_CAPS) {
		ns_unavailable_set("spaced-ns was not given the capabilities "
		    "a space needs (CAP_SYS_ADMIN and others: a service "
		    "unit's CapabilityBoundingSet?)");
		return;
	}
	ns_sweep();
}

static void
ns_confine(void)
{
	sandbox_caps_limit(ns_caps, 0);
	ns_filter_worker();
}

static void
ns_sigchld(int fd, short ev, void *arg)
{
	(void)fd;
	(void)ev;
	(void)arg;
	ns_reap();
}

static void
ns_serve(struct event_base *base)
{
	ns_exec_base(base);
	ns_helper_base(base);
	ns_gklog_base(base);
	ns_tools_base(base);
	signal_set(&sigchld, SIGCHLD, ns_sigchld, NULL);
	event_base_set(base, &sigchld);
	signal_add(&sigchld, NULL);
}

static void
ns_dispatch(struct imsgev *iev, struct imsg *imsg)
{
	struct space_exec_resize	 er;
	uint32_t			 type = imsg_get_type(imsg);

	ns_channel_set(iev);
	switch (type) {
	case IMSG_DOCKER_CHECK_REQ:
	case IMSG_SPACE_CREATE_REQ:
	case IMSG_SPACE_LIST_REQ:
	case IMSG_SPACE_SHOW_REQ:
	case IMSG_SPACE_VERIFY_REQ:
	case IMSG_SPACE_STOP_REQ:
	case IMSG_SPACE_START_REQ:
	case IMSG_SPACE_REMOVE_REQ:
		ns_op(type, imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_SPACE_EXEC_REQ:
		ns_exec_start(imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_SPACE_LOGS_REQ:
		ns_logs_start(imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_SPACE_EXEC_RESIZE:
		/* exec -t's window, for the exec of that peer */
		if (imsg_get_data(imsg, &er, sizeof(er)) == -1)
			fatalx("%s: bad resize message", __func__);
		ns_exec_resize(imsg_get_peerid(imsg), er.er_rows, er.er_cols);
		break;
	case IMSG_SPACE_DISK_REQ:
		ns_disk(imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_TOOLS_ENSURE_REQ:
		ns_tools_ensure(imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_TOOLS_FILE:
		ns_tools_file(imsg_get_peerid(imsg), imsg);
		break;
	case IMSG_TOOLS_LIST_REQ:
		ns_tools_list(imsg_get_peerid(imsg), imsg);
		break;
	default:
		fatalx("%s: unexpected imsg %u", __func__, type);
	}
}

/* Landlock would forbid the mounts a space is made of: not used. */
static const struct sandbox_spec ns_sandbox = {
	.sb_name = "ns",
	.sb_landlock_optional = 1,
};

static const struct worker ns_worker = {
	.w_id = PROC_NS,
	.w_sandbox = &ns_sandbox,
	.w_prewarm = ns_prewarm,
	.w_dispatch = ns_dispatch,
	.w_cancel = ns_exec_cancel,
	.w_serve = ns_serve,
	.w_confine = ns_confine,
};

int
main(int argc, char *argv[])
{
	worker_main(argc, argv, &ns_worker);
}
