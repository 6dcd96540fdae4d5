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
 * The tools volume's one-shot containers, builder and checker side by
 * side: the filler, whose one way out is a gatekeeper of its own for the
 * npm registry, that gatekeeper, and the marker's reader, with no
 * network.  The one-shots idle and work through an exec
 * (docs/notes/spaced-docker-tools.md).  Pure: no I/O, no globals.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "docker_harden.h"
#include "docker_tools.h"
#include "labels.h"

/*
 * The filler has no network of its own: the relay (run from the runtime
 * volume, read-only, as in a space) listens on its loopback and carries
 * the corridor to a gatekeeper of its own, whose allowlist is the
 * registry alone, on a bridge of the pool, through the socket volume
 * that gatekeeper writes and the filler only reads (docs/privsep.md).
 */
#define TOOLS_FILL_NETWORK	"none"
#define TOOLS_FILL_TMPFS	"rw,exec,nosuid,size=1g"
#define TOOLS_FILL_MEMORY	(2LL << 30)	/* = swap; the tmpfs counts */
#define TOOLS_FILL_ENV		"HOME=/tmp"
#define TOOLS_CHECK_MEMORY	(128LL << 20)	/* the setup one-shot's */
#define TOOLS_NODE		"/usr/bin/node"	/* the space image's */
#define TOOLS_MOUNT		TOOLS_DIR	/* docker_tools.h */
#define TOOLS_SOCKET_DIR	HARDEN_SOCKET_DIR	/* rw in its gk */
#define TOOLS_RELAY		HARDEN_RELAY	/* the runtime volume's */
#define TOOLS_REGISTRY		"registry.npmjs.org"	/* port 443 */
#define TOOLS_PROXY		"http://127.0.0.1:3128"
#define TOOLS_GK_BIN		"/usr/libexec/spaced/spaced-gatekeeper"
/* Past the volume's name: "-fill-sock" and the like. */
#define TOOLS_SUFFIX_MAX	12

struct harden_tools_params {
	enum tools_role		 tp_role;
	const char		*tp_image;	/* the space image */
	const char		*tp_gk_image;	/* TOOLS_ROLE_FILL_GK */
	const char		*tp_volume;	/* spaced-tools-... */
	const char		*tp_owner;
	const char		*tp_key;
	const char		*tp_description;
	const char		*tp_created;
	/*
	 * The filler's uid and gid, of "space uid range" (never 0): it
	 * owns the folder it fills, TOOLS_ROOT (tools_fill_uid).
	 */
	uint32_t		 tp_uid;
	/* TOOLS_ROLE_FILL: the relay's key, its runtime volume's name */
	const char		*tp_runtime_key;
	const char		*tp_subnet;	/* TOOLS_ROLE_FILL_NET, or "" */
};

/* The filler's uid: the key's first 48 bits in the range; 0 none. */
uint32_t tools_fill_uid(const char *key, uint32_t first, uint32_t count);
/* The one-shot's user: "uid:uid", the space image's or the gk's. */
int	 harden_tools_user(const struct harden_tools_params *, char *,
	    size_t);

/*
 * The name of the role's resource: the volume's own, or "<volume>-fill",
 * "-check", "-fill-gk", "-fill-net", "-fill-sock"; -1 when short.
 */
int	 harden_tools_name(const struct harden_tools_params *, char *, size_t);
/* The body of POST /containers/create?name=... (fill, check, fill gk). */
json_t	*harden_tools_create(const struct harden_tools_params *,
	    const char **errstr);
/* POST /volumes/create: the tools volume, or the filler's socket one. */
json_t	*harden_tools_volume_create(const struct harden_tools_params *,
	    const char **errstr);
/* POST /networks/create: the filler's gatekeeper's bridge. */
json_t	*harden_tools_network_create(const struct harden_tools_params *,
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
