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
 * spaced.conf(5) (its agent profiles too) and the kernel's audit lines, the two texts spaced
 * parses itself, and the space checks of common/proto/space_parse.c.
 * fuzz-link: supervisor/spaced/config.c supervisor/spaced/config_agent.c common/proto/agent.c supervisor/spaced/kmsg.c supervisor/spaced/audit_parse.c common/proto/space_parse.c common/proto/space_limits.c common/proto/labels.c common/lib/log.c -lseccomp
 */

#include <stdint.h>
#include <string.h>

#include "labels.h"
#include "common/proto/space_parse.h"
#include "supervisor/spaced/spaced.h"

static int
terminated(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/* Printable ASCII without spaces, as config.c promises an image. */
static int
image_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s <= ' ' || *s > '~')
			return 0;
	return 1;
}

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spaced_conf	 conf;
	struct ctl_privileges	 cv;
	struct ctl_space	 cs;
	const char		*errstr;
	char			 err[256], str[64];
	uint64_t		 m;
	long			 nr;

	config_defaults(&conf, 0, NULL, NULL);
	if (config_parse((const char *)data, size, &conf, err,
	    sizeof(err)) == 0) {
		/* Whatever it took is an absolute, terminated path. */
		if (memchr(conf.sc_socket, '\0', sizeof(conf.sc_socket)) ==
		    NULL || conf.sc_socket[0] != '/')
			__builtin_trap();
		/* An install id is valid or unset; images are clean. */
		if (!terminated(conf.sc_install_id,
		    sizeof(conf.sc_install_id)) ||
		    (conf.sc_install_id[0] != '\0' &&
		    !install_id_valid(conf.sc_install_id)) ||
		    !terminated(conf.sc_space_image,
		    sizeof(conf.sc_space_image)) ||
		    !image_ok(conf.sc_space_image) ||
		    !terminated(conf.sc_gk_image, sizeof(conf.sc_gk_image)) ||
		    !image_ok(conf.sc_gk_image) ||
		    conf.sc_state[0] != '/')
			__builtin_trap();
		/* Every profile it took is whole, the default among them. */
		if (conf.sc_nagents > AGENT_PROFILES_MAX ||
		    config_agent(&conf, conf.sc_agent) == NULL)
			__builtin_trap();
		for (m = 0; m < conf.sc_nagents; m++)
			if (agent_profile_check(&conf.sc_agents[m]) != NULL)
				__builtin_trap();
	} else if (memchr(err, '\0', sizeof(err)) == NULL)
		__builtin_trap();
	(void)kmsg_parse_seccomp((const char *)data, size, 42, &nr);
	memset(&cv, 0, sizeof(cv));
	if (audit_parse_status((const char *)data, size, &cv) == 0 &&
	    (memchr(cv.cv_uid, '\0', sizeof(cv.cv_uid)) == NULL ||
	    memchr(cv.cv_capeff, '\0', sizeof(cv.cv_capeff)) == NULL))
		__builtin_trap();
	/* The memory parser: in range whenever it says yes. */
	if (size < sizeof(str)) {
		memcpy(str, data, size);
		str[size] = '\0';
		if (space_memory_parse(str, &m, &errstr) == 0 &&
		    (m < HARDEN_MEMORY_MIN || m > HARDEN_MEMORY_MAX))
			__builtin_trap();
	}
	/* A ctl_space it takes has every string terminated. */
	if (size >= sizeof(cs)) {
		memcpy(&cs, data, sizeof(cs));
		if (ctl_space_check(&cs, data[0] & 1, &errstr) == 0 &&
		    (!terminated(cs.cs_id, sizeof(cs.cs_id)) ||
		    !terminated(cs.cs_name, sizeof(cs.cs_name)) ||
		    !terminated(cs.cs_project, sizeof(cs.cs_project))))
			__builtin_trap();
	}
	return 0;
}
