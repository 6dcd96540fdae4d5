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

#ifndef SPACED_DOCKER_HARDEN_TOOLS_H
#define SPACED_DOCKER_HARDEN_TOOLS_H

/*
 * The tools volume's two one-shot containers, builder and checker side
 * by side: the filler, spaced's one container with a way out (the
 * default bridge, for the npm registry), and the marker's reader, with
 * no network.  Both idle and work through an exec
 * (docs/notes/spaced-docker-tools.md).  Pure: no I/O, no globals.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "docker_harden.h"
#include "docker_tools.h"
#include "labels.h"

#define TOOLS_FILL_USER		"0:0"	/* root owns the fresh volume */
#define TOOLS_FILL_NETWORK	"bridge"
#define TOOLS_FILL_TMPFS	"rw,exec,nosuid,size=1g"
#define TOOLS_FILL_MEMORY	(2LL << 30)	/* = swap; the tmpfs counts */
#define TOOLS_FILL_ENV		"HOME=/tmp"
#define TOOLS_CHECK_MEMORY	(128LL << 20)	/* the setup one-shot's */
#define TOOLS_NODE		"/usr/bin/node"	/* the space image's */
#define TOOLS_MOUNT		TOOLS_DIR	/* docker_tools.h */

struct harden_tools_params {
	enum tools_role		 tp_role;	/* TOOLS_ROLE_FILL or _CHECK */
	const char		*tp_image;
	const char		*tp_volume;	/* spaced-tools-... */
	const char		*tp_owner;
	const char		*tp_key;
	const char		*tp_description;
	const char		*tp_created;
};

/* The one-shot's name: "<volume>-fill" or "<volume>-check"; -1 short. */
int	 harden_tools_name(const struct harden_tools_params *, char *, size_t);
/* The body of POST /containers/create?name=...; NULL and *errstr. */
json_t	*harden_tools_create(const struct harden_tools_params *,
	    const char **errstr);
/* The volume's body for POST /volumes/create. */
json_t	*harden_tools_volume_create(const struct harden_tools_params *,
	    const char **errstr);
/*
 * The inspect of a created one-shot against its body, by name:
 * tools_inspect, tools_labels, tools_image, tools_command, tools_user,
 * tools_env, tools_init, tools_readonly_rootfs, tools_privileged,
 * tools_cap_drop, tools_cap_add, tools_security_opt, tools_pids_limit,
 * tools_memory, tools_memory_swap, tools_network, tools_ipc,
 * tools_cgroupns, tools_pid_mode, tools_tmpfs, tools_mounts,
 * tools_binds, tools_devices, tools_ports, tools_runtime, tools_log,
 * tools_restart_policy, tools_sysctls.
 */
void	 harden_verify_tools(const json_t *, const struct harden_tools_params *,
	    struct harden_report *);

#endif /* SPACED_DOCKER_HARDEN_TOOLS_H */
