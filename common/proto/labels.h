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

#ifndef SPACED_LABELS_H
#define SPACED_LABELS_H

/*
 * Labels and names of a space's Docker resources.  Labels are the only
 * record of a space and a name proves nothing: an act inspects a
 * resource and asks space_labels_check() before it touches it.  Pure,
 * but space_id_new() reads arc4random.
 */

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Every container, network and volume of a space carries all of these. */
#define LABEL_MARKER	"spaced.space"		/* "true" */
#define LABEL_ID	"spaced.space.id"	/* SPACE_ID_LEN hex */
#define LABEL_ROLE	"spaced.space.role"	/* enum space_role */
#define LABEL_OWNER	"spaced.space.owner"	/* <install-id>:<uid> */
#define LABEL_PROJECT	"spaced.space.project"	/* SPACE_PROJECT_LEN hex */
#define LABEL_NAME	"spaced.space.name"	/* display name */
#define LABEL_CREATED	"spaced.space.created"	/* YYYY-MM-DDTHH:MM:SSZ */
#define LABEL_MEMORY	"spaced.space.memory"	/* bytes, decimal */
/* The runtime volume belongs to an owner, not a space: marker, owner, */
#define LABEL_RUNTIME_KEY "spaced.runtime.key"	/* role "runtime" and this */
/* Tools resources carry no space id: the space operations pass them by. */
#define LABEL_TOOLS_KEY	"spaced.tools.key"	/* TOOLS_KEY_LEN hex */
#define LABEL_TOOLS_DESC "spaced.tools.description"	/* for people */
#define TOOLS_LABEL_KEY_LEN	16
#define TOOLS_LABEL_DESC_MAX	255

/* 12 lowercase hex characters: 48 random bits, as the spec's id. */
#define SPACE_ID_LEN		12
#define SPACE_ID_SIZE		(SPACE_ID_LEN + 1)
/* The first 16 hex characters of the sha256 of the project folder. */
#define SPACE_PROJECT_LEN	16
/* The install id is lowercase hex, this long at least and at most. */
#define INSTALL_ID_MIN		16
#define INSTALL_ID_MAX		64
/* "<install-id>:<uid>", uid in decimal without leading zeros. */
#define SPACE_OWNER_SIZE	(INSTALL_ID_MAX + 1 + 10 + 1)
#define SPACE_NAME_MAX		64	/* display name, bytes */
#define SPACE_CREATED_LEN	20	/* 2026-01-31T12:00:00Z */
/* The runtime key: 16 lowercase hex (the hash of the relay binary). */
#define RUNTIME_KEY_LEN		16
/* Longest resource name we make, with its NUL. */
#define SPACE_RESOURCE_MAX	128

enum space_role {
	ROLE_SPACE,		/* container  spaced-space-<id>-space */
	ROLE_GATEKEEPER,	/* container  spaced-space-<id>-gatekeeper */
	ROLE_SETUP,		/* container  spaced-space-<id>-setup */
	ROLE_NETWORK,		/* network    spaced-space-<id>-net (outer bridge) */
	ROLE_SOCKET,		/* volume     spaced-space-<id>-sock */
	ROLE_WORK,		/* volume     spaced-space-<id>-work */
	ROLE_HOME,		/* volume     spaced-space-<id>-home */
	ROLE_MAX
};

/* What a space's labels say; every field NUL-terminated. */
struct space_meta {
	char		 sm_id[SPACE_ID_SIZE];
	char		 sm_owner[SPACE_OWNER_SIZE];
	char		 sm_project[SPACE_PROJECT_LEN + 1];
	char		 sm_name[SPACE_NAME_MAX + 1];
	char		 sm_created[SPACE_CREATED_LEN + 1];
	uint64_t	 sm_memory;
};

/* The role's label value ("space", "network", ...), NULL if out of range. */
const char	*space_role_label(enum space_role);
/* The role's name suffix ("space", "net", "sock", ...). */
const char	*space_role_suffix(enum space_role);
/* The role a label value names, or -1. */
int		 space_role_parse(const char *);

/* Writes a fresh id from arc4random into id[SPACE_ID_SIZE]. */
void		 space_id_new(char *id);
/* 1 if s is exactly SPACE_ID_LEN lowercase hex characters, else 0. */
int		 space_id_valid(const char *s);
int		 install_id_valid(const char *s);
int		 space_project_valid(const char *s);
int		 space_created_valid(const char *s);
/* 1 to 64 bytes of UTF-8 without a control character (C0, DEL, C1). */
size_t		 utf8_char_len(const unsigned char *, size_t);
int		 space_name_valid(const char *s);
int		 runtime_key_valid(const char *s);

/* "<install>:<uid>" into buf; -1 if the install id is bad or buf short. */
int		 space_owner_fmt(char *buf, size_t len, const char *install,
		    uid_t uid);
/* 1 if s is an owner space_owner_fmt could have written. */
int		 space_owner_valid(const char *s);

int		 space_resource_name(char *buf, size_t len, const char *id,
		    enum space_role);
/* A move's old container keeps every label; only its name says aside. */
#define SPACE_ASIDE_SUFFIX	"-old"
int		 space_aside_name(char *buf, size_t len, const char *id);
/* One runtime volume per relay binary, shared by the installation. */
#define RUNTIME_VOLUME_PREFIX	"spaced-runtime-"
int		 runtime_volume_name(char *buf, size_t len, const char *key);

/* 1 if every field of m is valid (the memory must be above zero). */
int		 space_meta_valid(const struct space_meta *m);

json_t		*space_labels_build(const struct space_meta *m,
		    enum space_role r);
/* The runtime volume's labels: marker, owner, role "runtime", key. */
json_t		*runtime_labels_build(const char *owner, const char *key);

const char	*space_labels_check(const json_t *labels, const char *owner,
		    const char *id, int r);
const char	*space_labels_parse(const json_t *labels, const char *owner,
		    const char *id, int r, struct space_meta *m);
const char	*runtime_labels_check(const json_t *labels, const char *owner,
		    const char *key);

/*
 * The tools roles: the volume, its two one-shots, and the filler's way
 * out while it runs (its gatekeeper, that one's bridge, their sockets).
 */
enum tools_role {
	TOOLS_ROLE_VOLUME,	/* "tools": the volume spaced-tools-... */
	TOOLS_ROLE_FILL,	/* "tools-fill": the filler one-shot */
	TOOLS_ROLE_CHECK,	/* "tools-check": the marker's reader */
	TOOLS_ROLE_FILL_GK,	/* "tools-fill-gatekeeper" */
	TOOLS_ROLE_FILL_NET,	/* "tools-fill-network" */
	TOOLS_ROLE_FILL_SOCK,	/* "tools-fill-socket": a volume */
	TOOLS_ROLE_MAX
};
const char	*tools_role_label(enum tools_role);
/* 1 if s is 16 lowercase hex, a tools content key. */
int		 tools_label_key_valid(const char *s);
json_t		*tools_labels_build(const char *owner, enum tools_role,
		    const char *key, const char *description,
		    const char *created);
const char	*tools_labels_check(const json_t *labels, const char *owner,
		    enum tools_role r, const char *key,
		    char found[TOOLS_LABEL_KEY_LEN + 1]);

#endif /* SPACED_LABELS_H */
