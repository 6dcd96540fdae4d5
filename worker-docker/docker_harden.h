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

#ifndef SPACED_DOCKER_HARDEN_H
#define SPACED_DOCKER_HARDEN_H

/*
 * The hardening of a space: the create bodies (docker_harden.c) and the
 * checkers that read the inspect back (docker_verify*.c).  A pair
 * changes together: every restriction a builder asks for, a checker
 * demands by name.  Pure: const input, no I/O, no globals.
 */

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "docker_netpool.h"
#include "labels.h"
#include "place_proto.h"

/*
 * Never root.  The images' users (tools/images.sh): the space image's
 * runs the tools one-shots; a space runs as a uid of its own from the
 * range spaced.conf reserves (harden_space_uid), its gatekeeper as the
 * gatekeeper image's.
 */
#define HARDEN_SPACE_USER	"10000:10000"
#define HARDEN_SPACE_UID	10000
#define HARDEN_GK_USER		"10100:10100"
#define HARDEN_USER_MAX		24	/* "4294967295:4294967295" */
/* Ulimits: no core files; open files; the space's uid's processes. */
#define HARDEN_NOFILE		16384
#define HARDEN_SPACE_NPROC	(2 * HARDEN_PIDS_LIMIT)
/* The space dies first when the host runs short; its gatekeeper not. */
#define HARDEN_SPACE_OOM_ADJ	500
#define HARDEN_GK_OOM_ADJ	0
#define HARDEN_PIDS_LIMIT	512
#define HARDEN_SHM_SIZE		(64LL << 20)
#define HARDEN_SPACE_MEMORY	(4LL << 30)	/* the default */
/* HARDEN_MEMORY_MIN and _MAX: place_proto.h, spaced checks them too */
#define HARDEN_GK_MEMORY	(256LL << 20)	/* exact, the spec's */
#define HARDEN_SPACE_CPUS	2000000000LL	/* NanoCpus defaults */
#define HARDEN_GK_CPUS		500000000LL
#define HARDEN_CPUS_MAX		256000000000LL
/* docker-bench 5.11 warns on 0 and 1024 (the default weight). */
#define HARDEN_CPU_SHARES	512
#define HARDEN_SPACE_TMPFS	"rw,exec,nosuid,size=256m"
#define HARDEN_GK_TMPFS		"rw,noexec,nosuid,size=16m"
#define HARDEN_TMP		"/tmp"
#define HARDEN_SOCKET_DIR	"/run/spaced"	/* RW in gk, RO in space */
#define HARDEN_RUNTIME_DIR	"/opt/spaced"	/* RO in the space */
/*
 * A driver option the local driver refuses: set on the mounts of the
 * shared volumes (runtime, tools), it makes the engine refuse a
 * container whose volume went since it was looked at (a prune of
 * another spaced) rather than make an empty one of the name.
 */
#define HARDEN_MUST_EXIST	"spaced.volume-must-exist"
#define HARDEN_RELAY		"/opt/spaced/spaced-relay"
/* The space CA bundle, in the runtime volume when spaced.conf names one. */
#define HARDEN_SPACE_CA		"/opt/spaced/ca-certificates.crt"
#define HARDEN_HOME		"/home/space"
/*
 * The home volume is mounted at /home and holds the home folder, which
 * create gives the space's uid (the volume's root cannot be chowned
 * through the engine; a folder in it can).
 */
#define HARDEN_HOME_PARENT	"/home"
#define HARDEN_HOME_NAME	"space"
/*
 * The work volume is mounted at /spaces and holds the space's folder,
 * /spaces/<id>, which create puts in owned by the space user (a fresh
 * volume's root is root's, and no image folder is there to copy from).
 */
#define HARDEN_WORK_PARENT	"/spaces"
/*
 * A space has no engine network (NetworkDisabled), so no hosts file
 * from the engine: spaced's, with "gatekeeper" on the loopback, is
 * bound read-only in its place.
 */
#define HARDEN_HOSTS_FILE	"/etc/hosts"
#define HARDEN_PROXY		"http://gatekeeper:3128"
#define HARDEN_NO_PROXY		"gatekeeper,localhost,127.0.0.1"
#define HARDEN_RUNTIME		"runc"
/*
 * The log rotates over five files of 10 MB rather than one that the
 * engine truncates to nothing at its cap (issue 26: a flood of refusals
 * erased a gatekeeper's earlier records before they were collected).
 */
#define HARDEN_LOG_DRIVER	"local"
#define HARDEN_LOG_MAX_SIZE	"10m"
#define HARDEN_LOG_MAX_FILE	"5"
#define HARDEN_LOG_COMPRESS	"false"
/* Health checks, nanoseconds as the Engine takes them. */
#define HARDEN_HEALTH_INTERVAL	10000000000LL
#define HARDEN_HEALTH_TIMEOUT	5000000000LL
#define HARDEN_HEALTH_START	10000000000LL
#define HARDEN_HEALTH_RETRIES	3

#define HARDEN_ARGV_MAX		64	/* entries of any argv we take */
/* The space's entrypoint before its command: relay -w FOLDER -- */
#define HARDEN_RELAY_ARGS	4
#define HARDEN_FOLDER_MAX	64	/* /spaces/ID */
#define HARDEN_ARG_MAX		1024	/* bytes of one entry */
#define HARDEN_ENV_MAX		32	/* caller's extra entries */
#define HARDEN_IMAGE_MAX	256

/*
 * What a space is made of.  harden_params_init() sets the defaults;
 * the caller fills the rest.  Arrays are NULL-terminated.
 *
 * hp_env holds extra KEY=VALUE entries for the space and must never
 * hold a secret: the environment shows in every inspect, to anyone who
 * can reach the engine.  Secrets travel on the stdin of an exec only
 * (DESIGN.md rule 5).  The builder refuses names that look like one
 * and names of our own; the checker reports what slipped in.
 */
struct harden_params {
	struct space_meta	 hp_meta;	/* id, owner, ..., sm_memory */
	const char		*hp_space_image;
	const char		*hp_gk_image;
	int64_t			 hp_cpus;	/* NanoCpus of the space */
	int64_t			 hp_gk_cpus;	/* NanoCpus of the gatekeeper */
	char			 hp_runtime_key[RUNTIME_KEY_LEN + 1];
	char			 hp_runtime_owner[SPACE_OWNER_SIZE];
	const char *const	*hp_argv;	/* after the relay's "--" */
	const char *const	*hp_env;	/* extra, may be NULL */
	const char *const	*hp_gk_argv;	/* the gatekeeper's command */
	const char *const	*hp_health;	/* ["CMD", ...] of the space */
	const char *const	*hp_gk_health;	/* ["CMD", ...] of the gk */
	/* the agent's tools, read-only at SPACE_TOOLS_DIR; "" none */
	char			 hp_tools[SPACE_RESOURCE_MAX];
	/* spaced's hosts file on the host, bound read-only at /etc/hosts */
	const char		*hp_hosts;
	/* 1: the runtime volume holds a space CA bundle; its variables */
	int			 hp_runtime_ca;
	/* the space's uid and gid (harden_space_uid); never 0 */
	uint32_t		 hp_uid;
	/* the outer network: its pool (prefix 0: none), the subnet asked */
	struct net_pool		 hp_pool;
	char			 hp_subnet[NETPOOL_CIDR_MAX];
};

/* The space's fixed environment, NULL-terminated: HOME, PATH, proxies. */
extern const char *const harden_space_env[];
/* With a space CA bundle, beside it: what TLS clients inside read. */
extern const char *const harden_space_ca_env[];
/* The gatekeeper's whole environment (beyond an image's PATH). */
#define HARDEN_GK_ENV		"HOME=/tmp"

void	 harden_params_init(struct harden_params *);
/*
 * A space's uid: first + its id (48 bits of hex) modulo count, so every
 * request about it finds the same one; 0 when the range is empty or the
 * id is not one.  "uid:uid" for the engine's User into buf.
 */
uint32_t harden_space_uid(const char *id, uint32_t first, uint32_t count);
int	 harden_user(char *buf, size_t len, uint32_t uid);
/*
 * 1 if an environment entry "NAME=..." has a name that looks like a
 * secret (TOKEN, SECRET, PASSWORD, KEY, AUTH, ...; any case), which no
 * environment of ours may carry.
 */
int	 harden_env_secret(const char *entry);
/* Returns NULL if p can be built from, or why not. */
const char *harden_params_check(const struct harden_params *p);

/*
 * The bodies.  Each returns a new object, or NULL and sets *errstr.
 * The container bodies go to POST /containers/create?name=<the role's
 * name> (space_resource_name), the network body to POST
 * /networks/create, the volume bodies to POST /volumes/create.
 */
json_t	*harden_space_create(const struct harden_params *, const char **);
/* /spaces/ID: the space's folder in its work volume, made by its relay. */
int	 harden_space_folder(char *, size_t, const struct space_meta *);
json_t	*harden_gatekeeper_create(const struct harden_params *, const char **);
/* The space's outer bridge, the gatekeeper's one network. */
json_t	*harden_network_create(const struct harden_params *, const char **);
/* r is ROLE_SOCKET, ROLE_WORK or ROLE_HOME. */
json_t	*harden_volume_create(const struct harden_params *, enum space_role,
	    const char **);
json_t	*harden_runtime_volume_create(const struct harden_params *,
	    const char **);
/* The same from the installation's owner and the key alone (a tools fill's). */
json_t	*harden_runtime_volume_body(const char *owner, const char *key,
	    const char **);

/*
 * Violations, by name.  A list holds each name once, at most
 * HARDEN_REPORT_MAX of them; hr_truncated says one was dropped (the
 * list is then still not empty, so never read as verified).
 */
#define HARDEN_REPORT_MAX	64
#define HARDEN_CHECK_MAX	48
#define HARDEN_MESSAGE_MAX	96
struct harden_violation {
	char		 hv_check[HARDEN_CHECK_MAX];
	char		 hv_message[HARDEN_MESSAGE_MAX];
};
struct harden_report {
	size_t			 hr_n;
	int			 hr_truncated;
	struct harden_violation	 hr_v[HARDEN_REPORT_MAX];
};

/* Largest inspect answer the checkers parse. */
#define HARDEN_INSPECT_MAX	(1024 * 1024)

void	 harden_report_init(struct harden_report *);
/* Adds one violation (once per name). */
void	 harden_report_add(struct harden_report *, const char *check,
	    const char *message);
/* 1 if the report names check. */
int	 harden_report_has(const struct harden_report *, const char *check);
/*
 * An inspect answer, parsed with duplicate keys refused (two values of
 * one key: which one would the engine have meant?) and capped at
 * HARDEN_INSPECT_MAX.  NULL when it is not one JSON object.
 */
json_t	*harden_json_parse(const void *buf, size_t len);

/*
 * The checkers append to r; the container checkers take the inspect
 * of GET /containers/{id}/json.  Each names what is wrong (docker_verify.c
 * lists the names); an inspect that is not an object is "inspect".
 * The gatekeeper's names carry the prefix "gatekeeper_", as the spec's
 * verify reports them.
 */
void	 harden_verify_space(const json_t *, const struct harden_params *,
	    struct harden_report *);
void	 harden_verify_gatekeeper(const json_t *, const struct harden_params *,
	    struct harden_report *);
/* GET /networks/{id} of the outer bridge. */
void	 harden_verify_network(const json_t *, const struct harden_params *,
	    struct harden_report *);
/* GET /volumes/{name} of the socket, work or home volume. */
void	 harden_verify_volume(const json_t *, const struct harden_params *,
	    enum space_role, struct harden_report *);
void	 harden_verify_runtime_volume(const json_t *,
	    const struct harden_params *, struct harden_report *);
/*
 * The answer of a create (container, network or volume): a warning
 * means the engine dropped a setting, so it is "create_warnings"; an
 * answer without a proper Id or Name is "create_answer".
 */
void	 harden_verify_created(const json_t *, struct harden_report *);

#endif /* SPACED_DOCKER_HARDEN_H */
