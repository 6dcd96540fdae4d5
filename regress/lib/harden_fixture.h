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
 * The parameters every harden test, the recorder's body printer and the
 * recorded inspect JSON in data/ share: change one, record again.
 */

#ifndef HARDEN_FIXTURE_H
#define HARDEN_FIXTURE_H

#include <string.h>

#include "worker-docker/docker_harden.h"

#define FX_ID		"a1b2c3d4e5f6"
#define FX_INSTALL	"00112233445566778899aabbccddeeff"
#define FX_OWNER	FX_INSTALL ":1000"
#define FX_PROJECT	"0123456789abcdef"
#define FX_NAME		"recorded, space"	/* a comma, as docker ps hates */
#define FX_CREATED	"2026-01-31T12:00:00Z"
#define FX_IMAGE	"spaced-harden-record:1"
#define FX_KEY		"fedcba9876543210"
#define FX_SPACE	"spaced-space-" FX_ID "-space"
#define FX_GK		"spaced-space-" FX_ID "-gatekeeper"
#define FX_NET		"spaced-space-" FX_ID "-net"
#define FX_SOCK		"spaced-space-" FX_ID "-sock"
#define FX_WORK		"spaced-space-" FX_ID "-work"
#define FX_HOME		"spaced-space-" FX_ID "-home"
#define FX_RT_OWNER	FX_INSTALL ":0"	/* the installation's */
#define FX_RUNTIME	"spaced-runtime-" FX_KEY
/* record.sh makes it: a bind's source must exist for the create */
#define FX_HOSTS	"/tmp/spaced-harden-record.hosts"
/* a uid of spaced.conf's default range, past ustar's octal */
#define FX_UID		2000000042
#define FX_USER		"2000000042:2000000042"

static const char *const fx_argv[] = { "/bin/sleep", "3600", NULL };
static const char *const fx_env[] = { "LANG=C.UTF-8", NULL };
static const char *const fx_gk_argv[] = { "/spaced-gatekeeper", NULL };
static const char *const fx_health[] = { "CMD", "/opt/spaced/spaced-relay",
    "-c", "health", NULL };
static const char *const fx_gk_health[] = { "CMD", "/spaced-gatekeeper",
    "-c", "health", NULL };

static inline void
fx_params(struct harden_params *p)
{
	harden_params_init(p);
	strlcpy(p->hp_meta.sm_id, FX_ID, sizeof(p->hp_meta.sm_id));
	strlcpy(p->hp_meta.sm_owner, FX_OWNER, sizeof(p->hp_meta.sm_owner));
	strlcpy(p->hp_meta.sm_project, FX_PROJECT,
	    sizeof(p->hp_meta.sm_project));
	strlcpy(p->hp_meta.sm_name, FX_NAME, sizeof(p->hp_meta.sm_name));
	strlcpy(p->hp_meta.sm_created, FX_CREATED,
	    sizeof(p->hp_meta.sm_created));
	p->hp_space_image = FX_IMAGE;
	p->hp_gk_image = FX_IMAGE;
	strlcpy(p->hp_runtime_key, FX_KEY, sizeof(p->hp_runtime_key));
	strlcpy(p->hp_runtime_owner, FX_RT_OWNER, sizeof(p->hp_runtime_owner));
	p->hp_argv = fx_argv;
	p->hp_env = fx_env;
	p->hp_gk_argv = fx_gk_argv;
	p->hp_health = fx_health;
	p->hp_gk_health = fx_gk_health;
	p->hp_hosts = FX_HOSTS;
	p->hp_uid = FX_UID;
}

#endif /* HARDEN_FIXTURE_H */
